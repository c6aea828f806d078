//! Values of a generic Tool's type parameters. "A generic Tool's values of a
//! type parameter reach the author as JSON", and collections holding them use
//! the order of the call's type description, not one the language invents
//! (`host-boundary.md`, "Toolkits").
//!
//! A [`GenericValue`] is that JSON. It has no `Ord` and no `PartialEq`: two
//! JSON texts of one Flow value can differ (an Instant with an offset, a set
//! in another order), and JSON's order is not the type's. Equality and order
//! come from the call (`flow_runtime::Codec`). Sets and dicts keyed by
//! such values are [`ContextSet`] and [`ContextDict`]: plain sequences, put in
//! the type's order when the result is encoded.
//!
//! Encoding a result that holds them is two steps: [`super::IntoValue`] puts
//! each JSON into the value as a placeholder ([`Value::Json`]), then
//! [`resolve`] decodes every placeholder at the call's concrete type, applies
//! the Option-field rule to the substituted type, and sorts sets and dicts.

use std::cmp::Ordering;

use super::{FromValue, IntoValue, Json, Result, Value};
use flow_core::decode::from_json;
use flow_core::error::{Error, Rule};
use flow_core::json::Object;
use flow_core::number::Number;
use flow_core::plan::{FieldPlan, Node, NodeId, PayloadPlan, Plan};
use flow_core::types::Prim;
use flow_core::value::{EnumPayload, EnumValue};

/// A value of a type parameter, as the JSON of its encoding at the call's
/// concrete type (for a record field of type `T = Option<X>`, the standalone
/// `"None"` or `{"Some": x}`).
#[derive(Debug, Clone)]
pub struct GenericValue {
    json: Json,
}

impl GenericValue {
    /// The value whose encoding at the call's concrete type is `json`.
    pub fn from_json(json: Json) -> GenericValue {
        GenericValue { json }
    }

    /// The value's JSON, borrowed.
    pub fn as_json(&self) -> &Json {
        &self.json
    }

    /// The value's JSON, owned.
    pub fn into_json(self) -> Json {
        self.json
    }
}

impl FromValue for GenericValue {
    fn from_value(value: Value) -> Result<Self> {
        Ok(GenericValue { json: json_of(&value) })
    }
}

impl IntoValue for GenericValue {
    /// A placeholder that [`resolve`] decodes at the concrete type.
    fn into_value(self) -> Value {
        Value::Json(self.json)
    }
}

/// A Set whose elements hold type parameter values: in the call's order when
/// decoded, put in that order (duplicates refused) when encoded.
#[derive(Debug, Clone)]
pub struct ContextSet<T> {
    items: Vec<T>,
}

impl<T> ContextSet<T> {
    /// A set of these elements, in any order.
    pub fn new(items: Vec<T>) -> ContextSet<T> {
        ContextSet { items }
    }

    /// The elements, in the order held.
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the set has no elements.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The elements, owned, in the order held.
    pub fn into_vec(self) -> Vec<T> {
        self.items
    }
}

impl<T> IntoIterator for ContextSet<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<T: FromValue> FromValue for ContextSet<T> {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Set(items) => Ok(ContextSet { items: FromValue::from_value(Value::List(items))? }),
            other => Err(super::mismatch("a Set", &other)),
        }
    }
}

impl<T: IntoValue> IntoValue for ContextSet<T> {
    fn into_value(self) -> Value {
        Value::Set(self.items.into_iter().map(IntoValue::into_value).collect())
    }
}

/// A Dict whose keys hold type parameter values: entries in the call's key
/// order when decoded, put in that order (duplicate keys refused) when encoded.
#[derive(Debug, Clone)]
pub struct ContextDict<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> ContextDict<K, V> {
    /// A dict of these entries, in any order.
    pub fn new(entries: Vec<(K, V)>) -> ContextDict<K, V> {
        ContextDict { entries }
    }

    /// The entries, in the order held.
    pub fn iter(&self) -> std::slice::Iter<'_, (K, V)> {
        self.entries.iter()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the dict has no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, owned, in the order held.
    pub fn into_vec(self) -> Vec<(K, V)> {
        self.entries
    }
}

impl<K, V> IntoIterator for ContextDict<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: FromValue, V: FromValue> FromValue for ContextDict<K, V> {
    fn from_value(value: Value) -> Result<Self> {
        let pairs: Vec<(Value, Value)> = match value {
            Value::TextDict(entries) => entries.into_iter().map(|(k, v)| (Value::Text(k), v)).collect(),
            Value::Dict(entries) => entries,
            other => return Err(super::mismatch("a Dict", &other)),
        };
        let entries = pairs
            .into_iter()
            .enumerate()
            .map(|(i, (k, v))| {
                let key = K::from_value(k).map_err(|e| e.under_index(0).under_index(i))?;
                let value = V::from_value(v).map_err(|e| e.under_index(1).under_index(i))?;
                Ok((key, value))
            })
            .collect::<Result<_>>()?;
        Ok(ContextDict { entries })
    }
}

impl<K: IntoValue, V: IntoValue> IntoValue for ContextDict<K, V> {
    /// Pairs, whatever the key type: [`resolve`] makes a Text-keyed one an
    /// object once it knows the concrete key type.
    fn into_value(self) -> Value {
        Value::Dict(self.entries.into_iter().map(|(k, v)| (k.into_value(), v.into_value())).collect())
    }
}

/// A value built from generated types for the node `node` of a generic call's
/// plan, with every [`GenericValue`] placeholder decoded at its concrete type
/// and every set and dict in the Flow order. A placeholder that does not decode,
/// or a duplicate, is refused with [`Rule::Encode`]-class errors and the path
/// inside the value. Anything else of the wrong shape is left for the core's
/// check before encoding.
pub fn resolve(value: Value, plan: &Plan, node: NodeId) -> Result<Value> {
    match (plan.node(node), value) {
        // json.Value is the one type whose values are JSON: nothing to decode.
        (Node::Prim(Prim::JsonValue), value) => Ok(value),
        (_, Value::Json(json)) => from_json(json, plan, node).map_err(not_of_type),
        (Node::List(item), Value::List(items)) => resolve_items(items, plan, *item).map(Value::List),
        (Node::Set(item), Value::Set(items)) => {
            let items = resolve_items(items, plan, *item)?;
            ascending(items, |v| v, "the same element twice in a Set").map(Value::Set)
        }
        (Node::Option(item), Value::Option(Some(inner))) => Ok(Value::some(resolve(*inner, plan, *item)?)),
        (Node::Tuple(parts), Value::Tuple(items)) if parts.len() == items.len() => items
            .into_iter()
            .zip(parts)
            .enumerate()
            .map(|(i, (item, part))| resolve(item, plan, *part).map_err(|e| e.under_index(i)))
            .collect::<Result<_>>()
            .map(Value::Tuple),
        (Node::TextDict(item), Value::TextDict(entries)) => entries
            .into_iter()
            .map(|(k, v)| match resolve(v, plan, *item) {
                Ok(v) => Ok((k, v)),
                Err(e) => Err(e.under_key(&k)),
            })
            .collect::<Result<_>>()
            .map(Value::TextDict),
        (Node::TextDict(item), Value::Dict(pairs)) => {
            let mut entries = Vec::with_capacity(pairs.len());
            for (i, (k, v)) in pairs.into_iter().enumerate() {
                let key = match k {
                    Value::Text(text) | Value::Json(Json::String(text)) => text,
                    other => {
                        let e =
                            Error::new(Rule::Encode, format!("expected a Text key, found {}", other.to_canonical()));
                        return Err(e.under_index(0).under_index(i));
                    }
                };
                let value = resolve(v, plan, *item).map_err(|e| e.under_key(&key))?;
                entries.push((key, value));
            }
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            if let Some(pair) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(Error::new(Rule::Encode, format!("the same key {:?} twice in a Dict", pair[0].0)));
            }
            Ok(Value::TextDict(entries))
        }
        (Node::Dict(key, item), Value::Dict(pairs)) => {
            let mut entries = Vec::with_capacity(pairs.len());
            for (i, (k, v)) in pairs.into_iter().enumerate() {
                let k = resolve(k, plan, *key).map_err(|e| e.under_index(0).under_index(i))?;
                let v = resolve(v, plan, *item).map_err(|e| e.under_index(1).under_index(i))?;
                entries.push((k, v));
            }
            ascending(entries, |(k, _)| k, "the same key twice in a Dict").map(Value::Dict)
        }
        (Node::Record(record), Value::Record(fields)) => {
            resolve_fields(fields, &record.fields, plan).map(Value::Record)
        }
        (Node::Enum(plan_enum), Value::Enum(EnumValue { index, name, payload })) => {
            let Some(ctor) = plan_enum.constructors.get(index as usize).filter(|c| c.name == name) else {
                return Ok(Value::Enum(EnumValue { index, name, payload }));
            };
            let payload = match (&ctor.payload, payload) {
                (PayloadPlan::Positional(parts), EnumPayload::Positional(items)) if parts.len() == items.len() => {
                    let single = parts.len() == 1;
                    let items = items
                        .into_iter()
                        .zip(parts)
                        .enumerate()
                        .map(|(i, (item, part))| {
                            resolve(item, plan, *part).map_err(|e| if single { e } else { e.under_index(i) })
                        })
                        .collect::<Result<_>>()
                        .map_err(|e| e.under_key(&name))?;
                    EnumPayload::Positional(items)
                }
                (PayloadPlan::Named(fields_plan), EnumPayload::Named(fields)) => {
                    EnumPayload::Named(resolve_fields(fields, fields_plan, plan).map_err(|e| e.under_key(&name))?)
                }
                (_, payload) => payload,
            };
            Ok(Value::Enum(EnumValue { index, name, payload }))
        }
        (_, value) => Ok(value),
    }
}

fn not_of_type(error: Error) -> Error {
    let message = format!("a type parameter's JSON is not of its concrete type: {}", error.message);
    Error::at(error.path, Rule::Encode, message)
}

fn resolve_items(items: Vec<Value>, plan: &Plan, item: NodeId) -> Result<Vec<Value>> {
    items.into_iter().enumerate().map(|(i, v)| resolve(v, plan, item).map_err(|e| e.under_index(i))).collect()
}

/// Record fields and named payload parts: the Option-field rule follows the
/// substituted type, so a `T = Option<X>` field's placeholder holds the
/// standalone `"None"` or `{"Some": x}` and becomes the field's Option.
fn resolve_fields(
    fields: Vec<(std::sync::Arc<str>, Value)>,
    plans: &[FieldPlan],
    plan: &Plan,
) -> Result<Vec<(std::sync::Arc<str>, Value)>> {
    if fields.len() != plans.len() {
        return Ok(fields);
    }
    fields
        .into_iter()
        .zip(plans)
        .map(|((name, value), field)| {
            let resolved = match (field.optional, value) {
                (true, Value::Option(Some(inner))) => resolve(*inner, plan, field.ty).map(Value::some),
                (true, Value::Json(json)) => standalone_option(json, plan, field.ty),
                (_, value) if !field.optional => resolve(value, plan, field.ty),
                (_, value) => Ok(value),
            };
            resolved.map(|v| (name.clone(), v)).map_err(|e| e.under_key(&name))
        })
        .collect()
}

fn standalone_option(json: Json, plan: &Plan, item: NodeId) -> Result<Value> {
    match json {
        Json::String(s) if s == "None" => Ok(Value::none()),
        Json::Object(object) if object.len() == 1 && object.get("Some").is_some() => {
            let (_, inner) = object.into_members().pop().expect("one member");
            let value = from_json(inner, plan, item).map_err(not_of_type).map_err(|e| e.under_key("Some"))?;
            Ok(Value::some(value))
        }
        other => Err(Error::new(
            Rule::Encode,
            format!(
                "a type parameter's JSON for an Option field is \"None\" or {{\"Some\": v}}, found {}",
                other.kind_name()
            ),
        )),
    }
}

/// Sorts by the Flow order and refuses equal keys.
fn ascending<T>(mut items: Vec<T>, key: impl Fn(&T) -> &Value, what: &str) -> Result<Vec<T>> {
    items.sort_by(|a, b| key(a).flow_cmp(key(b)));
    if items.windows(2).any(|w| key(&w[0]).flow_cmp(key(&w[1])) == Ordering::Equal) {
        return Err(Error::new(Rule::Encode, what.to_owned()));
    }
    Ok(items)
}

/// The JSON of a value: what its canonical text reads back as.
pub(crate) fn json_of(value: &Value) -> Json {
    match value {
        Value::Unit => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => Json::Number(Number::from_bigint(i)),
        Value::Decimal(d) => Json::Number(d.clone()),
        Value::Text(s) => Json::String(s.clone()),
        Value::Bytes(_) | Value::Instant(_) | Value::Duration(_) => {
            // Their canonical text is one JSON string.
            let text = value.to_canonical();
            Json::String(text[1..text.len() - 1].to_owned())
        }
        Value::List(items) | Value::Set(items) | Value::Tuple(items) => {
            Json::Array(items.iter().map(json_of).collect())
        }
        Value::TextDict(entries) => {
            let members = entries.iter().map(|(k, v)| (k.clone(), json_of(v))).collect();
            Json::Object(Object::from_members(members).expect("dict keys are unique"))
        }
        Value::Dict(entries) => {
            Json::Array(entries.iter().map(|(k, v)| Json::Array(vec![json_of(k), json_of(v)])).collect())
        }
        Value::Option(None) => Json::str("None"),
        Value::Option(Some(inner)) => Json::object([("Some", json_of(inner))]),
        Value::Record(fields) => fields_json(fields),
        Value::Enum(e) => match &e.payload {
            EnumPayload::None => Json::str(&*e.name),
            EnumPayload::Positional(parts) if parts.len() == 1 => Json::object([(&*e.name, json_of(&parts[0]))]),
            EnumPayload::Positional(parts) => {
                Json::object([(&*e.name, Json::Array(parts.iter().map(json_of).collect()))])
            }
            EnumPayload::Named(fields) => Json::object([(&*e.name, fields_json(fields))]),
        },
        Value::Json(j) | Value::HostToken(j) => j.clone(),
    }
}

/// A record or named payload: None fields left out, Some fields as their payload.
fn fields_json(fields: &[(std::sync::Arc<str>, Value)]) -> Json {
    let members = fields
        .iter()
        .filter_map(|(name, value)| match value {
            Value::Option(None) => None,
            Value::Option(Some(inner)) => Some((name.to_string(), json_of(inner))),
            other => Some((name.to_string(), json_of(other))),
        })
        .collect();
    Json::Object(Object::from_members(members).expect("field names are unique"))
}
