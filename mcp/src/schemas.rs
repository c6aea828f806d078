//! A served Tool's schemas as MCP's `inputSchema` and `outputSchema`.
//!
//! They are the Tool's own schemas (`decisions.md` section 4, describe form:
//! docs as `description`, `$defs` keyed by identity), reshaped only where
//! MCP or its clients read JSON Schema differently:
//!
//! - **Roots are objects.** MCP requires `type: object` at both roots (the
//!   handshake era's `outputSchema` and every `inputSchema`; the TypeScript
//!   SDK refuses a `tools/list` that breaks it). The input is the parameters
//!   as an object; an output that is a record has its `$defs` entry written
//!   at the root; any other output is wrapped as
//!   `{"type":"object","properties":{"result":S},"required":["result"]}`,
//!   and the structured result is then `{"result": value}`, as the Python SDK
//!   wraps its scalars. `$defs` always stays at the root, where every
//!   `#/$defs/...` reference points.
//! - **Option parameters may be left out.** The arguments are read as a
//!   record (see [`super::arguments`]), so an Option parameter is not
//!   required and its schema is its payload's.
//! - **No other arguments.** `additionalProperties: false` on the input: an
//!   argument that is no parameter is refused, and the schema says so.
//! - **Tuples without `items: false`.** The TypeScript SDK validates with Ajv
//!   in draft-07 mode, which ignores `prefixItems` and reads `items: false`
//!   as "no items at all", refusing every tuple. `maxItems: n` says the same
//!   as `items: false` under 2020-12 (with `minItems: n`, exactly the n
//!   prefix items), and draft-07 then checks the length only.
//! - **Duration by pattern.** Validators check `format: duration` by RFC
//!   3339's grammar, which has no fraction and no sign, so `PT0.25S` and
//!   `PT-5S` would be refused; the format is replaced by the pattern of the
//!   encoding (`decisions.md` section 1). `date-time` stays: an Instant's
//!   canonical text is RFC 3339 for years 0000 to 9999.

use flow_core::error::{Error, Result, Rule};
use flow_core::json::{Json, Object};
use flow_core::schema::{key_of_reference, object_schema, schema_of, SchemaForm};
use flow_core::types::{Declarations, Param, Term};

/// The member a result that is not an object is wrapped in.
pub(crate) const RESULT_MEMBER: &str = "result";

/// The pattern of a Duration's text: `PT`, seconds as a JSON number without
/// exponent and with at most 9 fraction digits, `S`.
pub(crate) const DURATION_PATTERN: &str = r"^PT-?(0|[1-9][0-9]*)(\.[0-9]{1,9})?S$";

/// The `inputSchema` of a Tool with these (concrete) parameters.
pub fn input_schema(params: &[Param], declarations: &Declarations) -> Result<Json> {
    let members: Vec<(String, Term)> = params.iter().map(|p| (p.name.clone(), p.ty.clone())).collect();
    let mut schema = object_schema(&members, declarations, SchemaForm::Describe, &[])?;
    if let Json::Object(o) = &mut schema {
        o.insert("additionalProperties", Json::Bool(false));
    }
    Ok(for_mcp(schema))
}

/// The `outputSchema` of a Tool with this (concrete) success type, and
/// whether its results are wrapped as `{"result": value}`.
pub fn output_schema(ok: &Term, declarations: &Declarations) -> Result<(Json, bool)> {
    let schema = schema_of(ok, declarations, SchemaForm::Describe, &[])?;
    let (schema, wrapped) = match inline_root(schema) {
        Ok(object) => (object, false),
        Err(other) => (wrap(other), true),
    };
    Ok((for_mcp(schema), wrapped))
}

fn is_object_schema(schema: &Json) -> bool {
    schema.as_object().and_then(|o| o.get("type")).and_then(Json::as_str) == Some("object")
}

/// An object schema as is, or a root `$ref` to an object entry written at
/// the root (the entry stays in `$defs`: a recursive record refers to it).
/// `Err` gives back any other schema.
fn inline_root(schema: Json) -> std::result::Result<Json, Json> {
    if is_object_schema(&schema) {
        return Ok(schema);
    }
    let entry = schema.as_object().and_then(|root| {
        let key = key_of_reference(root.get("$ref")?.as_str()?)?;
        root.get("$defs")?.as_object()?.get(&key).cloned()
    });
    match (entry, &schema) {
        (Some(Json::Object(mut entry)), Json::Object(root)) if is_object_schema(&Json::Object(entry.clone())) => {
            if let Some(defs) = root.get("$defs") {
                entry.insert("$defs", defs.clone());
            }
            Ok(Json::Object(entry))
        }
        _ => Err(schema),
    }
}

/// `{"type":"object","properties":{"result":S},"required":["result"]}`,
/// with S's `$defs` moved to the new root.
fn wrap(schema: Json) -> Json {
    let (inner, defs) = match schema {
        Json::Object(mut o) => {
            let defs = o.remove("$defs");
            (Json::Object(o), defs)
        }
        other => (other, None),
    };
    let mut root = Object::new();
    root.insert("type", Json::str("object"));
    root.insert("properties", Json::object([(RESULT_MEMBER, inner)]));
    root.insert("required", Json::Array(vec![Json::str(RESULT_MEMBER)]));
    if let Some(defs) = defs {
        root.insert("$defs", defs);
    }
    Json::Object(root)
}

/// Tuples and Durations rewritten as the module doc says, everywhere in the
/// schema. Matching on members is safe in maps of names too (`properties`,
/// `$defs`): their values are schemas, never an array beside `items: false`
/// nor the string `"duration"`.
fn for_mcp(schema: Json) -> Json {
    match schema {
        Json::Object(o) => {
            let mut o = Object::from_members(o.into_members().into_iter().map(|(k, v)| (k, for_mcp(v))).collect())
                .expect("keys of an object are unique");
            let tuple = match (o.get("prefixItems"), o.get("items")) {
                (Some(Json::Array(parts)), Some(Json::Bool(false))) => Some(parts.len()),
                _ => None,
            };
            if let Some(n) = tuple {
                o.remove("items");
                o.insert("maxItems", Json::Number(flow_core::Number::from_i64(n as i64)));
            }
            let duration = o.get("type").and_then(Json::as_str) == Some("string")
                && o.get("format").and_then(Json::as_str) == Some("duration");
            if duration {
                o.remove("format");
                o.insert("pattern", Json::str(DURATION_PATTERN));
            }
            Json::Object(o)
        }
        Json::Array(items) => Json::Array(items.into_iter().map(for_mcp).collect()),
        other => other,
    }
}

/// Refuses two served Tools under one MCP name: MCP names a tool by NAME
/// alone, where Flow has the whole identity.
pub(crate) fn duplicate_name(name: &str, first: &str, second: &str) -> Error {
    Error::new(
        Rule::DuplicateName,
        format!("{first} and {second} are both named {name:?}, and an MCP tool is known by its name alone"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::json::parse_str;
    use flow_core::types::parse::listing_from_text;
    use flow_core::Limits;

    const WEATHER: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");

    fn j(text: &str) -> Json {
        parse_str(text, &Limits::default()).unwrap()
    }

    #[test]
    fn records_are_inlined_and_anything_else_is_wrapped() {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let forecast = listing.tool("github.com/acme/weather@1.2.0/weather.flow.get_forecast").unwrap();
        let (schema, wrapped) = output_schema(&forecast.ok, &listing.declarations).unwrap();
        assert!(!wrapped);
        let o = schema.as_object().unwrap();
        assert_eq!(o.get("type"), Some(&Json::str("object")));
        assert_eq!(o.get("description"), Some(&Json::str("A forecast for one city.")));
        assert_eq!(o.get("required"), Some(&j(r#"["city","days","issued","tags"]"#)));
        assert!(o.get("$ref").is_none());
        // The entry stays in $defs beside the types it reaches.
        assert_eq!(o.get("$defs").unwrap().as_object().unwrap().len(), 3);

        let history = listing.tool("github.com/acme/weather@1.2.0/weather.flow.station_history").unwrap();
        let (schema, wrapped) = output_schema(&history.ok, &listing.declarations).unwrap();
        assert!(wrapped);
        assert_eq!(
            schema.to_canonical(),
            r#"{"properties":{"result":{"items":{"maxItems":2,"minItems":2,"prefixItems":[{"format":"date-time","type":"string"},{"type":"number"}],"type":"array"},"type":"array"}},"required":["result"],"type":"object"}"#
        );
        // An enum's $defs move to the new root, where its $ref points.
        let (schema, wrapped) = output_schema(&forecast.err, &listing.declarations).unwrap();
        assert!(wrapped);
        let o = schema.as_object().unwrap();
        assert!(o
            .get("$defs")
            .unwrap()
            .as_object()
            .unwrap()
            .get("github.com/acme/weather@1.2.0/weather.flow.WeatherError")
            .is_some());
        assert_eq!(
            o.get("properties").unwrap().to_canonical(),
            r##"{"result":{"$ref":"#/$defs/github.com~1acme~1weather@1.2.0~1weather.flow.WeatherError"}}"##
        );
        // A Text-keyed dict is an object already.
        let dict = Term::Dict(
            Box::new(Term::Prim(flow_core::types::Prim::Text)),
            Box::new(Term::Prim(flow_core::types::Prim::Int)),
        );
        assert_eq!(
            output_schema(&dict, &listing.declarations).unwrap(),
            (j(r#"{"type":"object","additionalProperties":{"type":"integer"}}"#), false)
        );
    }

    #[test]
    fn the_input_is_the_parameters_with_option_ones_not_required() {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let forecast = listing.tool("github.com/acme/weather@1.2.0/weather.flow.get_forecast").unwrap();
        let schema = input_schema(&forecast.params, &listing.declarations).unwrap();
        assert_eq!(
            schema.to_canonical(),
            r##"{"$defs":{"github.com/acme/weather@1.2.0/weather.flow.Units":{"oneOf":[{"const":"Metric"},{"const":"Imperial"}]}},"additionalProperties":false,"properties":{"city":{"type":"string"},"days":{"type":"integer"},"units":{"$ref":"#/$defs/github.com~1acme~1weather@1.2.0~1weather.flow.Units"}},"required":["city","days"],"type":"object"}"##
        );
        let history = listing.tool("github.com/acme/weather@1.2.0/weather.flow.station_history").unwrap();
        let schema = input_schema(&history.params, &listing.declarations).unwrap();
        let window = schema.as_object().unwrap().get("properties").unwrap().as_object().unwrap().get("window").unwrap();
        assert_eq!(
            window.to_canonical(),
            format!(r#"{{"pattern":{},"type":"string"}}"#, Json::str(DURATION_PATTERN).to_canonical())
        );
    }

    #[test]
    fn the_duration_pattern_is_the_encodings() {
        let schema = serde_json::json!({"type": "string", "pattern": DURATION_PATTERN});
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        for ok in ["PT90S", "PT0.25S", "PT-5S", "PT0S", "PT1.123456789S"] {
            assert!(validator.is_valid(&serde_json::json!(ok)), "{ok}");
        }
        for refused in ["PT01S", "PT1M30S", "P1D", "PT+5S", "PT1e3S", "PT1.1234567890S", "PT.5S", "PT5S "] {
            assert!(!validator.is_valid(&serde_json::json!(refused)), "{refused}");
        }
    }
}
