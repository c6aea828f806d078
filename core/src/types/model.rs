//! The shapes of type descriptions. Parsing ([`super::parse`]) builds them from
//! JSON and validation ([`super::validate`]) checks their rules; once a
//! `Listing`, `TypeSpec` or `CallView` exists it has passed both.

use std::collections::BTreeMap;

/// A primitive term, spelled as in the JSON (`"Int"`, `"json.Value"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Prim {
    /// Exact integers of any size.
    Int,
    /// Exact decimals of any size and scale.
    Decimal,
    /// `true` or `false`.
    Bool,
    /// Unicode text.
    Text,
    /// Binary data, base64 in JSON.
    Bytes,
    /// A length of time, exact to the nanosecond.
    Duration,
    /// A point in time with its offset.
    Instant,
    /// The one value `()`, `null` in JSON.
    Unit,
    /// The type with no values: an error that cannot happen.
    Never,
    /// Any JSON, passed through as written (`json.Value`).
    JsonValue,
}

impl Prim {
    /// Every primitive, in the order of the specification's table.
    pub const ALL: [Prim; 10] = [
        Prim::Int,
        Prim::Decimal,
        Prim::Bool,
        Prim::Text,
        Prim::Bytes,
        Prim::Duration,
        Prim::Instant,
        Prim::Unit,
        Prim::Never,
        Prim::JsonValue,
    ];

    /// The primitive's spelling in JSON listings (`"json.Value"` for [`Prim::JsonValue`]).
    pub fn name(self) -> &'static str {
        match self {
            Prim::Int => "Int",
            Prim::Decimal => "Decimal",
            Prim::Bool => "Bool",
            Prim::Text => "Text",
            Prim::Bytes => "Bytes",
            Prim::Duration => "Duration",
            Prim::Instant => "Instant",
            Prim::Unit => "Unit",
            Prim::Never => "Never",
            Prim::JsonValue => "json.Value",
        }
    }

    /// The primitive spelled `name`, or `None` when no primitive has that spelling.
    pub fn from_name(name: &str) -> Option<Prim> {
        Prim::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// A type term.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Term {
    /// A primitive type.
    Prim(Prim),
    /// A list of the inner type, in order.
    List(Box<Term>),
    /// A set of the inner type, in the type's order.
    Set(Box<Term>),
    /// An optional value of the inner type.
    Option(Box<Term>),
    /// A task producing the inner type; it cannot cross the host boundary.
    Task(Box<Term>),
    /// A dict from the key type to the value type.
    Dict(Box<Term>, Box<Term>),
    /// At least two items.
    Tuple(Vec<Term>),
    /// A function type; it cannot cross the host boundary.
    Function {
        /// The parameter types, in order.
        params: Vec<Term>,
        /// The result type.
        result: Box<Term>,
    },
    /// A declaration by local id, with its arguments in declaration order.
    Named {
        /// The local id of the declaration in the listing's `declarations`.
        declaration: String,
        /// The type arguments, one per parameter of the declaration.
        args: Vec<Term>,
    },
    /// Parameter `index` of `owner`: a declaration's local id, or `tool` for a
    /// Tool's own type parameters.
    Param {
        /// The declaration's local id, or [`TOOL_OWNER`].
        owner: String,
        /// The parameter's position in the owner's `generic` list.
        index: usize,
    },
}

/// The owner name that a Tool's roots use for the Tool's own type parameters.
pub const TOOL_OWNER: &str = "tool";

impl Term {
    /// Replaces every `Param` of `owner` by the matching argument.
    pub fn substitute(&self, owner: &str, args: &[Term]) -> Term {
        match self {
            Term::Prim(p) => Term::Prim(*p),
            Term::List(t) => Term::List(Box::new(t.substitute(owner, args))),
            Term::Set(t) => Term::Set(Box::new(t.substitute(owner, args))),
            Term::Option(t) => Term::Option(Box::new(t.substitute(owner, args))),
            Term::Task(t) => Term::Task(Box::new(t.substitute(owner, args))),
            Term::Dict(k, v) => Term::Dict(Box::new(k.substitute(owner, args)), Box::new(v.substitute(owner, args))),
            Term::Tuple(items) => Term::Tuple(items.iter().map(|t| t.substitute(owner, args)).collect()),
            Term::Function { params, result } => Term::Function {
                params: params.iter().map(|t| t.substitute(owner, args)).collect(),
                result: Box::new(result.substitute(owner, args)),
            },
            Term::Named { declaration, args: inner } => Term::Named {
                declaration: declaration.clone(),
                args: inner.iter().map(|t| t.substitute(owner, args)).collect(),
            },
            Term::Param { owner: o, index } if o == owner => args[*index].clone(),
            Term::Param { .. } => self.clone(),
        }
    }

    /// Calls `f` on this term and every term inside it.
    pub fn walk(&self, f: &mut impl FnMut(&Term)) {
        f(self);
        match self {
            Term::Prim(_) | Term::Param { .. } => {}
            Term::List(t) | Term::Set(t) | Term::Option(t) | Term::Task(t) => t.walk(f),
            Term::Dict(k, v) => {
                k.walk(f);
                v.walk(f);
            }
            Term::Tuple(items) => items.iter().for_each(|t| t.walk(f)),
            Term::Function { params, result } => {
                params.iter().for_each(|t| t.walk(f));
                result.walk(f);
            }
            Term::Named { args, .. } => args.iter().for_each(|t| t.walk(f)),
        }
    }
}

/// A record field or a named payload part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The field's name as declared.
    pub name: String,
    /// The field's type.
    pub ty: Term,
    /// The documentation written on the field, if any.
    pub doc: Option<String>,
}

/// The data an enum constructor carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// At least one part.
    Positional(Vec<Term>),
    /// Possibly none.
    Named(Vec<Field>),
}

/// One constructor of an enum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constructor {
    /// The constructor's name as declared.
    pub name: String,
    /// The documentation written on the constructor, if any.
    pub doc: Option<String>,
    /// The data it carries, or `None` for a constant constructor.
    pub payload: Option<Payload>,
}

/// What a declaration is: a record, an enum, a host token type or a type without data encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// A record with fields in declaration order.
    Record {
        /// The record's fields, in declaration order.
        fields: Vec<Field>,
    },
    /// At least one constructor.
    Enum {
        /// The enum's constructors, in declaration order.
        constructors: Vec<Constructor>,
    },
    /// A host token type.
    Host,
    /// A type with no data encoding.
    Nondata,
}

impl Body {
    /// The `kind` member that names this body in JSON (`"record"`, `"enum"`, `"host"`, `"nondata"`).
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Record { .. } => "record",
            Body::Enum { .. } => "enum",
            Body::Host => "host",
            Body::Nondata => "nondata",
        }
    }
}

/// A declaration template: unsubstituted, its own parameters written as
/// `Param { owner: <its local id>, index }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The declared name, without the identity's path.
    pub name: String,
    /// `REPOSITORY@VERSION/FILE.NAME`, or `PATH.NAME` outside a repository.
    pub identity: String,
    /// The source-derived type-name ordinal of `trace.md`, not a position in the reachable graph.
    pub lexical_ordinal: u64,
    /// The names of the declaration's type parameters.
    pub generic: Vec<String>,
    /// Whether the Flow source declares the type opaque.
    pub opaque: bool,
    /// The documentation written on the declaration, if any.
    pub doc: Option<String>,
    /// The record fields, enum constructors, or the host or nondata marker.
    pub body: Body,
}

/// Declarations by local id.
pub type Declarations = BTreeMap<String, Template>;

/// A Tool parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// The parameter's name as declared.
    pub name: String,
    /// The parameter's type.
    pub ty: Term,
}

/// One Tool of a listing (`decisions.md` section 6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolDecl {
    /// The Tool's identity.
    pub tool: String,
    /// The documentation written on the Tool, if any.
    pub doc: Option<String>,
    /// The names of the Tool's own type parameters (empty when it is not generic).
    pub generic: Vec<String>,
    /// The parameters, in declaration order.
    pub params: Vec<Param>,
    /// The success type.
    pub ok: Term,
    /// The error type (`Never` when the Tool cannot fail).
    pub err: Term,
}

impl ToolDecl {
    /// The NAME part of the identity (after the last `.`).
    pub fn name(&self) -> &str {
        identity_name(&self.tool)
    }

    /// Whether the Tool has type parameters of its own.
    pub fn is_generic(&self) -> bool {
        !self.generic.is_empty()
    }
}

/// The output of `flow tools`: what generators read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The listing format's version (`data`), checked against [`DATA_VERSION`](super::DATA_VERSION).
    pub data: String,
    /// The Tools, in listing order.
    pub tools: Vec<ToolDecl>,
    /// The declarations the Tools reach, by local id.
    pub declarations: Declarations,
}

impl Listing {
    /// The Tool with identity `identity`, if the listing has it.
    pub fn tool(&self, identity: &str) -> Option<&ToolDecl> {
        self.tools.iter().find(|t| t.tool == identity)
    }
}

/// A generated TypeSpec: one Tool's roots and the declarations they reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeSpec {
    /// The names of the Tool's own type parameters.
    pub generic: Vec<String>,
    /// The Tool's parameters, in declaration order.
    pub params: Vec<Param>,
    /// The success type.
    pub ok: Term,
    /// The error type.
    pub err: Term,
    /// Exactly the declarations the roots reach, by local id.
    pub declarations: Declarations,
}

/// A generic call's concrete types view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallView {
    /// Type parameter name and its concrete term, in declaration order.
    pub bindings: Vec<(String, Term)>,
    /// The parameters with the bindings substituted.
    pub params: Vec<Param>,
    /// The success type with the bindings substituted.
    pub ok: Term,
    /// The error type with the bindings substituted.
    pub err: Term,
    /// Exactly the declarations the substituted types reach, by local id.
    pub declarations: Declarations,
}

/// The NAME of an identity: what follows its last `.`.
pub fn identity_name(identity: &str) -> &str {
    identity.rsplit_once('.').map_or(identity, |(_, name)| name)
}

/// An identity without its `@VERSION` (`decisions.md` section 4: the canonical
/// signature names types by repository, file and name only).
pub(crate) fn identity_without_version(identity: &str) -> String {
    match identity.split_once('@') {
        None => identity.to_owned(),
        Some((repository, rest)) => match rest.split_once('/') {
            Some((_version, file_and_name)) => format!("{repository}/{file_and_name}"),
            None => identity.to_owned(),
        },
    }
}

/// The template a Named term refers to, checked for arity: the one resolution
/// every consumer (validation, plans, schemas) shares, with one wording.
pub fn resolve_named<'a>(
    declarations: &'a Declarations,
    declaration: &str,
    arg_count: usize,
) -> crate::error::Result<&'a Template> {
    use crate::error::{Error, Rule};
    let Some(template) = declarations.get(declaration) else {
        let mut quoted = String::new();
        crate::json::write_string(&mut quoted, declaration);
        return Err(Error::new(Rule::Unresolved, format!("Named declaration {quoted} is not in declarations")));
    };
    if template.generic.len() != arg_count {
        return Err(Error::new(
            Rule::Arity,
            format!("Named arity {arg_count}, template {} declares {}", template.name, template.generic.len()),
        ));
    }
    Ok(template)
}
