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
//! Each type form's rule is in `rules`, which the typed decoder of
//! generated Rust types (`flow_runtime::codec::FromJson`) applies too.

use std::sync::Arc;

use crate::error::{Error, Result, Rule};
use crate::json::Json;
use crate::limits::Limits;
use crate::plan::{FieldPlan, Node, NodeId, PayloadPlan, Plan};
use crate::types::{Declarations, Prim, Term};
use crate::value::{EnumPayload, EnumValue, Value};

pub mod rules;

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

impl Decoder<'_> {
    fn value(&self, json: Json, node: NodeId) -> Result<Value> {
        match self.plan.node(node) {
            Node::Prim(p) => self.prim(json, *p),
            Node::List(item) => self.items(rules::items(json)?, *item).map(Value::List),
            Node::Set(item) => {
                let values = self.items(rules::items(json)?, *item)?;
                rules::sorted_unique(values, Value::flow_cmp, Rule::DuplicateElement, "the same element twice in a Set")
                    .map(Value::Set)
            }
            Node::Option(item) => match rules::option(json)? {
                None => Ok(Value::none()),
                Some(inner) => Ok(Value::some(self.value(inner, *item).map_err(|e| e.under_key("Some"))?)),
            },
            Node::TextDict(value) => {
                let members = rules::text_dict(json)?;
                let mut entries = Vec::with_capacity(members.len());
                for (key, member) in members {
                    match self.value(member, *value) {
                        Ok(v) => entries.push((key, v)),
                        Err(e) => return Err(e.under_key(&key)),
                    }
                }
                Ok(Value::TextDict(entries))
            }
            Node::Dict(key, value) => {
                let pairs = rules::pairs(json)?;
                let mut entries = Vec::with_capacity(pairs.len());
                for (i, pair) in pairs.into_iter().enumerate() {
                    let entry = self.pair(pair, *key, *value).map_err(|e| e.under_index(i))?;
                    entries.push(entry);
                }
                let order = |a: &(Value, Value), b: &(Value, Value)| a.0.flow_cmp(&b.0);
                rules::sorted_unique(entries, order, Rule::DuplicateKey, "the same key twice in a Dict")
                    .map(Value::Dict)
            }
            Node::Tuple(parts) => self.parts(rules::tuple(json, parts.len())?, parts).map(Value::Tuple),
            Node::Record(record) => {
                self.fields(rules::record(json)?, &record.fields, &record.identity).map(Value::Record)
            }
            Node::Enum(plan) => self.enumeration(json, plan),
            Node::Host(_) => Ok(Value::HostToken(json)),
            Node::Unservable(why) => Err(Error::new(Rule::NotServable, format!("no value crosses here: {why}"))),
        }
    }

    fn prim(&self, json: Json, prim: Prim) -> Result<Value> {
        match prim {
            Prim::Int => rules::int(json).map(Value::Int),
            Prim::Decimal => rules::decimal(json).map(Value::Decimal),
            Prim::Text => rules::text(json).map(Value::Text),
            Prim::Bool => rules::boolean(json).map(Value::Bool),
            Prim::Unit => rules::unit(json).map(|()| Value::Unit),
            Prim::Bytes => rules::bytes(json).map(Value::Bytes),
            Prim::Instant => rules::instant(json).map(Value::Instant),
            Prim::Duration => rules::duration(json).map(Value::Duration),
            Prim::JsonValue => Ok(Value::Json(json)),
            Prim::Never => Err(rules::never()),
        }
    }

    fn items(&self, items: Vec<Json>, node: NodeId) -> Result<Vec<Value>> {
        let mut values = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            values.push(self.value(item, node).map_err(|e| e.under_index(i))?);
        }
        Ok(values)
    }

    /// Items whose length the rules checked, each at its part's type.
    fn parts(&self, items: Vec<Json>, parts: &[NodeId]) -> Result<Vec<Value>> {
        let mut values = Vec::with_capacity(items.len());
        for (i, (item, &part)) in items.into_iter().zip(parts).enumerate() {
            values.push(self.value(item, part).map_err(|e| e.under_index(i))?);
        }
        Ok(values)
    }

    fn pair(&self, pair: Json, key: NodeId, value: NodeId) -> Result<(Value, Value)> {
        let (k, v) = rules::pair(pair)?;
        let k = self.value(k, key).map_err(|e| e.under_index(0))?;
        let v = self.value(v, value).map_err(|e| e.under_index(1))?;
        Ok((k, v))
    }

    /// A record, or a named payload: extra members ignored, a missing
    /// non-Option field refused, Option fields absent for None.
    fn fields(&self, mut members: rules::Members, fields: &[FieldPlan], owner: &str) -> Result<Vec<(Arc<str>, Value)>> {
        let mut values = Vec::with_capacity(fields.len());
        for field in fields {
            let value = match members.take(&field.name, field.optional, owner)? {
                Some(json) => {
                    let v = self.value(json, field.ty).map_err(|e| e.under_key(&field.name))?;
                    if field.optional {
                        Value::some(v)
                    } else {
                        v
                    }
                }
                None => Value::none(),
            };
            values.push((field.name.clone(), value));
        }
        Ok(values)
    }

    fn enumeration(&self, json: Json, plan: &crate::plan::Enum) -> Result<Value> {
        let find = |name: &str| {
            let index = plan.constructors.iter().position(|c| &*c.name == name)?;
            Some((index, !matches!(plan.constructors[index].payload, PayloadPlan::None)))
        };
        let (index, payload) = rules::constructor(json, &plan.identity, find)?;
        let ctor = &plan.constructors[index];
        let name = &ctor.name;
        let payload = match (&ctor.payload, payload) {
            (PayloadPlan::Positional(parts), Some(payload)) if parts.len() == 1 => {
                EnumPayload::Positional(vec![self.value(payload, parts[0]).map_err(|e| e.under_key(name))?])
            }
            (PayloadPlan::Positional(parts), Some(payload)) => {
                let items = rules::positional_parts(payload, parts.len()).map_err(|e| e.under_key(name))?;
                EnumPayload::Positional(self.parts(items, parts).map_err(|e| e.under_key(name))?)
            }
            (PayloadPlan::Named(fields), Some(payload)) => {
                let members = rules::named_parts(payload).map_err(|e| e.under_key(name))?;
                EnumPayload::Named(self.fields(members, fields, name).map_err(|e| e.under_key(name))?)
            }
            // The rules refuse a payload where none is taken, and its absence
            // where one is.
            _ => EnumPayload::None,
        };
        Ok(Value::Enum(EnumValue { index: index as u32, name: ctor.name.clone(), payload }))
    }
}
