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
use crate::types::{crossing, resolve_named, Body, Declarations, Payload, Prim, Term, TOOL_OWNER};

/// The index of a node in its [`Plan`].
pub type NodeId = usize;

/// One compiled type: what a value of it must be, with its parts as other nodes.
#[derive(Debug, Clone)]
pub enum Node {
    /// A primitive type.
    Prim(Prim),
    /// A list of the node's type.
    List(NodeId),
    /// A set of the node's type.
    Set(NodeId),
    /// Option outside a record field: `"None"` or `{"Some": v}`.
    Option(NodeId),
    /// A dict with Text keys: a JSON object.
    TextDict(NodeId),
    /// A dict with other keys: a JSON array of key and value pairs.
    Dict(NodeId, NodeId),
    /// A tuple of the nodes' types, in order.
    Tuple(Vec<NodeId>),
    /// A record instantiation.
    Record(Record),
    /// An enum instantiation.
    Enum(Enum),
    /// A host token type: any JSON the host chose.
    Host(Arc<str>),
    /// A type no value of which is here: an unbound type parameter. (A
    /// function, Task or nondata type never reaches a plan: [`Plan::add`]
    /// refuses every type that cannot cross.)
    Unservable(Arc<str>),
}

/// A record instantiation: its fields with their substituted types.
#[derive(Debug, Clone)]
pub struct Record {
    /// The declaration's identity, for messages.
    pub identity: Arc<str>,
    /// The fields, in declaration order.
    pub fields: Vec<FieldPlan>,
}

/// A record field or named payload part, compiled.
#[derive(Debug, Clone)]
pub struct FieldPlan {
    /// The field's name.
    pub name: Arc<str>,
    /// For an optional field, the node of its payload type T (the field holds
    /// `Value::Option`); otherwise the field's type.
    pub ty: NodeId,
    /// The field's (substituted) type is an Option: absent means None.
    pub optional: bool,
}

/// An enum instantiation: its constructors with their substituted payloads.
#[derive(Debug, Clone)]
pub struct Enum {
    /// The declaration's identity, for messages.
    pub identity: Arc<str>,
    /// The constructors, in declaration order.
    pub constructors: Vec<ConstructorPlan>,
}

/// An enum constructor, compiled.
#[derive(Debug, Clone)]
pub struct ConstructorPlan {
    /// The constructor's name.
    pub name: Arc<str>,
    /// The data it carries.
    pub payload: PayloadPlan,
}

/// The data a compiled constructor carries.
#[derive(Debug, Clone)]
pub enum PayloadPlan {
    /// None: a constant constructor.
    None,
    /// Positional parts, one node each.
    Positional(Vec<NodeId>),
    /// Named parts, as fields.
    Named(Vec<FieldPlan>),
}

/// Nodes for any number of root terms over one declaration map.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    nodes: Vec<Node>,
    memo: HashMap<Term, NodeId>,
}

impl Plan {
    /// An empty plan, to which [`Plan::add`] adds roots.
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

    /// The node with index `id`; panics on an index this plan did not hand out.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    /// Adds a root term; nodes already compiled are shared. A type that
    /// cannot cross ([`crate::types::crossing`](mod@crate::types::crossing)) is refused here, before any
    /// value is seen: no plan holds one, so neither decoding nor encoding
    /// can accept a value of it (not even `[]` at `List<fn()->Unit>`).
    pub fn add(&mut self, declarations: &Declarations, term: &Term) -> Result<NodeId> {
        crossing(term, declarations, &[])?;
        self.term(declarations, term)
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
}
