//! A compiled type graph: type terms resolved against their declarations, with
//! generic arguments substituted, ready for decoding and checking values.
//!
//! Each instantiation of a declaration (`Page<Station>`) becomes one node,
//! memoized by its substituted term, so recursive types (`Region` holding
//! `List<Region>`) are finite graphs. Validation has already refused expanding
//! recursion, so the set of instantiations is finite.

use std::collections::HashMap;
use std::sync::Arc;

use crate::error::Result;
use crate::types::{resolve_named, Body, Declarations, Payload, Prim, Term, TOOL_OWNER};

pub type NodeId = usize;

#[derive(Debug, Clone)]
pub enum Node {
    Prim(Prim),
    List(NodeId),
    Set(NodeId),
    /// Option outside a record field: `"None"` or `{"Some": v}`.
    Option(NodeId),
    TextDict(NodeId),
    Dict(NodeId, NodeId),
    Tuple(Vec<NodeId>),
    Record(Record),
    Enum(Enum),
    /// A host token type: any JSON the host chose.
    Host(Arc<str>),
    /// A type no value crosses as (function, Task, nondata, an unbound type
    /// parameter, a set of host tokens): decoding refuses, saying why.
    Unservable(Arc<str>),
}

#[derive(Debug, Clone)]
pub struct Record {
    /// The declaration's identity, for messages.
    pub identity: Arc<str>,
    pub fields: Vec<FieldPlan>,
}

#[derive(Debug, Clone)]
pub struct FieldPlan {
    pub name: Arc<str>,
    /// For an optional field, the node of its payload type T (the field holds
    /// `Value::Option`); otherwise the field's type.
    pub ty: NodeId,
    /// The field's (substituted) type is an Option: absent means None.
    pub optional: bool,
}

#[derive(Debug, Clone)]
pub struct Enum {
    pub identity: Arc<str>,
    pub constructors: Vec<ConstructorPlan>,
}

#[derive(Debug, Clone)]
pub struct ConstructorPlan {
    pub name: Arc<str>,
    pub payload: PayloadPlan,
}

#[derive(Debug, Clone)]
pub enum PayloadPlan {
    None,
    Positional(Vec<NodeId>),
    Named(Vec<FieldPlan>),
}

/// Nodes for any number of root terms over one declaration map.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    nodes: Vec<Node>,
    memo: HashMap<Term, NodeId>,
}

impl Plan {
    pub fn new() -> Plan {
        Plan::default()
    }

    /// Compiles one root term (fully substituted: Params of a generic Tool must
    /// already be replaced by concrete terms, else they are unservable).
    pub fn compile(declarations: &Declarations, term: &Term) -> Result<(Plan, NodeId)> {
        let mut plan = Plan::new();
        let root = plan.add(declarations, term)?;
        Ok((plan, root))
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// Adds a root term; nodes already compiled are shared.
    pub fn add(&mut self, declarations: &Declarations, term: &Term) -> Result<NodeId> {
        let first_new = self.nodes.len();
        let id = self.term(declarations, term)?;
        self.refuse_unordered_keys(first_new);
        Ok(id)
    }

    fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn term(&mut self, declarations: &Declarations, term: &Term) -> Result<NodeId> {
        Ok(match term {
            Term::Prim(p) => {
                if let Some(&id) = self.memo.get(term) {
                    return Ok(id);
                }
                let id = self.push(Node::Prim(*p));
                self.memo.insert(term.clone(), id);
                id
            }
            Term::List(t) => {
                let item = self.term(declarations, t)?;
                self.push(Node::List(item))
            }
            Term::Set(t) => {
                let item = self.term(declarations, t)?;
                self.push(Node::Set(item))
            }
            Term::Option(t) => {
                let item = self.term(declarations, t)?;
                self.push(Node::Option(item))
            }
            Term::Dict(k, v) => {
                let value = self.term(declarations, v)?;
                if **k == Term::Prim(Prim::Text) {
                    self.push(Node::TextDict(value))
                } else {
                    let key = self.term(declarations, k)?;
                    self.push(Node::Dict(key, value))
                }
            }
            Term::Tuple(items) => {
                let ids = items.iter().map(|t| self.term(declarations, t)).collect::<Result<_>>()?;
                self.push(Node::Tuple(ids))
            }
            Term::Task(_) => self.push(Node::Unservable("a Task has no encoding".into())),
            Term::Function { .. } => self.push(Node::Unservable("a function has no encoding".into())),
            Term::Param { owner, index } => {
                let what = if owner == TOOL_OWNER {
                    format!("type parameter {index} of the Tool has no concrete type here")
                } else {
                    format!("parameter {index} of declaration {owner:?} is unbound")
                };
                self.push(Node::Unservable(what.into()))
            }
            Term::Named { declaration, args } => {
                if let Some(&id) = self.memo.get(term) {
                    return Ok(id);
                }
                let template = resolve_named(declarations, declaration, args.len())?;
                // Reserve the node first so recursive references find it.
                let id = self.push(Node::Unservable("incomplete".into()));
                self.memo.insert(term.clone(), id);
                let identity: Arc<str> = template.identity.as_str().into();
                let subst = |t: &Term| t.substitute(declaration, args);
                let node = match &template.body {
                    Body::Record { fields } => {
                        let fields = fields
                            .iter()
                            .map(|f| self.field(declarations, &f.name, &subst(&f.ty)))
                            .collect::<Result<_>>()?;
                        Node::Record(Record { identity, fields })
                    }
                    Body::Enum { constructors } => {
                        let mut plans = Vec::with_capacity(constructors.len());
                        for c in constructors {
                            let payload = match &c.payload {
                                None => PayloadPlan::None,
                                Some(Payload::Positional(parts)) => PayloadPlan::Positional(
                                    parts.iter().map(|t| self.term(declarations, &subst(t))).collect::<Result<_>>()?,
                                ),
                                Some(Payload::Named(fields)) => PayloadPlan::Named(
                                    fields
                                        .iter()
                                        .map(|f| self.field(declarations, &f.name, &subst(&f.ty)))
                                        .collect::<Result<_>>()?,
                                ),
                            };
                            plans.push(ConstructorPlan { name: c.name.as_str().into(), payload });
                        }
                        Node::Enum(Enum { identity, constructors: plans })
                    }
                    Body::Host => Node::Host(identity),
                    Body::Nondata => Node::Unservable(format!("{} has no data encoding", template.identity).into()),
                };
                self.nodes[id] = node;
                id
            }
        })
    }

    fn field(&mut self, declarations: &Declarations, name: &str, ty: &Term) -> Result<FieldPlan> {
        // The Option-field rule follows the substituted type (decisions.md 2a).
        let (ty, optional) = match ty {
            Term::Option(inner) => (self.term(declarations, inner)?, true),
            other => (self.term(declarations, other)?, false),
        };
        Ok(FieldPlan { name: name.into(), ty, optional })
    }

    /// Host tokens have no order: a Set whose element type, or a Dict whose key
    /// type, holds one anywhere inside cannot cross (decisions.md section 3).
    fn refuse_unordered_keys(&mut self, first_new: NodeId) {
        for id in first_new..self.nodes.len() {
            let key = match &self.nodes[id] {
                Node::Set(item) => *item,
                Node::Dict(key, _) => *key,
                _ => continue,
            };
            if self.reaches_host(key) {
                let what = if matches!(self.nodes[id], Node::Set(_)) { "a Set element" } else { "a Dict key" };
                self.nodes[id] = Node::Unservable(format!("{what} holds a host token, which has no order").into());
            }
        }
    }

    fn reaches_host(&self, start: NodeId) -> bool {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![start];
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id], true) {
                continue;
            }
            match &self.nodes[id] {
                Node::Host(_) => return true,
                Node::Prim(_) | Node::Unservable(_) => {}
                Node::List(t) | Node::Set(t) | Node::Option(t) | Node::TextDict(t) => stack.push(*t),
                Node::Dict(k, v) => stack.extend([*k, *v]),
                Node::Tuple(items) => stack.extend(items),
                Node::Record(r) => stack.extend(r.fields.iter().map(|f| f.ty)),
                Node::Enum(e) => {
                    for c in &e.constructors {
                        match &c.payload {
                            PayloadPlan::None => {}
                            PayloadPlan::Positional(parts) => stack.extend(parts),
                            PayloadPlan::Named(fields) => stack.extend(fields.iter().map(|f| f.ty)),
                        }
                    }
                }
            }
        }
        false
    }
}
