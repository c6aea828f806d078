//! The Python form of Flow types: type terms compiled into nodes that say which
//! Python object stands for each value (the type mapping of the package
//! docstring), with the generated classes looked up by identity.
//!
//! Why not the core's [`flow_core::plan::Plan`]: the Python form of an Option
//! depends on the type as *written*, not as substituted. `Page<T>` with a
//! field `x: Option<T>` declares `x: Some[T] | None` in Python whatever T is
//! bound to, because T's values may include None; the core substitutes T away
//! before it could tell. So terms are first turned into [`PTerm`]s, which keep
//! that decision (`wrap`) through substitution, and then compiled.
//!
//! A generic Tool's own type parameters reach the author as JSON
//! (`host-boundary.md`, "Toolkits"). Where a call's concrete view is known,
//! such a position is a [`PyNode::ParamJson`] holding the concrete type, so the
//! JSON handed to the author is the value's standalone encoding at that type
//! and JSON handed back is decoded at it (the Option-field rule of the
//! substituted type included). Without a view it is plain json.Value.

use std::collections::HashMap;
use std::sync::Arc;

use flow_core::plan::{NodeId, Plan};
use flow_core::types::{Body, Declarations, Payload, Prim, Term, TOOL_OWNER};
use flow_core::{Error, Rule};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

pub type Id = usize;

/// Which declaration map a Named term resolves in: the served listing, or a
/// generic call's view (the caller's local ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    Listing,
    View,
}

/// A type term that remembers how each Option was written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PTerm {
    Prim(Prim),
    List(Box<PTerm>),
    Set(Box<PTerm>),
    /// `wrap`: the Python form is `Some[T] | None`, because the item's Python
    /// values, as written, may themselves be None.
    Option {
        item: Box<PTerm>,
        wrap: bool,
    },
    Dict(Box<PTerm>, Box<PTerm>),
    Tuple(Vec<PTerm>),
    Named {
        side: Side,
        id: String,
        args: Vec<PTerm>,
    },
    /// A template's own parameter, before substitution.
    Param {
        owner: String,
        index: usize,
    },
    /// A Tool type parameter, as JSON; with the concrete term of a call's view
    /// when there is one.
    ParamJson(Option<Term>),
    /// No value crosses here.
    Unservable(String),
}

/// Whether a term's Python values, as written, include None.
fn may_be_none(term: &Term) -> bool {
    matches!(term, Term::Prim(Prim::Unit | Prim::JsonValue) | Term::Option(_) | Term::Param { .. })
}

impl PTerm {
    /// `tool_params`: what a Tool type parameter `index` becomes at the roots.
    pub fn from_term(term: &Term, side: Side, tool_params: &dyn Fn(usize) -> PTerm) -> PTerm {
        let recur = |t: &Term| Box::new(PTerm::from_term(t, side, tool_params));
        match term {
            Term::Prim(p) => PTerm::Prim(*p),
            Term::List(t) => PTerm::List(recur(t)),
            Term::Set(t) => PTerm::Set(recur(t)),
            Term::Option(t) => PTerm::Option { item: recur(t), wrap: may_be_none(t) },
            Term::Dict(k, v) => PTerm::Dict(recur(k), recur(v)),
            Term::Tuple(items) => PTerm::Tuple(items.iter().map(|t| PTerm::from_term(t, side, tool_params)).collect()),
            Term::Named { declaration, args } => PTerm::Named {
                side,
                id: declaration.clone(),
                args: args.iter().map(|t| PTerm::from_term(t, side, tool_params)).collect(),
            },
            Term::Param { owner, index } if owner == TOOL_OWNER => tool_params(*index),
            Term::Param { owner, index } => PTerm::Param { owner: owner.clone(), index: *index },
            Term::Task(_) => PTerm::Unservable("a Task has no encoding".into()),
            Term::Function { .. } => PTerm::Unservable("a function has no encoding".into()),
        }
    }

    fn substitute(&self, owner: &str, args: &[PTerm]) -> PTerm {
        let recur = |t: &PTerm| Box::new(t.substitute(owner, args));
        match self {
            PTerm::List(t) => PTerm::List(recur(t)),
            PTerm::Set(t) => PTerm::Set(recur(t)),
            PTerm::Option { item, wrap } => PTerm::Option { item: recur(item), wrap: *wrap },
            PTerm::Dict(k, v) => PTerm::Dict(recur(k), recur(v)),
            PTerm::Tuple(items) => PTerm::Tuple(items.iter().map(|t| t.substitute(owner, args)).collect()),
            PTerm::Named { side, id, args: inner } => PTerm::Named {
                side: *side,
                id: id.clone(),
                args: inner.iter().map(|t| t.substitute(owner, args)).collect(),
            },
            PTerm::Param { owner: o, index } if o == owner => args[*index].clone(),
            other => other.clone(),
        }
    }
}

/// One record field or named payload part. `node` is the field's whole
/// (substituted) type, Option included: the core writes a field holding an
/// Option by the Option-field rule.
pub struct PyField {
    /// The Flow name (a positional part's is its index).
    pub flow_name: Arc<str>,
    pub attr: Py<PyString>,
    pub node: Id,
    /// Where the class keeps this attribute in its instances (a `__slots__`
    /// member), when it is a plain object slot: read and written there
    /// directly on instances of exactly the class.
    pub offset: Option<isize>,
    /// The member's key as canonical text, with its colon: `"name":`.
    pub key: Box<str>,
}

impl PyField {
    fn new(flow_name: Arc<str>, attr: Py<PyString>, node: Id, offset: Option<isize>) -> PyField {
        let mut key = String::with_capacity(flow_name.len() + 3);
        flow_core::json::write_string(&mut key, &flow_name);
        key.push(':');
        PyField { flow_name, attr, node, offset, key: key.into() }
    }
}

pub struct RecordPlan {
    pub identity: Arc<str>,
    pub class: Py<PyType>,
    pub fields: Vec<PyField>,
    /// Field indices in the code-point order of their names: the canonical
    /// text's member order.
    pub sorted: Vec<usize>,
}

fn sorted_order(fields: &[PyField]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_by(|&a, &b| fields[a].flow_name.cmp(&fields[b].flow_name));
    order
}

pub enum PyPayload {
    None,
    /// The parts, held in attributes `value`, or `_0`, `_1`, ...
    Positional(Vec<PyField>),
    Named {
        fields: Vec<PyField>,
        sorted: Vec<usize>,
    },
}

pub struct CtorPlan {
    pub name: Arc<str>,
    /// The name as canonical text (quoted).
    pub name_json: Box<str>,
    pub class: Py<PyType>,
    pub payload: PyPayload,
    /// The one instance of a payload-less constructor, shared by every decoded
    /// value; None for an exception class, made anew each time.
    pub singleton: Option<Py<PyAny>>,
}

pub struct EnumPlan {
    pub identity: Arc<str>,
    pub ctors: Vec<CtorPlan>,
}

pub enum PyNode {
    Prim(Prim),
    List(Id),
    Set(Id),
    Option {
        item: Id,
        wrap: bool,
    },
    TextDict(Id),
    Dict(Id, Id),
    Tuple(Vec<Id>),
    Record(RecordPlan),
    Enum(EnumPlan),
    Host,
    /// A Tool type parameter as JSON: plain json.Value without a concrete
    /// type; else JSON of the value's standalone encoding at `plan`/`node`.
    ParamJson(Option<(Arc<Plan>, NodeId)>),
    Unservable(Arc<str>),
    /// Being compiled (a recursive reference finds it by id).
    Pending,
}

/// The generated classes, by declaration identity: a record's class, or an
/// enum's constructor classes in declaration order.
#[derive(Default)]
pub struct Classes {
    pub records: HashMap<String, Py<PyType>>,
    pub enums: HashMap<String, Vec<Py<PyType>>>,
}

impl Classes {
    /// Reads `{identity: class}` and `{identity: (class, ...)}` from a dict.
    pub fn from_dict(dict: &Bound<'_, PyDict>) -> PyResult<Classes> {
        let mut classes = Classes::default();
        for (key, value) in dict.iter() {
            let identity: String = key.extract()?;
            if let Ok(tuple) = value.cast::<PyTuple>() {
                let ctors =
                    tuple.iter().map(|c| c.cast_into::<PyType>().map(Bound::unbind)).collect::<Result<Vec<_>, _>>()?;
                classes.enums.insert(identity, ctors);
            } else {
                classes.records.insert(identity, value.cast_into::<PyType>()?.unbind());
            }
        }
        Ok(classes)
    }
}

/// Compiled Python-form nodes over one or two declaration maps.
pub struct PyPlan {
    nodes: Vec<PyNode>,
    memo: HashMap<PTerm, Id>,
    listing: Arc<Declarations>,
    view: Option<Arc<Declarations>>,
    classes: Arc<Classes>,
}

fn slots<'py>(class: &Bound<'py, PyType>) -> PyResult<Vec<Bound<'py, PyString>>> {
    let slots = class.getattr(pyo3::intern!(class.py(), "__slots__"))?;
    if let Ok(s) = slots.cast::<PyString>() {
        return Ok(vec![s.clone()]);
    }
    slots.try_iter()?.map(|s| Ok(s?.cast_into::<PyString>()?)).collect()
}

fn class_error(class: &Bound<'_, PyType>, identity: &str, what: String) -> PyErr {
    let name = class.qualname().map(|n| n.to_string()).unwrap_or_default();
    pyo3::exceptions::PyTypeError::new_err(format!("class {name} registered for {identity} {what}"))
}

impl PyPlan {
    pub fn new(listing: Arc<Declarations>, view: Option<Arc<Declarations>>, classes: Arc<Classes>) -> PyPlan {
        PyPlan { nodes: Vec::new(), memo: HashMap::new(), listing, view, classes }
    }

    pub fn node(&self, id: Id) -> &PyNode {
        &self.nodes[id]
    }

    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    fn push(&mut self, node: PyNode) -> Id {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// Compiles a root term. Structural refusals (unresolved names, arity) are
    /// flow errors; a class that does not fit its declaration is a TypeError.
    pub fn add(&mut self, py: Python<'_>, term: &PTerm) -> PyResult<Result<Id, Error>> {
        self.term(py, term)
    }

    fn term(&mut self, py: Python<'_>, term: &PTerm) -> PyResult<Result<Id, Error>> {
        if let Some(&id) = self.memo.get(term) {
            return Ok(Ok(id));
        }
        macro_rules! sub {
            ($t:expr) => {
                match self.term(py, $t)? {
                    Ok(id) => id,
                    Err(e) => return Ok(Err(e)),
                }
            };
        }
        let id = match term {
            PTerm::Prim(p) => self.push(PyNode::Prim(*p)),
            PTerm::List(t) => {
                let item = sub!(t);
                self.push(PyNode::List(item))
            }
            PTerm::Set(t) => {
                let item = sub!(t);
                self.push(PyNode::Set(item))
            }
            PTerm::Option { item, wrap } => {
                let item = sub!(item);
                self.push(PyNode::Option { item, wrap: *wrap })
            }
            PTerm::Dict(k, v) => {
                let value = sub!(v);
                if **k == PTerm::Prim(Prim::Text) {
                    self.push(PyNode::TextDict(value))
                } else {
                    let key = sub!(k);
                    self.push(PyNode::Dict(key, value))
                }
            }
            PTerm::Tuple(items) => {
                let mut ids = Vec::with_capacity(items.len());
                for t in items {
                    ids.push(sub!(t));
                }
                self.push(PyNode::Tuple(ids))
            }
            PTerm::Param { owner, index } => {
                self.push(PyNode::Unservable(format!("parameter {index} of declaration {owner:?} is unbound").into()))
            }
            PTerm::ParamJson(None) => self.push(PyNode::ParamJson(None)),
            PTerm::ParamJson(Some(concrete)) => {
                let declarations = self.view.clone().unwrap_or_else(|| self.listing.clone());
                match Plan::compile(&declarations, concrete) {
                    Ok((plan, node)) => self.push(PyNode::ParamJson(Some((Arc::new(plan), node)))),
                    Err(e) => return Ok(Err(e)),
                }
            }
            PTerm::Unservable(why) => self.push(PyNode::Unservable(why.as_str().into())),
            PTerm::Named { side, id: decl, args } => {
                let declarations = match side {
                    Side::Listing => self.listing.clone(),
                    Side::View => self.view.clone().unwrap_or_else(|| self.listing.clone()),
                };
                let Some(template) = declarations.get(decl) else {
                    return Ok(Err(Error::new(Rule::Unresolved, format!("no declaration {decl:?}"))));
                };
                if template.generic.len() != args.len() {
                    return Ok(Err(Error::new(
                        Rule::Arity,
                        format!(
                            "{} takes {} type arguments, given {}",
                            template.identity,
                            template.generic.len(),
                            args.len()
                        ),
                    )));
                }
                let id = self.push(PyNode::Pending);
                self.memo.insert(term.clone(), id);
                let identity: Arc<str> = template.identity.as_str().into();
                // Template bodies hold no Tool parameters (validation refused them).
                let no_tool_params = |_| PTerm::Unservable("a Tool type parameter inside a declaration".into());
                let body_term = |t: &Term| PTerm::from_term(t, *side, &no_tool_params).substitute(decl, args);
                let node = match &template.body {
                    Body::Record { fields } => {
                        let Some(class) = self.classes.records.get(&template.identity).map(|c| c.clone_ref(py)) else {
                            return Err(pyo3::exceptions::PyKeyError::new_err(format!(
                                "no class is registered for the record {}",
                                template.identity
                            )));
                        };
                        let attrs = slots(class.bind(py))?;
                        if attrs.len() != fields.len() {
                            return Err(class_error(
                                class.bind(py),
                                &template.identity,
                                format!("has {} slots; the record has {} fields", attrs.len(), fields.len()),
                            ));
                        }
                        let mut plans = Vec::with_capacity(fields.len());
                        for (f, attr) in fields.iter().zip(attrs) {
                            let node = sub!(&body_term(&f.ty));
                            let offset = crate::pyobjects::slot_offset(class.bind(py), &attr)?;
                            plans.push(PyField::new(f.name.as_str().into(), attr.unbind(), node, offset));
                        }
                        PyNode::Record(RecordPlan { identity, class, sorted: sorted_order(&plans), fields: plans })
                    }
                    Body::Enum { constructors } => {
                        let Some(classes) = self
                            .classes
                            .enums
                            .get(&template.identity)
                            .map(|cs| cs.iter().map(|c| c.clone_ref(py)).collect::<Vec<_>>())
                        else {
                            return Err(pyo3::exceptions::PyKeyError::new_err(format!(
                                "no constructor classes are registered for the enum {}",
                                template.identity
                            )));
                        };
                        if classes.len() != constructors.len() {
                            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                                "{} constructor classes are registered for {}, which has {}",
                                classes.len(),
                                template.identity,
                                constructors.len()
                            )));
                        }
                        let mut ctors = Vec::with_capacity(constructors.len());
                        for (c, class) in constructors.iter().zip(classes) {
                            let attrs = slots(class.bind(py))?;
                            let want = match &c.payload {
                                None => 0,
                                Some(Payload::Positional(parts)) => parts.len(),
                                Some(Payload::Named(fields)) => fields.len(),
                            };
                            if attrs.len() != want {
                                return Err(class_error(
                                    class.bind(py),
                                    &template.identity,
                                    format!(
                                        "as constructor {} has {} slots; the constructor has {want} parts",
                                        c.name,
                                        attrs.len()
                                    ),
                                ));
                            }
                            let payload = match &c.payload {
                                None => PyPayload::None,
                                Some(Payload::Positional(parts)) => {
                                    let mut nodes = Vec::with_capacity(parts.len());
                                    for (i, (t, attr)) in parts.iter().zip(attrs).enumerate() {
                                        let node = sub!(&body_term(t));
                                        let offset = crate::pyobjects::slot_offset(class.bind(py), &attr)?;
                                        nodes.push(PyField::new(i.to_string().into(), attr.unbind(), node, offset));
                                    }
                                    PyPayload::Positional(nodes)
                                }
                                Some(Payload::Named(fields)) => {
                                    let mut plans = Vec::with_capacity(fields.len());
                                    for (f, attr) in fields.iter().zip(attrs) {
                                        let node = sub!(&body_term(&f.ty));
                                        let offset = crate::pyobjects::slot_offset(class.bind(py), &attr)?;
                                        plans.push(PyField::new(f.name.as_str().into(), attr.unbind(), node, offset));
                                    }
                                    PyPayload::Named { sorted: sorted_order(&plans), fields: plans }
                                }
                            };
                            // An exception is never shared: raising one writes its
                            // traceback into it.
                            let singleton = match payload {
                                PyPayload::None if !crate::pyobjects::is_exception_class(class.bind(py)) => {
                                    Some(class.bind(py).call0()?.unbind())
                                }
                                _ => None,
                            };
                            let mut name_json = String::new();
                            flow_core::json::write_string(&mut name_json, &c.name);
                            ctors.push(CtorPlan {
                                name: c.name.as_str().into(),
                                name_json: name_json.into(),
                                class,
                                payload,
                                singleton,
                            });
                        }
                        PyNode::Enum(EnumPlan { identity, ctors })
                    }
                    Body::Host => PyNode::Host,
                    Body::Nondata => PyNode::Unservable(format!("{} has no data encoding", template.identity).into()),
                };
                self.nodes[id] = node;
                return Ok(Ok(id));
            }
        };
        self.memo.insert(term.clone(), id);
        Ok(Ok(id))
    }
}
