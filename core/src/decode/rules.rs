//! The decoding rule of each type form, over one JSON tree: what the value
//! decoder ([`super::from_json`]) and the typed decoder of generated Rust
//! types (`flow_runtime::codec::FromJson`) both apply, so the two cannot disagree
//! on a form accepted, a refusal's rule, its message or its path. Each
//! function takes the JSON of one form apart and leaves decoding the parts
//! (at their types, under the path it names) to its caller.

use std::cmp::Ordering;

use num_bigint::BigInt;

use crate::error::{Error, Result, Rule};
use crate::json::{Json, Object};
use crate::number::Number;
use crate::time::{Duration, Instant, TimeError};

/// The refusal of a JSON value of the wrong kind: `expected WHAT, found KIND`.
#[inline]
pub fn expected(what: &str, found: &Json) -> Error {
    Error::new(Rule::Type, format!("expected {what}, found {}", found.kind_name()))
}

/// `text` as a JSON string, for naming a member or a constructor in a refusal.
#[inline]
pub fn quoted(text: &str) -> String {
    let mut s = String::new();
    crate::json::write_string(&mut s, text);
    s
}

/// An Int: a number with no fraction (`1.0e2` is 100).
#[inline]
pub fn int(json: Json) -> Result<BigInt> {
    match json {
        Json::Number(n) => match n.to_bigint() {
            Some(i) => Ok(i),
            None => Err(Error::new(Rule::NotWhole, format!("expected an Int, found {}", n.to_canonical_capped()))),
        },
        other => Err(expected("an Int (a number)", &other)),
    }
}

/// A Decimal: any number, kept exact.
#[inline]
pub fn decimal(json: Json) -> Result<Number> {
    match json {
        Json::Number(n) => Ok(n),
        other => Err(expected("a number", &other)),
    }
}

/// A Text: a string.
#[inline]
pub fn text(json: Json) -> Result<String> {
    match json {
        Json::String(s) => Ok(s),
        other => Err(expected("a string", &other)),
    }
}

/// A Bool: `true` or `false`.
#[inline]
pub fn boolean(json: Json) -> Result<bool> {
    match json {
        Json::Bool(b) => Ok(b),
        other => Err(expected("a boolean", &other)),
    }
}

/// A Unit: `null`.
#[inline]
pub fn unit(json: Json) -> Result<()> {
    match json {
        Json::Null => Ok(()),
        other => Err(expected("null", &other)),
    }
}

/// Bytes: a string of canonical padded base64.
#[inline]
pub fn bytes(json: Json) -> Result<Vec<u8>> {
    match json {
        Json::String(s) => crate::base64::decode(&s)
            .map_err(|why| Error::new(Rule::Base64, format!("not canonical padded base64: {why}"))),
        other => Err(expected("a base64 string", &other)),
    }
}

/// An Instant: its string form of `decisions.md` section 1.
#[inline]
pub fn instant(json: Json) -> Result<Instant> {
    match json {
        Json::String(s) => Instant::parse(&s).map_err(|e| time_error(e, Rule::Instant)),
        other => Err(expected("an Instant string", &other)),
    }
}

/// A Duration: its string form of `decisions.md` section 1.
#[inline]
pub fn duration(json: Json) -> Result<Duration> {
    match json {
        Json::String(s) => Duration::parse(&s).map_err(|e| time_error(e, Rule::Duration)),
        other => Err(expected("a Duration string", &other)),
    }
}

/// The refusal of any value of Never, which has none.
#[inline]
pub fn never() -> Error {
    Error::new(Rule::Never, "Never has no values")
}

fn time_error(error: TimeError, rule: Rule) -> Error {
    match error {
        TimeError::Form(message) => Error::new(rule, message),
        TimeError::Range(message) => Error::new(Rule::Range, message),
    }
}

/// A List's or Set's items (each decoded by the caller under its index).
#[inline]
pub fn items(json: Json) -> Result<Vec<Json>> {
    array(json, "an array")
}

fn array(json: Json, what: &str) -> Result<Vec<Json>> {
    match json {
        Json::Array(items) => Ok(items),
        other => Err(expected(what, &other)),
    }
}

/// A tuple's items, exactly `len` of them.
#[inline]
pub fn tuple(json: Json, len: usize) -> Result<Vec<Json>> {
    tuple_length(items(json)?, len)
}

fn tuple_length(items: Vec<Json>, len: usize) -> Result<Vec<Json>> {
    if items.len() != len {
        return Err(Error::new(
            Rule::TupleLength,
            format!("expected an array of exactly {len} items, found {}", items.len()),
        ));
    }
    Ok(items)
}

/// A Dict keyed by Text: an object, members sorted and unique (the reader
/// refuses duplicate keys). Each value is decoded under its key.
#[inline]
pub fn text_dict(json: Json) -> Result<Vec<(String, Json)>> {
    match json {
        Json::Object(object) => Ok(object.into_members()),
        other => Err(expected("an object", &other)),
    }
}

/// Any other Dict: an array of pairs (each refused under its index).
#[inline]
pub fn pairs(json: Json) -> Result<Vec<Json>> {
    array(json, "an array of [key, value] pairs")
}

/// One `[key, value]` pair: key decoded under index 0, value under 1.
#[inline]
pub fn pair(json: Json) -> Result<(Json, Json)> {
    let items = array(json, "a [key, value] pair")?;
    if items.len() != 2 {
        return Err(Error::new(
            Rule::TupleLength,
            format!("expected a [key, value] pair, found {} items", items.len()),
        ));
    }
    let mut items = items.into_iter();
    Ok((items.next().expect("two items"), items.next().expect("two items")))
}

/// An Option: `"None"`, or `{"Some": v}` whose `v` is decoded under `Some`.
#[inline]
pub fn option(json: Json) -> Result<Option<Json>> {
    match json {
        Json::String(s) if s == "None" => Ok(None),
        Json::String(s) => {
            Err(Error::new(Rule::Constructor, format!("expected \"None\" or {{\"Some\": v}}, found {}", quoted(&s))))
        }
        Json::Object(object) => {
            if object.len() != 1 || object.get("Some").is_none() {
                return Err(Error::new(
                    Rule::Constructor,
                    format!("expected {{\"Some\": v}}, found an object with members {}", member_list(&object)),
                ));
            }
            let (_, inner) = object.into_members().pop().expect("one member");
            Ok(Some(inner))
        }
        other => Err(expected("\"None\" or {\"Some\": v}", &other)),
    }
}

/// A record's members (extra members are ignored).
#[inline]
pub fn record(json: Json) -> Result<Members> {
    match json {
        Json::Object(object) => Ok(Members { members: object.into_members() }),
        other => Err(expected("an object", &other)),
    }
}

/// A named payload's members, refused under its constructor by the caller.
#[inline]
pub fn named_parts(json: Json) -> Result<Members> {
    match json {
        Json::Object(object) => Ok(Members { members: object.into_members() }),
        other => Err(expected("an object of named parts", &other)),
    }
}

/// Several positional parts: an array of exactly `len` (refused under the
/// constructor by the caller; each part under its index within it).
#[inline]
pub fn positional_parts(json: Json, len: usize) -> Result<Vec<Json>> {
    tuple_length(array(json, "an array of the constructor's parts")?, len)
}

/// The members of a record or a named payload, taken field by field.
pub struct Members {
    members: Vec<(String, Json)>,
}

impl Members {
    /// The member of field `name` of `owner`: `None` for an absent Option
    /// field (`optional`), refused for an absent other one. A present field
    /// is decoded by the caller under its name, at the Option's payload type
    /// for an Option field.
    #[inline]
    pub fn take(&mut self, name: &str, optional: bool, owner: &str) -> Result<Option<Json>> {
        match self.members.binary_search_by(|(k, _)| k.as_str().cmp(name)) {
            Ok(i) => Ok(Some(std::mem::replace(&mut self.members[i].1, Json::Null))),
            Err(_) if optional => Ok(None),
            Err(_) => Err(Error::new(Rule::MissingField, format!("missing field {} of {owner}", quoted(name)))),
        }
    }
}

/// An enum value's constructor: by name, from a bare string (no payload) or
/// a one-member object (a payload). `find` gives a constructor's index and
/// whether it takes a payload; `identity` names the enum in refusals. The
/// payload, when there is one, is decoded by the caller under the name.
#[inline]
pub fn constructor(
    json: Json,
    identity: &str,
    find: impl Fn(&str) -> Option<(usize, bool)>,
) -> Result<(usize, Option<Json>)> {
    let unknown =
        |name: &str| Error::new(Rule::Constructor, format!("unknown constructor {} of {identity}", quoted(name)));
    match json {
        Json::String(name) => {
            let (index, payload) = find(&name).ok_or_else(|| unknown(&name))?;
            if payload {
                return Err(Error::new(
                    Rule::Constructor,
                    format!("constructor {name} takes a payload: expected {{{}: ...}}", quoted(&name)),
                ));
            }
            Ok((index, None))
        }
        Json::Object(object) => {
            if object.len() != 1 {
                return Err(Error::new(
                    Rule::Constructor,
                    format!(
                        "expected an object with exactly one constructor member, found members {}",
                        member_list(&object)
                    ),
                ));
            }
            let (name, payload) = object.into_members().pop().expect("one member");
            let (index, takes) = find(&name).ok_or_else(|| unknown(&name))?;
            if !takes {
                return Err(Error::new(
                    Rule::Constructor,
                    format!("constructor {name} has no payload: expected the string {}", quoted(&name)),
                ));
            }
            Ok((index, Some(payload)))
        }
        other => Err(expected("a constructor (a string or a one-member object)", &other)),
    }
}

fn member_list(object: &Object) -> String {
    let names: Vec<String> = object.keys().map(quoted).collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

/// A Set's elements (`what` "the same element twice in a Set") or a Dict's
/// entries ("the same key twice in a Dict"), sorted by `order` (the Flow
/// order) and refused when two are equal, naming the later one in the input
/// (its original index) and the one before it.
#[inline]
pub fn sorted_unique<T>(items: Vec<T>, order: impl Fn(&T, &T) -> Ordering, rule: Rule, what: &str) -> Result<Vec<T>> {
    let mut indexed: Vec<(usize, T)> = items.into_iter().enumerate().collect();
    indexed.sort_by(|a, b| order(&a.1, &b.1).then(a.0.cmp(&b.0)));
    let same = |w: &&[(usize, T)]| order(&w[0].1, &w[1].1) == Ordering::Equal;
    if let Some(w) = indexed.windows(2).filter(same).min_by_key(|w| w[1].0) {
        return Err(Error::new(rule, format!("{what} (also at index {})", w[0].0)).under_index(w[1].0));
    }
    Ok(indexed.into_iter().map(|(_, item)| item).collect())
}
