//! Typed decoding (`host-boundary.md`, "Decoding"; `decisions.md` sections 1
//! and 2): JSON text to a [`Value`], directed by a compiled type. Decoding never
//! coerces, guesses a constructor, fills a default or repairs a value; every
//! refusal names its path and rule.
//!
//! The text is first read whole by [`crate::json::parse`], which holds every
//! member to JSON's rules and the limits, including members a record ignores;
//! the typed pass then consumes that tree, moving strings rather than copying.
//! A list can instead be read and decoded one item at a time
//! ([`decode_items_with`]), with the same outcome and one item's trees held.

use std::sync::Arc;

use crate::error::{Error, Result, Rule};
use crate::json::{Json, Object};
use crate::limits::Limits;
use crate::plan::{FieldPlan, Node, NodeId, PayloadPlan, Plan};
use crate::time::{Duration, Instant, TimeError};
use crate::types::{Declarations, Prim, Term};
use crate::value::{EnumPayload, EnumValue, Value};

/// Decodes `bytes` at `term`, resolving Named terms in `declarations`.
pub fn decode(bytes: &[u8], term: &Term, declarations: &Declarations, limits: &Limits) -> Result<Value> {
    let (plan, root) = Plan::compile(declarations, term)?;
    decode_with(bytes, &plan, root, limits)
}

/// Decodes `bytes` at a node of an already compiled plan (the fast path for
/// repeated decoding at one type).
pub fn decode_with(bytes: &[u8], plan: &Plan, node: NodeId, limits: &Limits) -> Result<Value> {
    let json = crate::json::parse(bytes, limits)?;
    from_json(json, plan, node)
}

/// Decodes `bytes` at a `List` node of `plan` item by item: each item is
/// read, decoded at the list's item type and handed to `each` (with its
/// index) before the next is read, so neither the whole list's JSON tree nor
/// its `Value`s are ever held at once. The outcome is [`decode_with`]'s: a
/// refusal of the text anywhere (reading comes first, as `decode_with` reads
/// the whole text before decoding), else the first item that does not decode,
/// else the number of items. `each` may see items of a text refused later.
/// `None` when `node` is not a List.
pub fn decode_items_with(
    bytes: &[u8],
    plan: &Plan,
    node: NodeId,
    limits: &Limits,
    each: &mut dyn FnMut(usize, Value),
) -> Option<Result<usize>> {
    let Node::List(item) = plan.node(node) else { return None };
    let decoder = Decoder { plan };
    let mut refused: Option<Error> = None;
    let read = crate::json::parse_items(bytes, limits, &mut |i, json| {
        // Past the first refusal the rest is only read, for its own refusals.
        if refused.is_some() {
            return;
        }
        match decoder.value(json, *item) {
            Ok(value) => each(i, value),
            Err(e) => refused = Some(e.under_index(i)),
        }
    });
    let root = match read {
        Ok(root) => root,
        Err(e) => return Some(Err(e)),
    };
    if let Some(e) = refused {
        return Some(Err(e));
    }
    Some(match root {
        crate::json::Root::Array(count) => Ok(count),
        // Not an array: the whole-tree decoder refuses it, as decode_with does.
        crate::json::Root::Other(json) => decoder.value(json, node).map(|_| 0),
    })
}

/// Decodes an already read JSON tree (which must have been read under the limits).
pub fn from_json(json: Json, plan: &Plan, node: NodeId) -> Result<Value> {
    Decoder { plan }.value(json, node)
}

struct Decoder<'p> {
    plan: &'p Plan,
}

fn expected(what: &str, found: &Json) -> Error {
    Error::new(Rule::Type, format!("expected {what}, found {}", found.kind_name()))
}

fn quoted(text: &str) -> String {
    let mut s = String::new();
    crate::json::write_string(&mut s, text);
    s
}

impl Decoder<'_> {
    fn value(&self, json: Json, node: NodeId) -> Result<Value> {
        match self.plan.node(node) {
            Node::Prim(p) => self.prim(json, *p),
            Node::List(item) => {
                let items = self.array(json, "an array")?;
                self.items(items, *item).map(Value::List)
            }
            Node::Set(item) => {
                let items = self.array(json, "an array")?;
                let values = self.items(items, *item)?;
                sorted_unique(values, |v| v, Rule::DuplicateElement, "the same element twice in a Set").map(Value::Set)
            }
            Node::Option(item) => self.option(json, *item),
            Node::TextDict(value) => {
                let Json::Object(object) = json else { return Err(expected("an object", &json)) };
                // Objects arrive sorted and without duplicate keys.
                let mut entries = Vec::with_capacity(object.len());
                for (key, member) in object.into_members() {
                    match self.value(member, *value) {
                        Ok(v) => entries.push((key, v)),
                        Err(e) => return Err(e.under_key(&key)),
                    }
                }
                Ok(Value::TextDict(entries))
            }
            Node::Dict(key, value) => {
                let pairs = self.array(json, "an array of [key, value] pairs")?;
                let mut entries = Vec::with_capacity(pairs.len());
                for (i, pair) in pairs.into_iter().enumerate() {
                    let entry = self.pair(pair, *key, *value).map_err(|e| e.under_index(i))?;
                    entries.push(entry);
                }
                sorted_unique(entries, |(k, _)| k, Rule::DuplicateKey, "the same key twice in a Dict").map(Value::Dict)
            }
            Node::Tuple(parts) => {
                let items = self.array(json, "an array")?;
                self.tuple(items, parts).map(Value::Tuple)
            }
            Node::Record(record) => {
                let Json::Object(object) = json else { return Err(expected("an object", &json)) };
                self.fields(object, &record.fields, &record.identity).map(Value::Record)
            }
            Node::Enum(plan) => self.enumeration(json, plan),
            Node::Host(_) => Ok(Value::HostToken(json)),
            Node::Unservable(why) => Err(Error::new(Rule::NotServable, format!("no value crosses here: {why}"))),
        }
    }

    fn prim(&self, json: Json, prim: Prim) -> Result<Value> {
        match (prim, json) {
            (Prim::Int, Json::Number(n)) => match n.to_bigint() {
                Some(i) => Ok(Value::Int(i)),
                None => Err(Error::new(Rule::NotWhole, format!("expected an Int, found {}", n.to_canonical_capped()))),
            },
            (Prim::Decimal, Json::Number(n)) => Ok(Value::Decimal(n)),
            (Prim::Text, Json::String(s)) => Ok(Value::Text(s)),
            (Prim::Bool, Json::Bool(b)) => Ok(Value::Bool(b)),
            (Prim::Unit, Json::Null) => Ok(Value::Unit),
            (Prim::Bytes, Json::String(s)) => crate::base64::decode(&s)
                .map(Value::Bytes)
                .map_err(|why| Error::new(Rule::Base64, format!("not canonical padded base64: {why}"))),
            (Prim::Instant, Json::String(s)) => {
                Instant::parse(&s).map(Value::Instant).map_err(|e| time_error(e, Rule::Instant))
            }
            (Prim::Duration, Json::String(s)) => {
                Duration::parse(&s).map(Value::Duration).map_err(|e| time_error(e, Rule::Duration))
            }
            (Prim::JsonValue, json) => Ok(Value::Json(json)),
            (Prim::Never, _) => Err(Error::new(Rule::Never, "Never has no values")),
            (prim, json) => {
                let what = match prim {
                    Prim::Int => "an Int (a number)",
                    Prim::Decimal => "a number",
                    Prim::Text => "a string",
                    Prim::Bool => "a boolean",
                    Prim::Unit => "null",
                    Prim::Bytes => "a base64 string",
                    Prim::Instant => "an Instant string",
                    Prim::Duration => "a Duration string",
                    Prim::JsonValue | Prim::Never => unreachable!("handled above"),
                };
                Err(expected(what, &json))
            }
        }
    }

    fn array(&self, json: Json, what: &str) -> Result<Vec<Json>> {
        match json {
            Json::Array(items) => Ok(items),
            other => Err(expected(what, &other)),
        }
    }

    fn items(&self, items: Vec<Json>, node: NodeId) -> Result<Vec<Value>> {
        let mut values = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            values.push(self.value(item, node).map_err(|e| e.under_index(i))?);
        }
        Ok(values)
    }

    fn tuple(&self, items: Vec<Json>, parts: &[NodeId]) -> Result<Vec<Value>> {
        if items.len() != parts.len() {
            return Err(Error::new(
                Rule::TupleLength,
                format!("expected an array of exactly {} items, found {}", parts.len(), items.len()),
            ));
        }
        let mut values = Vec::with_capacity(items.len());
        for (i, (item, &part)) in items.into_iter().zip(parts).enumerate() {
            values.push(self.value(item, part).map_err(|e| e.under_index(i))?);
        }
        Ok(values)
    }

    fn pair(&self, pair: Json, key: NodeId, value: NodeId) -> Result<(Value, Value)> {
        let items = self.array(pair, "a [key, value] pair")?;
        if items.len() != 2 {
            return Err(Error::new(
                Rule::TupleLength,
                format!("expected a [key, value] pair, found {} items", items.len()),
            ));
        }
        let mut items = items.into_iter();
        let k = self.value(items.next().expect("two items"), key).map_err(|e| e.under_index(0))?;
        let v = self.value(items.next().expect("two items"), value).map_err(|e| e.under_index(1))?;
        Ok((k, v))
    }

    fn option(&self, json: Json, item: NodeId) -> Result<Value> {
        match json {
            Json::String(s) if s == "None" => Ok(Value::none()),
            Json::String(s) => Err(Error::new(
                Rule::Constructor,
                format!("expected \"None\" or {{\"Some\": v}}, found {}", quoted(&s)),
            )),
            Json::Object(object) => {
                if object.len() != 1 || object.get("Some").is_none() {
                    return Err(Error::new(
                        Rule::Constructor,
                        format!("expected {{\"Some\": v}}, found an object with members {}", member_list(&object)),
                    ));
                }
                let (_, inner) = object.into_members().pop().expect("one member");
                let v = self.value(inner, item).map_err(|e| e.under_key("Some"))?;
                Ok(Value::some(v))
            }
            other => Err(expected("\"None\" or {\"Some\": v}", &other)),
        }
    }

    /// A record, or a named payload: extra members ignored, a missing
    /// non-Option field refused, Option fields absent for None.
    fn fields(&self, object: Object, fields: &[FieldPlan], owner: &str) -> Result<Vec<(Arc<str>, Value)>> {
        let mut members = object.into_members();
        let mut values = Vec::with_capacity(fields.len());
        for field in fields {
            let found = members.binary_search_by(|(k, _)| k.as_str().cmp(&field.name));
            let value = match found {
                Ok(i) => {
                    let json = std::mem::replace(&mut members[i].1, Json::Null);
                    let v = self.value(json, field.ty).map_err(|e| e.under_key(&field.name))?;
                    if field.optional {
                        Value::some(v)
                    } else {
                        v
                    }
                }
                Err(_) if field.optional => Value::none(),
                Err(_) => {
                    return Err(Error::new(
                        Rule::MissingField,
                        format!("missing field {} of {owner}", quoted(&field.name)),
                    ));
                }
            };
            values.push((field.name.clone(), value));
        }
        Ok(values)
    }

    fn enumeration(&self, json: Json, plan: &crate::plan::Enum) -> Result<Value> {
        let find = |name: &str| plan.constructors.iter().position(|c| &*c.name == name);
        match json {
            Json::String(name) => {
                let Some(index) = find(&name) else {
                    return Err(Error::new(
                        Rule::Constructor,
                        format!("unknown constructor {} of {}", quoted(&name), plan.identity),
                    ));
                };
                let ctor = &plan.constructors[index];
                if !matches!(ctor.payload, PayloadPlan::None) {
                    return Err(Error::new(
                        Rule::Constructor,
                        format!("constructor {} takes a payload: expected {{{}: ...}}", name, quoted(&name)),
                    ));
                }
                Ok(Value::Enum(EnumValue { index: index as u32, name: ctor.name.clone(), payload: EnumPayload::None }))
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
                let Some(index) = find(&name) else {
                    return Err(Error::new(
                        Rule::Constructor,
                        format!("unknown constructor {} of {}", quoted(&name), plan.identity),
                    ));
                };
                let ctor = &plan.constructors[index];
                let payload = match &ctor.payload {
                    PayloadPlan::None => {
                        return Err(Error::new(
                            Rule::Constructor,
                            format!("constructor {name} has no payload: expected the string {}", quoted(&name)),
                        ))
                    }
                    PayloadPlan::Positional(parts) if parts.len() == 1 => {
                        EnumPayload::Positional(vec![self.value(payload, parts[0]).map_err(|e| e.under_key(&name))?])
                    }
                    PayloadPlan::Positional(parts) => {
                        let items = self
                            .array(payload, "an array of the constructor's parts")
                            .map_err(|e| e.under_key(&name))?;
                        EnumPayload::Positional(self.tuple(items, parts).map_err(|e| e.under_key(&name))?)
                    }
                    PayloadPlan::Named(fields) => {
                        let Json::Object(object) = payload else {
                            return Err(expected("an object of named parts", &payload).under_key(&name));
                        };
                        EnumPayload::Named(self.fields(object, fields, &name).map_err(|e| e.under_key(&name))?)
                    }
                };
                Ok(Value::Enum(EnumValue { index: index as u32, name: ctor.name.clone(), payload }))
            }
            other => Err(expected("a constructor (a string or a one-member object)", &other)),
        }
    }
}

fn time_error(error: TimeError, rule: Rule) -> Error {
    match error {
        TimeError::Form(message) => Error::new(rule, message),
        TimeError::Range(message) => Error::new(Rule::Range, message),
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

/// Sorts by the Flow order and refuses equal keys, naming the later one in the
/// input (its original index).
fn sorted_unique<T>(items: Vec<T>, key: impl Fn(&T) -> &Value, rule: Rule, what: &str) -> Result<Vec<T>> {
    let mut indexed: Vec<(usize, T)> = items.into_iter().enumerate().collect();
    indexed.sort_by(|a, b| key(&a.1).flow_cmp(key(&b.1)).then(a.0.cmp(&b.0)));
    if let Some(w) = indexed.windows(2).filter(|w| key(&w[0].1) == key(&w[1].1)).min_by_key(|w| w[1].0) {
        return Err(Error::new(rule, format!("{what} (also at index {})", w[0].0)).under_index(w[1].0));
    }
    Ok(indexed.into_iter().map(|(_, item)| item).collect())
}
