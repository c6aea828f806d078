//! The structural rules of type descriptions (host-boundary.md, "Type
//! descriptions"; `decisions.md` 2a, 5, 6) over listings, TypeSpecs and call
//! views, once their shapes have been read by [`super::parse`].
//!
//! - Names: generic names unique within their owner and not spelled like a
//!   primitive term; parameter and binding names unique in their arrays;
//!   field names unique within a record or one named payload; constructor
//!   names unique within one enum. Empty names are refused too (`Invalid`):
//!   no language has an empty identifier.
//! - Terms: a Param's owner is the enclosing template's local id, or `tool`
//!   in a Tool's roots; its index is within the owner's parameters; concrete
//!   roots (a call view's) hold no Param at all. A Named term resolves and
//!   supplies as many arguments as its template declares.
//! - Templates: an enum has a constructor, a positional payload a part; the
//!   name is the NAME of the identity; identities are well formed
//!   ([`super::identity`]) and unique, also without versions.
//! - The graph: every declaration is reachable from the roots
//!   ([`super::reach`]), and recursion does not expand ([`super::recursion`]).
//!
//! Order of refusals, when several rules are broken: the data version; then
//! each Tool in order (identity, generic, params, ok, err), then each
//! declaration in key order (identity, name, generic, members in order);
//! then reachability; then expanding recursion. So the first refusal is the
//! first place, in that order, where a rule breaks; every rule is checked.
//!
//! Agreement of a call view with the served TypeSpec is [`super::view`]'s.

use std::collections::HashSet;

pub use super::identity::check_identity;
use super::identity::Identities;
use super::model::*;
use super::reach::{check_connected, spec_roots, tool_roots, view_roots};
use super::recursion::check_expanding;
pub use super::rules::check_data_version;
use super::rules::{quote, MAX_TERM_DEPTH};
pub use super::view::check_call_view;
use crate::error::{Error, Path, Result, Rule};

/// Validates a tools listing (`decisions.md` section 6): every rule above,
/// with the Tools' roots as the roots of reachability.
pub fn validate_listing(listing: &Listing) -> Result<()> {
    check_data_version(&listing.data).map_err(|e| e.under_key("data"))?;
    let declarations = &listing.declarations;
    let mut identities = Identities::default();
    for (i, tool) in listing.tools.iter().enumerate() {
        let at = Path::root().key("tools").index(i);
        (|| {
            check_identity(&tool.tool).map_err(|e| e.under_key("tool"))?;
            identities.claim(&tool.tool, at.clone().key("tool")).map_err(|e| e.under_key("tool"))?;
            check_signature(&tool.generic, &tool.params, &tool.ok, &tool.err, declarations)
        })()
        .map_err(|e| e.under_path(&at))?;
    }
    check_declarations(declarations, Some(&mut identities))?;
    check_connected(declarations, listing.tools.iter().flat_map(tool_roots))?;
    check_expanding(declarations)
}

/// Validates a TypeSpec: its roots are one Tool's (Params owned by `tool`),
/// and its declarations are exactly their reachable closure.
pub fn validate_type_spec(spec: &TypeSpec) -> Result<()> {
    let declarations = &spec.declarations;
    check_signature(&spec.generic, &spec.params, &spec.ok, &spec.err, declarations)?;
    check_declarations(declarations, Some(&mut Identities::default()))?;
    check_connected(declarations, spec_roots(spec))?;
    check_expanding(declarations)
}

/// Validates a call view on its own: binding and parameter names, concrete
/// roots (no Param), and its graph. Identities are not required to be unique
/// here: the runtime describes the caller's own declarations, and
/// same-spelling private declarations remain distinct templates (they are
/// never merged by display identity). Whether the view agrees with the
/// served TypeSpec, including that a served identity is claimed by one view
/// template at most, is [`check_call_view`]'s.
pub fn validate_call_view(view: &CallView) -> Result<()> {
    let declarations = &view.declarations;
    let concrete = Scope { declarations, owner: Owner::Concrete, generic: &[] };
    let mut seen = HashSet::new();
    for (i, (name, ty)) in view.bindings.iter().enumerate() {
        (|| {
            type_parameter_name(&mut seen, name).map_err(|e| e.under_key("name"))?;
            concrete.term(ty).map_err(|e| e.under_key("type"))
        })()
        .map_err(|e| e.under_index(i).under_key("bindings"))?;
    }
    check_params(&view.params, &concrete).map_err(|e| e.under_key("params"))?;
    concrete.term(&view.ok).map_err(|e| e.under_key("ok"))?;
    concrete.term(&view.err).map_err(|e| e.under_key("err"))?;
    check_declarations(declarations, None)?;
    check_connected(declarations, view_roots(view))?;
    check_expanding(declarations)
}

// ---------------------------------------------------------------------------
// Roots

/// A Tool's (or TypeSpec's) generic names, parameters and result terms, in
/// that order. Their Params are owned by `tool`.
fn check_signature(
    generic: &[String],
    params: &[Param],
    ok: &Term,
    err: &Term,
    declarations: &Declarations,
) -> Result<()> {
    check_generic(generic).map_err(|e| e.under_key("generic"))?;
    let scope = Scope { declarations, owner: Owner::Tool, generic };
    check_params(params, &scope).map_err(|e| e.under_key("params"))?;
    scope.term(ok).map_err(|e| e.under_key("ok"))?;
    scope.term(err).map_err(|e| e.under_key("err"))
}

/// Parameters: names unique, then each type; errors relative to the array.
fn check_params(params: &[Param], scope: &Scope) -> Result<()> {
    let mut seen = HashSet::new();
    for (i, param) in params.iter().enumerate() {
        (|| {
            unique_name(&mut seen, &param.name, "parameter").map_err(|e| e.under_key("name"))?;
            scope.term(&param.ty).map_err(|e| e.under_key("type"))
        })()
        .map_err(|e| e.under_index(i))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Names

/// A name unique among `seen`: the later occurrence is the duplicate.
fn unique_name<'a>(seen: &mut HashSet<&'a str>, name: &'a str, what: &str) -> Result<()> {
    if name.is_empty() {
        return Err(Error::new(Rule::Invalid, format!("a {what} name is empty")));
    }
    if !seen.insert(name) {
        return Err(Error::new(Rule::DuplicateName, format!("{what} name {} appears twice", quote(name))));
    }
    Ok(())
}

/// A type parameter name: unique in its owner and not spelled like a
/// primitive term (`decisions.md` 2a), which would make `Int` ambiguous.
fn type_parameter_name<'a>(seen: &mut HashSet<&'a str>, name: &'a str) -> Result<()> {
    if Prim::from_name(name).is_some() {
        return Err(Error::new(
            Rule::Invalid,
            format!("type parameter {} is spelled like a primitive term", quote(name)),
        ));
    }
    unique_name(seen, name, "type parameter")
}

/// A `generic` array; errors relative to the array (`[1]`).
fn check_generic(generic: &[String]) -> Result<()> {
    let mut seen = HashSet::new();
    for (i, name) in generic.iter().enumerate() {
        type_parameter_name(&mut seen, name).map_err(|e| e.under_index(i))?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Templates

/// Every declaration in key order; errors at `$.declarations["ID"]...`.
/// `identities`, when given, must be unique (listings and TypeSpecs).
fn check_declarations(declarations: &Declarations, mut identities: Option<&mut Identities>) -> Result<()> {
    for (id, template) in declarations {
        let at = Path::root().key("declarations").key(id.as_str());
        check_template(id, template, declarations, identities.as_deref_mut(), &at).map_err(|e| e.under_path(&at))?;
    }
    Ok(())
}

/// One template; errors relative to it. `at` is its absolute path, for the
/// message of a duplicate identity.
fn check_template(
    id: &str,
    template: &Template,
    declarations: &Declarations,
    identities: Option<&mut Identities>,
    at: &Path,
) -> Result<()> {
    // Parsing guarantees these two; a description built in code might not.
    if id.is_empty() {
        return Err(Error::new(Rule::Shape, "a local declaration id is a non-empty string"));
    }
    if template.lexical_ordinal == 0 {
        return Err(Error::new(Rule::Shape, "lexical_ordinal must be a positive integer").under_key("lexical_ordinal"));
    }
    check_identity(&template.identity).map_err(|e| e.under_key("identity"))?;
    let expected = identity_name(&template.identity);
    if template.name != expected {
        return Err(Error::new(
            Rule::Identity,
            format!(
                "template name {} is not the NAME of its identity {} ({})",
                quote(&template.name),
                quote(&template.identity),
                quote(expected)
            ),
        )
        .under_key("name"));
    }
    if let Some(identities) = identities {
        identities.claim(&template.identity, at.clone().key("identity")).map_err(|e| e.under_key("identity"))?;
    }
    check_generic(&template.generic).map_err(|e| e.under_key("generic"))?;
    let scope = Scope { declarations, owner: Owner::Template { id, name: &template.name }, generic: &template.generic };
    match &template.body {
        Body::Record { fields } => check_fields(fields, &scope).map_err(|e| e.under_key("fields")),
        Body::Enum { constructors } => {
            check_constructors(constructors, &scope).map_err(|e| e.under_key("constructors"))
        }
        Body::Host | Body::Nondata => Ok(()),
    }
}

/// Fields of a record or one named payload; errors relative to the array.
fn check_fields(fields: &[Field], scope: &Scope) -> Result<()> {
    let mut seen = HashSet::new();
    for (i, field) in fields.iter().enumerate() {
        (|| {
            unique_name(&mut seen, &field.name, "field").map_err(|e| e.under_key("name"))?;
            scope.term(&field.ty).map_err(|e| e.under_key("type"))
        })()
        .map_err(|e| e.under_index(i))?;
    }
    Ok(())
}

/// An enum's constructors; errors relative to the array.
fn check_constructors(constructors: &[Constructor], scope: &Scope) -> Result<()> {
    if constructors.is_empty() {
        return Err(Error::new(Rule::Invalid, "an enum has at least one constructor"));
    }
    let mut seen = HashSet::new();
    for (i, constructor) in constructors.iter().enumerate() {
        (|| {
            unique_name(&mut seen, &constructor.name, "constructor").map_err(|e| e.under_key("name"))?;
            check_payload(&constructor.payload, scope).map_err(|e| e.under_key("payload"))
        })()
        .map_err(|e| e.under_index(i))?;
    }
    Ok(())
}

/// A constructor's payload; errors relative to it.
fn check_payload(payload: &Option<Payload>, scope: &Scope) -> Result<()> {
    match payload {
        None => Ok(()),
        Some(Payload::Positional(parts)) => {
            if parts.is_empty() {
                return Err(Error::new(
                    Rule::Invalid,
                    "a positional payload has at least one part (a constructor without parts has payload null)",
                )
                .under_key("positional"));
            }
            for (j, part) in parts.iter().enumerate() {
                scope.term(part).map_err(|e| e.under_index(j).under_key("positional"))?;
            }
            Ok(())
        }
        Some(Payload::Named(fields)) => check_fields(fields, scope).map_err(|e| e.under_key("named")),
    }
}

// ---------------------------------------------------------------------------
// Terms

/// Whose Params a term may hold.
enum Owner<'a> {
    /// A Tool's (or TypeSpec's) roots: owner `tool`.
    Tool,
    /// A template's body: owner its local id.
    Template { id: &'a str, name: &'a str },
    /// A call view's roots: none.
    Concrete,
}

/// The context of a term: the declarations its Named terms resolve in, and
/// the owner and parameter names its Params refer to.
struct Scope<'a> {
    declarations: &'a Declarations,
    owner: Owner<'a>,
    generic: &'a [String],
}

impl Scope<'_> {
    /// Checks a term; errors relative to it, at the innermost offending term.
    fn term(&self, term: &Term) -> Result<()> {
        self.term_at(term, 0)
    }

    fn term_at(&self, term: &Term, depth: usize) -> Result<()> {
        if depth >= MAX_TERM_DEPTH {
            return Err(Error::new(Rule::TooDeep, format!("terms nested deeper than {MAX_TERM_DEPTH}")));
        }
        let depth = depth + 1;
        let under = |tag: &str, t: &Term| self.term_at(t, depth).map_err(|e| e.under_key(tag));
        let items = |path: &[&str], items: &[Term]| -> Result<()> {
            for (i, t) in items.iter().enumerate() {
                let mut e = match self.term_at(t, depth) {
                    Ok(()) => continue,
                    Err(e) => e.under_index(i),
                };
                for key in path.iter().rev() {
                    e = e.under_key(key);
                }
                return Err(e);
            }
            Ok(())
        };
        match term {
            Term::Prim(_) => Ok(()),
            Term::List(t) => under("List", t),
            Term::Set(t) => under("Set", t),
            Term::Option(t) => under("Option", t),
            Term::Task(t) => under("Task", t),
            Term::Dict(k, v) => {
                self.term_at(k, depth).map_err(|e| e.under_index(0).under_key("Dict"))?;
                self.term_at(v, depth).map_err(|e| e.under_index(1).under_key("Dict"))
            }
            Term::Tuple(parts) => {
                // Parsing guarantees this; a term built in code might not.
                if parts.len() < 2 {
                    return Err(Error::new(Rule::UnknownTerm, "Tuple holds an array of at least two terms"));
                }
                items(&["Tuple"], parts)
            }
            Term::Function { params, result } => {
                items(&["Function", "params"], params)?;
                self.term_at(result, depth).map_err(|e| e.under_key("result").under_key("Function"))
            }
            Term::Named { declaration, args } => {
                resolve_named(self.declarations, declaration, args.len())?;
                items(&["Named", "args"], args)
            }
            Term::Param { owner, index } => self.param(owner, *index),
        }
    }

    fn param(&self, owner: &str, index: usize) -> Result<()> {
        let index_text = || if index == usize::MAX { "past every parameter".to_owned() } else { index.to_string() };
        let (expected, whose) = match self.owner {
            Owner::Concrete => {
                return Err(Error::new(
                    Rule::FreeParam,
                    format!("Param (owner {}, index {}) in a concrete root", quote(owner), index_text()),
                ))
            }
            Owner::Tool => (TOOL_OWNER, "the Tool".to_owned()),
            Owner::Template { id, name } => (id, format!("template {name}")),
        };
        if owner != expected {
            return Err(Error::new(
                Rule::ParamOwner,
                format!("Param owner {} is not {whose}, whose Params use owner {}", quote(owner), quote(expected)),
            ));
        }
        if index >= self.generic.len() {
            return Err(Error::new(
                Rule::ParamIndex,
                format!("Param index {}, {whose} declares {}", index_text(), self.generic.len()),
            ));
        }
        Ok(())
    }
}
