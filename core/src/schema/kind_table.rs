//! The fixed JSON shape of each kind of schema, exactly as the table of
//! `decisions.md` section 4 writes it. Nothing here knows about declarations:
//! callers pass the schemas of the parts.

use crate::json::{Json, Object};
use crate::number::Number;
use crate::types::Prim;

use super::key;

/// `{"type": name}`.
fn typed(name: &str) -> Json {
    Json::object([("type", Json::str(name))])
}

/// `{"type":"string", member: value}`: the strings with a fixed text form.
fn string_with(member: &str, value: &str) -> Json {
    Json::object([("type", Json::str("string")), (member, Json::str(value))])
}

fn count(n: usize) -> Json {
    Json::Number(Number::from_parts(false, &n.to_string(), 0))
}

/// The empty schema, which accepts any JSON: json.Value and host tokens.
pub(super) fn any() -> Json {
    Json::Object(Object::new())
}

pub(super) fn primitive(prim: Prim) -> Json {
    match prim {
        Prim::Int => typed("integer"),
        Prim::Decimal => typed("number"),
        Prim::Text => typed("string"),
        Prim::Bool => typed("boolean"),
        Prim::Bytes => string_with("contentEncoding", "base64"),
        Prim::Instant => string_with("format", "date-time"),
        Prim::Duration => string_with("format", "duration"),
        Prim::Unit => typed("null"),
        // Never has no values: the schema that accepts nothing.
        Prim::Never => Json::Bool(false),
        Prim::JsonValue => any(),
    }
}

pub(super) fn list(items: Json) -> Json {
    Json::object([("type", Json::str("array")), ("items", items)])
}

/// JSON Schema cannot say "sorted", so a Set adds only uniqueness; the
/// encoding decides the order.
pub(super) fn set(items: Json) -> Json {
    Json::object([("type", Json::str("array")), ("items", items), ("uniqueItems", Json::Bool(true))])
}

/// Exactly `parts.len()` items: `items: false` forbids more, `minItems` fewer.
pub(super) fn tuple(parts: Vec<Json>) -> Json {
    let n = parts.len();
    Json::object([
        ("type", Json::str("array")),
        ("prefixItems", Json::Array(parts)),
        ("items", Json::Bool(false)),
        ("minItems", count(n)),
    ])
}

/// Dict<Text, V>: a JSON object whose every member holds a V.
pub(super) fn text_dict(values: Json) -> Json {
    Json::object([("type", Json::str("object")), ("additionalProperties", values)])
}

/// Any other Dict: an array of `[key, value]` pairs.
pub(super) fn pair_dict(keys: Json, values: Json) -> Json {
    list(tuple(vec![keys, values]))
}

/// The branch of a constructor without payload.
pub(super) fn constant(constructor: &str) -> Json {
    Json::object([("const", Json::str(constructor))])
}

/// The branch of a constructor with a payload: an object with that single member.
pub(super) fn single_member(constructor: &str, payload: Json) -> Json {
    Json::object([
        ("type", Json::str("object")),
        ("properties", Json::object([(constructor, payload)])),
        ("required", Json::Array(vec![Json::str(constructor)])),
        ("additionalProperties", Json::Bool(false)),
    ])
}

pub(super) fn one_of(branches: Vec<Json>) -> Json {
    Json::object([("oneOf", Json::Array(branches))])
}

/// Option outside a record field is the ordinary enum `None | Some(T)`.
pub(super) fn option(inner: Json) -> Json {
    one_of(vec![constant("None"), single_member("Some", inner)])
}

/// A record, or a named payload. `additionalProperties` stays open: replies may
/// carry extra members, which decoding ignores.
pub(super) fn object(properties: Object, required: Vec<String>) -> Json {
    let mut members = vec![("type", Json::str("object")), ("properties", Json::Object(properties))];
    if !required.is_empty() {
        members.push(("required", Json::Array(required.into_iter().map(Json::String).collect())));
    }
    Json::object(members)
}

/// A reference to the `$defs` entry `key` of the schema's root.
pub(super) fn reference(key: &str) -> Json {
    Json::object([("$ref", Json::String(key::reference(key)))])
}

/// A generic Tool's own type parameter.
pub(super) fn param(name: &str) -> Json {
    Json::object([("$param", Json::str(name))])
}

/// Adds `description` to an object schema. A boolean schema (Never's `false`)
/// has no members, so its doc is dropped.
pub(super) fn with_description(schema: Json, doc: Option<&str>) -> Json {
    match (schema, doc) {
        (Json::Object(mut members), Some(doc)) => {
            members.insert("description", Json::str(doc));
            Json::Object(members)
        }
        (schema, _) => schema,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn primitives_are_the_table() {
        let text = |p| primitive(p).to_canonical();
        assert_eq!(text(Prim::Int), r#"{"type":"integer"}"#);
        assert_eq!(text(Prim::Decimal), r#"{"type":"number"}"#);
        assert_eq!(text(Prim::Text), r#"{"type":"string"}"#);
        assert_eq!(text(Prim::Bool), r#"{"type":"boolean"}"#);
        assert_eq!(text(Prim::Bytes), r#"{"contentEncoding":"base64","type":"string"}"#);
        assert_eq!(text(Prim::Instant), r#"{"format":"date-time","type":"string"}"#);
        assert_eq!(text(Prim::Duration), r#"{"format":"duration","type":"string"}"#);
        assert_eq!(text(Prim::Unit), r#"{"type":"null"}"#);
        assert_eq!(text(Prim::Never), "false");
        assert_eq!(text(Prim::JsonValue), "{}");
    }

    #[test]
    fn a_boolean_schema_drops_its_description() {
        assert_eq!(with_description(Json::Bool(false), Some("gone")), Json::Bool(false));
        assert_eq!(with_description(any(), Some("kept")).to_canonical(), r#"{"description":"kept"}"#);
        assert_eq!(with_description(any(), None).to_canonical(), "{}");
    }

    #[test]
    fn an_object_without_required_fields_has_no_required() {
        assert_eq!(object(Object::new(), vec![]).to_canonical(), r#"{"properties":{},"type":"object"}"#);
    }
}
