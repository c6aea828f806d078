//! Reading type descriptions from JSON (`host-boundary.md`, "Type
//! descriptions"; `decisions.md` sections 2a and 6) with exact object shapes.
//!
//! This file owns the shapes only: an object with an unknown or missing member,
//! or a member of the wrong JSON type, is `Rule::Shape`; a term that is none of
//! the term forms is `Rule::UnknownTerm`. The rules between the parts (names,
//! owners, arity, reachability, identities, recursion) are `super::validate`'s.
//! The public `*_from_json` entry points run both, so nothing invalid comes out.
//!
//! Paths follow `tests/vectors/README.md`: errors are built where they happen
//! and get their path while unwinding (`Error::under_key`/`under_index`), so a
//! success pays nothing for path tracking. A missing member is reported at the
//! object that lacks it; an unknown member, or one of the wrong type, at that
//! member; a malformed term at the term's own object.
//!
//! Order of refusals, when a document breaks several rules: a listing's data
//! version first (a version refusal is distinct from a shape error, and a
//! different major may well have a different shape), then within each object
//! its unknown members (in key order), its missing members (in the order the
//! spec lists them), then each member in that order.

use num_traits::ToPrimitive;

use super::hint;
use super::model::*;
use super::validate;
use crate::error::{Error, Result, Rule};
use crate::json::{self, Json, Object};
use crate::limits::Limits;

use super::rules::quote;
pub use super::rules::{check_data_version, DATA_VERSION, MAX_TERM_DEPTH};

// ---------------------------------------------------------------------------
// Public entry points

/// Reads and validates a tools listing (`decisions.md` section 6) from text:
/// the JSON rules of `decisions.md` section 2 first, then shapes, then every
/// structural rule.
pub fn listing_from_text(bytes: &[u8], limits: &Limits) -> Result<Listing> {
    listing_from_json(&json::parse(bytes, limits)?)
}

/// Reads and validates a tools listing.
/// A refusal says the fix where a common mistake has one (`super::hint`).
pub fn listing_from_json(json: &Json) -> Result<Listing> {
    let listing = parse_listing(json).map_err(|e| hint::teach(json, e))?;
    validate::validate_listing(&listing).map_err(|e| hint::teach(json, e))?;
    Ok(listing)
}

/// Reads and validates a TypeSpec.
pub fn type_spec_from_json(json: &Json) -> Result<TypeSpec> {
    let spec = parse_type_spec(json)?;
    validate::validate_type_spec(&spec)?;
    Ok(spec)
}

/// Reads a generic call's types view and validates it on its own (its graph,
/// names and concreteness). Agreement with the served TypeSpec is
/// [`validate::check_call_view`]'s.
pub fn call_view_from_json(json: &Json) -> Result<CallView> {
    let view = parse_call_view(json)?;
    validate::validate_call_view(&view)?;
    Ok(view)
}

/// Reads one term, shape only: owners, indices and references are checked
/// in the context of a whole description by `super::validate`.
pub fn term_from_json(json: &Json) -> Result<Term> {
    term(json, 0)
}

/// Reads one term that will be resolved in `declarations` (a command-line
/// `--type`), shape only as [`term_from_json`]; a refusal says the fix where
/// a common mistake has one (a declaration's name: its local id).
pub fn term_from_json_in(json: &Json, declarations: &Declarations) -> Result<Term> {
    term(json, 0).map_err(|e| hint::teach_term(json, &super::write::declarations_to_json(declarations), e))
}

// ---------------------------------------------------------------------------
// Documents, shape only

/// Reads a tools listing's shape without validating it.
pub(crate) fn parse_listing(json: &Json) -> Result<Listing> {
    let Some(object) = json.as_object() else {
        return Err(shape(format!("a tools listing must be an object, found {}", json.kind_name())));
    };
    // The version is looked at before anything else: a different major is a
    // version refusal, whatever else the document holds.
    if let Some(data) = object.get("data") {
        let version = data.as_str().ok_or_else(|| wrong_type("data", "a string", data).under_key("data"))?;
        check_data_version(version).map_err(|e| e.under_key("data"))?;
    }
    let object =
        exact(json, "a tools listing", &["data", "tools", "declarations"], &["data", "tools", "declarations"])?;
    let data = string(object, "data")?.to_owned();
    let tools = array(object, "tools")?
        .iter()
        .enumerate()
        .map(|(i, tool)| tool_from_json(tool).map_err(|e| e.under_index(i).under_key("tools")))
        .collect::<Result<Vec<_>>>()?;
    let declarations =
        declarations_from_json(member(object, "declarations")?).map_err(|e| e.under_key("declarations"))?;
    Ok(Listing { data, tools, declarations })
}

/// Reads a TypeSpec's shape without validating it.
pub(crate) fn parse_type_spec(json: &Json) -> Result<TypeSpec> {
    const MEMBERS: [&str; 5] = ["generic", "params", "ok", "err", "declarations"];
    let object = exact(json, "a TypeSpec", &MEMBERS, &MEMBERS)?;
    Ok(TypeSpec {
        generic: names(object, "generic")?,
        params: params(object, "params")?,
        ok: term_member(object, "ok")?,
        err: term_member(object, "err")?,
        declarations: declarations_from_json(member(object, "declarations")?)
            .map_err(|e| e.under_key("declarations"))?,
    })
}

/// Reads a call view's shape without validating it.
pub(crate) fn parse_call_view(json: &Json) -> Result<CallView> {
    const MEMBERS: [&str; 5] = ["bindings", "params", "ok", "err", "declarations"];
    let object = exact(json, "a call view", &MEMBERS, &MEMBERS)?;
    let bindings = params_with(object, "bindings", "a binding")?.into_iter().map(|p| (p.name, p.ty)).collect();
    Ok(CallView {
        bindings,
        params: params(object, "params")?,
        ok: term_member(object, "ok")?,
        err: term_member(object, "err")?,
        declarations: declarations_from_json(member(object, "declarations")?)
            .map_err(|e| e.under_key("declarations"))?,
    })
}

/// Reads one Tool of a listing: exactly `tool`, `doc`, `generic`, `params`,
/// `ok`, `err`.
pub(crate) fn tool_from_json(json: &Json) -> Result<ToolDecl> {
    const MEMBERS: [&str; 6] = ["tool", "doc", "generic", "params", "ok", "err"];
    let object = exact(json, "a tool", &MEMBERS, &MEMBERS)?;
    Ok(ToolDecl {
        tool: string(object, "tool")?.to_owned(),
        doc: doc(object)?,
        generic: names(object, "generic")?,
        params: params(object, "params")?,
        ok: term_member(object, "ok")?,
        err: term_member(object, "err")?,
    })
}

/// Reads a declaration map: local id (any non-empty string) to template.
pub(crate) fn declarations_from_json(json: &Json) -> Result<Declarations> {
    let Some(object) = json.as_object() else {
        return Err(shape(format!("declarations must be an object, found {}", json.kind_name())));
    };
    let mut declarations = Declarations::new();
    for (id, template) in object.iter() {
        if id.is_empty() {
            return Err(shape("a local declaration id is a non-empty string").under_key(id));
        }
        declarations.insert(id.to_owned(), template_from_json(template).map_err(|e| e.under_key(id))?);
    }
    Ok(declarations)
}

/// The members every template has, in the order the spec lists them.
const TEMPLATE_COMMON: [&str; 7] = ["name", "identity", "lexical_ordinal", "generic", "opaque", "kind", "doc"];

/// Reads one template: the common members plus exactly `fields` for a record
/// or `constructors` for an enum; host and nondata templates have no body.
pub(crate) fn template_from_json(json: &Json) -> Result<Template> {
    const ALLOWED: [&str; 9] =
        ["name", "identity", "lexical_ordinal", "generic", "opaque", "kind", "doc", "fields", "constructors"];
    let object = exact(json, "a template", &ALLOWED, &TEMPLATE_COMMON)?;
    let kind = string(object, "kind")?;
    // Which body member the kind requires, and which it forbids.
    let (wanted, unwanted): (Option<&str>, &[&str]) = match kind {
        "record" => (Some("fields"), &["constructors"]),
        "enum" => (Some("constructors"), &["fields"]),
        "host" | "nondata" => (None, &["fields", "constructors"]),
        other => {
            return Err(shape(format!(
                "kind {} is not one of \"record\", \"enum\", \"host\", \"nondata\"",
                quote(other)
            ))
            .under_key("kind"))
        }
    };
    if let Some(extra) = unwanted.iter().find(|key| object.get(key).is_some()) {
        return Err(shape(format!("a {kind} template has no member \"{extra}\"")).under_key(extra));
    }
    if let Some(wanted) = wanted {
        if object.get(wanted).is_none() {
            return Err(shape(format!("a {kind} template lacks member \"{wanted}\"")));
        }
    }
    let name = string(object, "name")?.to_owned();
    let identity = string(object, "identity")?.to_owned();
    let lexical_ordinal =
        positive_integer(member(object, "lexical_ordinal")?).map_err(|e| e.under_key("lexical_ordinal"))?;
    let generic = names(object, "generic")?;
    let opaque = boolean(object, "opaque")?;
    let doc = doc(object)?;
    let body = match kind {
        "record" => Body::Record { fields: fields(object, "fields")? },
        "enum" => Body::Enum {
            constructors: array(object, "constructors")?
                .iter()
                .enumerate()
                .map(|(i, c)| constructor(c).map_err(|e| e.under_index(i).under_key("constructors")))
                .collect::<Result<_>>()?,
        },
        "host" => Body::Host,
        _ => Body::Nondata,
    };
    Ok(Template { name, identity, lexical_ordinal, generic, opaque, doc, body })
}

/// A record field or named payload part: exactly `name`, `type`, `doc`.
fn field(json: &Json) -> Result<Field> {
    const MEMBERS: [&str; 3] = ["name", "type", "doc"];
    let object = exact(json, "a field", &MEMBERS, &MEMBERS)?;
    Ok(Field { name: string(object, "name")?.to_owned(), ty: term_member(object, "type")?, doc: doc(object)? })
}

fn fields(object: &Object, key: &str) -> Result<Vec<Field>> {
    array(object, key)?.iter().enumerate().map(|(i, f)| field(f).map_err(|e| e.under_index(i).under_key(key))).collect()
}

/// A constructor: exactly `name`, `doc`, `payload`.
fn constructor(json: &Json) -> Result<Constructor> {
    const MEMBERS: [&str; 3] = ["name", "doc", "payload"];
    let object = exact(json, "a constructor", &MEMBERS, &MEMBERS)?;
    Ok(Constructor {
        name: string(object, "name")?.to_owned(),
        doc: doc(object)?,
        payload: payload(member(object, "payload")?).map_err(|e| e.under_key("payload"))?,
    })
}

/// A payload: `null`, or an object with exactly one member, `positional`
/// (an array of terms) or `named` (an array of fields).
fn payload(json: &Json) -> Result<Option<Payload>> {
    let object = match json {
        Json::Null => return Ok(None),
        Json::Object(object) => object,
        other => return Err(shape(format!("a payload is null or an object, found {}", other.kind_name()))),
    };
    if let Some(key) = object.keys().find(|k| *k != "positional" && *k != "named") {
        let fix = did_you_mean(object, key, &["positional", "named"]);
        return Err(shape(format!("unknown member {} in a payload{fix}", quote(key))).under_key(key));
    }
    if object.len() != 1 {
        return Err(shape(format!(
            "a payload object has exactly one member, \"positional\" or \"named\"; found {}",
            object.len()
        )));
    }
    if object.get("named").is_some() {
        return Ok(Some(Payload::Named(fields(object, "named")?)));
    }
    let parts = array(object, "positional")?
        .iter()
        .enumerate()
        .map(|(i, t)| term(t, 0).map_err(|e| e.under_index(i).under_key("positional")))
        .collect::<Result<_>>()?;
    Ok(Some(Payload::Positional(parts)))
}

/// An array of `{"name", "type"}` objects (Tool parameters).
fn params(object: &Object, key: &str) -> Result<Vec<Param>> {
    params_with(object, key, "a parameter")
}

fn params_with(object: &Object, key: &str, what: &str) -> Result<Vec<Param>> {
    const MEMBERS: [&str; 2] = ["name", "type"];
    array(object, key)?
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (|| {
                let o = exact(p, what, &MEMBERS, &MEMBERS)?;
                Ok(Param { name: string(o, "name")?.to_owned(), ty: term_member(o, "type")? })
            })()
            .map_err(|e: Error| e.under_index(i).under_key(key))
        })
        .collect()
}

/// An array of strings (a `generic` member).
fn names(object: &Object, key: &str) -> Result<Vec<String>> {
    array(object, key)?
        .iter()
        .enumerate()
        .map(|(i, name)| match name {
            Json::String(s) => Ok(s.clone()),
            other => Err(shape(format!("a type parameter name is a string, found {}", other.kind_name()))
                .under_index(i)
                .under_key(key)),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Terms

fn unknown_term(message: impl Into<String>) -> Error {
    Error::new(Rule::UnknownTerm, message)
}

fn term_member(object: &Object, key: &str) -> Result<Term> {
    term(member(object, key)?, 0).map_err(|e| e.under_key(key))
}

/// Reads a term. Errors inside a compound term are placed at the inner term;
/// a malformed term (unknown tag, wrong array length, a Named, Param or
/// Function object with other members) at the term's own object.
fn term(json: &Json, depth: usize) -> Result<Term> {
    if depth >= MAX_TERM_DEPTH {
        return Err(Error::new(Rule::TooDeep, format!("terms nested deeper than {MAX_TERM_DEPTH}")));
    }
    let object = match json {
        Json::String(s) => {
            return Prim::from_name(s)
                .map(Term::Prim)
                .ok_or_else(|| unknown_term(format!("unknown primitive term {}", quote(s))))
        }
        Json::Object(object) => object,
        other => {
            return Err(unknown_term(format!("a term is a string or a one-member object, found {}", other.kind_name())))
        }
    };
    let mut members = object.iter();
    let (Some((tag, inner)), None) = (members.next(), members.next()) else {
        return Err(unknown_term(format!(
            "a compound term is an object with exactly one member, found {}",
            object.len()
        )));
    };
    let depth = depth + 1;
    let sub = |json: &Json| term(json, depth).map_err(|e| e.under_key(tag));
    // Items of an array under the tag: `{"Tuple": [..]}` -> `.Tuple[i]`.
    let items = |items: &[Json]| -> Result<Vec<Term>> {
        items.iter().enumerate().map(|(i, t)| term(t, depth).map_err(|e| e.under_index(i).under_key(tag))).collect()
    };
    match tag {
        "List" => Ok(Term::List(Box::new(sub(inner)?))),
        "Set" => Ok(Term::Set(Box::new(sub(inner)?))),
        "Option" => Ok(Term::Option(Box::new(sub(inner)?))),
        "Task" => Ok(Term::Task(Box::new(sub(inner)?))),
        "Dict" => match inner.as_array() {
            Some(pair) if pair.len() == 2 => {
                let mut pair = items(pair)?.into_iter();
                match (pair.next(), pair.next()) {
                    (Some(k), Some(v)) => Ok(Term::Dict(Box::new(k), Box::new(v))),
                    _ => Err(unknown_term("Dict holds an array of exactly two terms")),
                }
            }
            _ => Err(unknown_term("Dict holds an array of exactly two terms")),
        },
        "Tuple" => match inner.as_array() {
            Some(parts) if parts.len() >= 2 => Ok(Term::Tuple(items(parts)?)),
            _ => Err(unknown_term("Tuple holds an array of at least two terms")),
        },
        "Function" => {
            let o = term_object(inner, "Function", &["params", "result"])?;
            let Some(params) = o.get("params").and_then(Json::as_array) else {
                return Err(member_shape(tag, "params", "an array of terms"));
            };
            let params = params
                .iter()
                .enumerate()
                .map(|(i, t)| term(t, depth).map_err(|e| e.under_index(i).under_key("params").under_key(tag)))
                .collect::<Result<_>>()?;
            let result = term(o.get("result").expect("term_object checked it"), depth)
                .map_err(|e| e.under_key("result").under_key(tag))?;
            Ok(Term::Function { params, result: Box::new(result) })
        }
        "Named" => {
            let o = term_object(inner, "Named", &["declaration", "args"])?;
            let Some(declaration) = o.get("declaration").and_then(Json::as_str) else {
                return Err(member_shape(tag, "declaration", "a string (a local id)"));
            };
            let Some(args) = o.get("args").and_then(Json::as_array) else {
                return Err(member_shape(tag, "args", "an array of terms"));
            };
            let args = args
                .iter()
                .enumerate()
                .map(|(i, t)| term(t, depth).map_err(|e| e.under_index(i).under_key("args").under_key(tag)))
                .collect::<Result<_>>()?;
            Ok(Term::Named { declaration: declaration.to_owned(), args })
        }
        "Param" => {
            let o = term_object(inner, "Param", &["owner", "index"])?;
            let Some(owner) = o.get("owner").and_then(Json::as_str) else {
                return Err(member_shape(tag, "owner", "a string"));
            };
            let Some(index) = o.get("index").and_then(param_index) else {
                return Err(member_shape(tag, "index", "a nonnegative integer"));
            };
            Ok(Term::Param { owner: owner.to_owned(), index })
        }
        other => Err(unknown_term(format!("unknown term {}", quote(other)))),
    }
}

/// The object under a Named, Param or Function tag, with exactly `members`.
/// Its shape is held like any other metadata object: an unknown member is
/// refused at that member, a missing one at the object (`$.ok.Named`).
fn term_object<'a>(json: &'a Json, tag: &str, members: &[&str]) -> Result<&'a Object> {
    let listed = members.iter().map(|m| format!("\"{m}\"")).collect::<Vec<_>>().join(" and ");
    let Some(object) = json.as_object() else {
        return Err(shape(format!("{tag} holds an object with {listed}, found {}", json.kind_name())).under_key(tag));
    };
    if let Some(key) = object.keys().find(|k| !members.contains(k)) {
        return Err(shape(format!(
            "{tag} holds exactly {listed}; {} is unknown{}",
            quote(key),
            did_you_mean(object, key, members)
        ))
        .under_key(key)
        .under_key(tag));
    }
    if let Some(key) = members.iter().find(|m| object.get(m).is_none()) {
        return Err(shape(format!("{tag} holds exactly {listed}; \"{key}\" is missing")).under_key(tag));
    }
    Ok(object)
}

/// A member of a Named, Param or Function object that has the wrong type.
fn member_shape(tag: &str, member: &str, expected: &str) -> Error {
    shape(format!("{tag} {member} must be {expected}")).under_key(member).under_key(tag)
}

/// A Param index, read by value (`decisions.md` 2a): `0.0` is 0, `true` is no
/// number, `1.5` and `-1` are no index. An index too large for `usize` is
/// kept as `usize::MAX`: it is a well-formed index that no owner can have, so
/// validation refuses it as `Rule::ParamIndex` like any other out-of-range one.
fn param_index(json: &Json) -> Option<usize> {
    let Json::Number(n) = json else { return None };
    if !n.is_whole() || n.is_negative() {
        return None;
    }
    // Checked before materializing: the digit count bounds the value.
    if n.canonical_digit_count() > 20 {
        return Some(usize::MAX);
    }
    Some(n.to_bigint().and_then(|b| b.to_usize()).unwrap_or(usize::MAX))
}

/// A positive integer read by value (`lexical_ordinal`). Values past `u64`
/// are refused as a shape error: no source has that many type names.
fn positive_integer(json: &Json) -> Result<u64> {
    let Json::Number(n) = json else {
        return Err(shape(format!("must be a positive integer, found {}", json.kind_name())));
    };
    if !n.is_whole() || n.is_negative() || n.is_zero() {
        return Err(shape(format!("must be a positive integer, found {}", n.to_canonical_capped())));
    }
    let value = if n.canonical_digit_count() > 20 { None } else { n.to_bigint().and_then(|b| b.to_u64()) };
    value.ok_or_else(|| shape(format!("{} is past the largest supported value, {}", n.to_canonical_capped(), u64::MAX)))
}

// ---------------------------------------------------------------------------
// Versions

// ---------------------------------------------------------------------------
// Object shapes

fn shape(message: impl Into<String>) -> Error {
    Error::new(Rule::Shape, message)
}

/// Checks that `json` is an object whose members are among `allowed` and
/// include all of `required`. Unknown members are reported at the member,
/// missing ones at the object.
fn exact<'a>(json: &'a Json, what: &str, allowed: &[&str], required: &[&str]) -> Result<&'a Object> {
    let Some(object) = json.as_object() else {
        return Err(shape(format!("{what} must be an object, found {}", json.kind_name())));
    };
    if let Some(key) = object.keys().find(|k| !allowed.contains(k)) {
        return Err(shape(format!("unknown member {} in {what}{}", quote(key), did_you_mean(object, key, allowed)))
            .under_key(key));
    }
    if let Some(key) = required.iter().find(|k| object.get(k).is_none()) {
        // A doc is the member people leave out when there is none to give.
        let fix = if *key == "doc" { "; write \"doc\": null when there is none" } else { "" };
        return Err(shape(format!("{what} lacks member \"{key}\"{fix}")));
    }
    Ok(object)
}

/// `; did you mean "fields"?` when an allowed member the object lacks is
/// near the unknown `key`, else nothing.
fn did_you_mean(object: &Object, key: &str, allowed: &[&str]) -> String {
    let absent = allowed.iter().copied().filter(|m| object.get(m).is_none());
    crate::suggest::nearest(key, absent).map_or_else(String::new, |m| format!("; did you mean \"{m}\"?"))
}

fn member<'a>(object: &'a Object, key: &str) -> Result<&'a Json> {
    object.get(key).ok_or_else(|| shape(format!("lacks member \"{key}\"")))
}

fn wrong_type(key: &str, wanted: &str, found: &Json) -> Error {
    shape(format!("member \"{key}\" must be {wanted}, found {}", found.kind_name()))
}

fn string<'a>(object: &'a Object, key: &str) -> Result<&'a str> {
    let value = member(object, key)?;
    value.as_str().ok_or_else(|| wrong_type(key, "a string", value).under_key(key))
}

fn array<'a>(object: &'a Object, key: &str) -> Result<&'a [Json]> {
    let value = member(object, key)?;
    value.as_array().ok_or_else(|| wrong_type(key, "an array", value).under_key(key))
}

fn boolean(object: &Object, key: &str) -> Result<bool> {
    match member(object, key)? {
        Json::Bool(b) => Ok(*b),
        other => Err(wrong_type(key, "a boolean", other).under_key(key)),
    }
}

/// `doc`: a string or null.
fn doc(object: &Object) -> Result<Option<String>> {
    match member(object, "doc")? {
        Json::Null => Ok(None),
        Json::String(s) => Ok(Some(s.clone())),
        other => Err(wrong_type("doc", "a string or null", other).under_key("doc")),
    }
}
