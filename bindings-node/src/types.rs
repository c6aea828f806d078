//! A tools listing's types from JavaScript: fingerprints, signatures, schemas,
//! and codecs that decode and encode values of one type.

use std::sync::Arc;

use flow_core::decode::decode_with;
use flow_core::fingerprint::{describe_entry, fingerprint, signature};
use flow_core::json::Json;
use flow_core::plan::{NodeId, Plan};
use flow_core::schema::{schema_of, SchemaForm};
use flow_core::types::parse::{listing_from_text, term_from_json, DATA_VERSION};
use flow_core::types::{Listing, Term};
use flow_core::value::Value;
use flow_core::{Error, Limits, Rule};
use napi::{Env, Result};
use napi_derive::napi;

use crate::classes::{throw_flow, Classes};
use crate::from_js::FromJs;
use crate::js::{In, Js, Kind, Out, Raw};
use crate::text::input_bytes;
use crate::to_js::ToJs;

/// JSON text of a term given as a primitive's name (`"Int"`), as JSON text,
/// or as a JSON-shaped object (`{ List: "Int" }`), written by JavaScript's
/// own JSON.stringify: a term holds no number but small indices.
pub fn term_text(js: Js, v: Raw) -> Result<String> {
    if js.kind(v)? == Kind::String {
        // A primitive's name ("Int") is a term of its own; any other string
        // is a term's JSON text.
        let text = js.get_string(v)?;
        if flow_core::types::Prim::from_name(&text).is_some() {
            return Ok(format!("\"{text}\""));
        }
        return Ok(text);
    }
    let mut global = std::ptr::null_mut();
    crate::js::check(unsafe { napi::sys::napi_get_global(js.env, &mut global) }, "global")?;
    let json = js.get_named(global, "JSON")?;
    let stringify = js.get_named(json, "stringify")?;
    let text = js.call(stringify, json, &[v])?;
    if js.kind(text)? != Kind::String {
        return Err(napi::Error::new(napi::Status::InvalidArg, "a type term must be JSON".to_owned()));
    }
    js.get_string(text)
}

pub fn parse_term(js: Js, v: Raw) -> Result<Term> {
    let text = term_text(js, v)?;
    let json = flow_core::json::parse_str(&text, &Limits::default()).map_err(|e| throw_flow(js, &e))?;
    term_from_json(&json).map_err(|e| throw_flow(js, &e))
}

/// The types of a tools listing (the output of `flow tools`), validated.
#[napi]
pub struct Types {
    listing: Arc<Listing>,
}

#[napi]
impl Types {
    /// Reads and validates a tools listing (`decisions.md` 6). Without one,
    /// only terms without Named types can be used (`"Int"`, `{ List: "Text" }`).
    /// A refusal throws a `FlowError` naming the path and the rule.
    #[napi(constructor, ts_args_type = "listing?: string | Uint8Array")]
    pub fn new(env: Env, listing: Option<In>) -> Result<Types> {
        let js = Js::new(env.raw());
        let listing = match listing {
            None => Listing { data: DATA_VERSION.to_owned(), tools: Vec::new(), declarations: Default::default() },
            Some(text) => {
                // SAFETY: the bytes are read, and dropped, before any JavaScript value is made or runs.
                let bytes = unsafe { input_bytes(js, text.0) }.map_err(|f| f.throw(js))?;
                let listing = listing_from_text(&bytes, &Limits::default());
                // Borrowed bytes end before any JavaScript value is made.
                drop(bytes);
                listing.map_err(|e| throw_flow(js, &e))?
            }
        };
        Ok(Types { listing: Arc::new(listing) })
    }

    /// The identities of the listing's Tools, in listing order.
    #[napi(getter)]
    pub fn tools(&self) -> Vec<String> {
        self.listing.tools.iter().map(|t| t.tool.clone()).collect()
    }

    fn tool(&self, js: Js, identity: &str) -> Result<&flow_core::types::ToolDecl> {
        self.listing.tool(identity).ok_or_else(|| {
            throw_flow(js, &Error::new(Rule::Unresolved, format!("{identity} is not a Tool of the listing")))
        })
    }

    /// The Tool's fingerprint: `sha256:` and the hex SHA-256 of its canonical signature.
    #[napi]
    pub fn fingerprint(&self, env: Env, tool: String) -> Result<String> {
        let js = Js::new(env.raw());
        let decl = self.tool(js, &tool)?;
        fingerprint(decl, &self.listing.declarations).map_err(|e| throw_flow(js, &e))
    }

    /// The Tool's signature: the describe form (docs and versions kept), or
    /// with `stripped` the canonical one that the fingerprint hashes.
    #[napi(ts_return_type = "JsonValue")]
    pub fn signature(&self, env: Env, tool: String, stripped: Option<bool>) -> Result<Out> {
        let js = Js::new(env.raw());
        let decl = self.tool(js, &tool)?;
        let form = if stripped.unwrap_or(false) { SchemaForm::Canonical } else { SchemaForm::Describe };
        let json = signature(decl, &self.listing.declarations, form).map_err(|e| throw_flow(js, &e))?;
        json_out(js, &json)
    }

    /// The `describe` result a process serving every Tool of the listing gives.
    #[napi(ts_return_type = "JsonValue")]
    pub fn describe(&self, env: Env) -> Result<Out> {
        let js = Js::new(env.raw());
        let mut tools = Vec::with_capacity(self.listing.tools.len());
        for decl in &self.listing.tools {
            tools.push(describe_entry(decl, &self.listing.declarations).map_err(|e| throw_flow(js, &e))?);
        }
        let json = Json::object([("data", Json::str(DATA_VERSION)), ("tools", Json::Array(tools))]);
        json_out(js, &json)
    }

    /// The JSON Schema (2020-12) of a type term, with its `$defs`.
    #[napi(ts_args_type = "term: TypeTerm | string", ts_return_type = "JsonValue")]
    pub fn schema(&self, env: Env, term: In) -> Result<Out> {
        let js = Js::new(env.raw());
        let term = parse_term(js, term.0)?;
        let json =
            schema_of(&term, &self.listing.declarations, SchemaForm::Describe, &[]).map_err(|e| throw_flow(js, &e))?;
        json_out(js, &json)
    }

    /// Checks a generic call's views against the Tool (`host-boundary.md`,
    /// "Type descriptions"): `types` against the served TypeSpec and `schema`
    /// against its success type, as a Tool process does before running the
    /// author's code. A refusal throws a `FlowError`.
    #[napi(js_name = "checkCallView", ts_args_type = "tool: string, types: string, schema: string")]
    pub fn check_call_view(&self, env: Env, tool: String, types: String, schema: String) -> Result<()> {
        let js = Js::new(env.raw());
        let served = flow_core::types::TypeSpec::for_tool(&self.listing, &tool).ok_or_else(|| {
            throw_flow(js, &Error::new(Rule::Unresolved, format!("{tool} is not a Tool of the listing")))
        })?;
        let parse = |text: &str| flow_core::json::parse_str(text, &Limits::default()).map_err(|e| throw_flow(js, &e));
        let (types, schema) = (parse(&types)?, parse(&schema)?);
        let view = flow_core::types::call_view_from_json(&types).map_err(|e| throw_flow(js, &e))?;
        flow_core::types::check_call_view(&served, &view).map_err(|e| throw_flow(js, &e))?;
        flow_core::schema::check_call_schema(&view, &schema).map_err(|e| throw_flow(js, &e))
    }

    /// A codec for values of a type term (`"Int"`, `{ List: "Decimal" }`,
    /// `{ Named: { declaration: "1", args: [] } }`), resolved in this listing.
    #[napi(ts_args_type = "term: TypeTerm | string")]
    pub fn codec(&self, env: Env, term: In) -> Result<Codec> {
        let js = Js::new(env.raw());
        let term = parse_term(js, term.0)?;
        let (plan, node) = Plan::compile(&self.listing.declarations, &term).map_err(|e| throw_flow(js, &e))?;
        let text = flow_core::types::term_to_json(&term).to_canonical();
        Ok(Codec::from_plan(Arc::new(plan), node, text))
    }
}

fn json_out(js: Js, json: &Json) -> Result<Out> {
    let classes = Classes::get(js)?;
    Ok(Out(ToJs::new(js, classes)?.json(json)?))
}

/// Decodes and encodes values of one type, under the default limits.
#[napi]
pub struct Codec {
    plan: Arc<Plan>,
    node: NodeId,
    term: String,
}

impl Codec {
    pub fn from_plan(plan: Arc<Plan>, node: NodeId, term: String) -> Codec {
        Codec { plan, node, term }
    }

    fn value_of(&self, js: Js, value: Raw) -> Result<Value> {
        let classes = Classes::get(js)?;
        let mut from = FromJs::new(js, classes, &self.plan, Limits::default())?;
        from.value(value, self.node).map_err(|f| f.throw(js))
    }

    fn js_of(&self, js: Js, value: &Value) -> Result<Raw> {
        let classes = Classes::get(js)?;
        ToJs::new(js, classes)?.value(value)
    }
}

#[napi]
impl Codec {
    /// The type term, as canonical JSON text.
    #[napi(getter, js_name = "type")]
    pub fn term(&self) -> String {
        self.term.clone()
    }

    /// Decodes JSON text at this type (`host-boundary.md`, "Decoding"): never
    /// coercing, guessing or filling a default. A refusal throws a `FlowError`.
    #[napi(ts_args_type = "text: string | Uint8Array, limits?: Limits", ts_return_type = "unknown")]
    pub fn decode(&self, env: Env, text: In, limits: Option<In>) -> Result<Out> {
        let js = Js::new(env.raw());
        let limits = crate::text::limits_of(js, limits)?;
        // SAFETY: the bytes are read, and dropped, before any JavaScript value is made or runs.
        let bytes = unsafe { input_bytes(js, text.0) }.map_err(|f| f.throw(js))?;
        let decoded = decode_with(&bytes, &self.plan, self.node, &limits);
        // Borrowed bytes end before any JavaScript value is made.
        drop(bytes);
        let value = decoded.map_err(|e| throw_flow(js, &e))?;
        Ok(Out(crate::tape::typed_to_js(js, &value)?))
    }

    /// The canonical text of a value of this type. A value that is not of the
    /// type throws a `FlowError` naming the path (`$.days[0].high_c`).
    #[napi(ts_args_type = "value: unknown")]
    pub fn encode(&self, env: Env, value: In) -> Result<String> {
        let js = Js::new(env.raw());
        Ok(self.value_of(js, value.0)?.to_canonical())
    }

    /// A value of this type from its JSON (as `parse` gives it, or as a
    /// generic Tool's context hands it over).
    #[napi(js_name = "fromJson", ts_args_type = "json: JsonValue", ts_return_type = "unknown")]
    pub fn json_to_value(&self, env: Env, json: In) -> Result<Out> {
        let js = Js::new(env.raw());
        let classes = Classes::get(js)?;
        let empty = Plan::new();
        let json = FromJs::new(js, classes, &empty, Limits::default())?.json(json.0).map_err(|f| f.throw(js))?;
        let value = flow_core::decode::from_json(json, &self.plan, self.node).map_err(|e| throw_flow(js, &e))?;
        Ok(Out(self.js_of(js, &value)?))
    }

    /// The JSON of a value of this type (its encoding, with exact numbers).
    #[napi(js_name = "toJson", ts_args_type = "value: unknown", ts_return_type = "JsonValue")]
    pub fn value_to_json(&self, env: Env, value: In) -> Result<Out> {
        let js = Js::new(env.raw());
        let value = self.value_of(js, value.0)?;
        let json =
            flow_core::json::parse_str(&value.to_canonical(), &Limits { max_bytes: usize::MAX, ..Limits::default() })
                .map_err(|e| throw_flow(js, &e))?;
        json_out(js, &json)
    }

    /// Flow's order between two values of this type (`decisions.md` 3):
    /// negative, zero or positive. Sort with `values.sort((a, b) => codec.compare(a, b))`.
    #[napi(ts_args_type = "a: unknown, b: unknown")]
    pub fn compare(&self, env: Env, a: In, b: In) -> Result<i32> {
        let js = Js::new(env.raw());
        let a = self.value_of(js, a.0)?;
        let b = self.value_of(js, b.0)?;
        Ok(a.flow_cmp(&b) as i32)
    }

    /// Flow's equality between two values of this type.
    #[napi(ts_args_type = "a: unknown, b: unknown")]
    pub fn equals(&self, env: Env, a: In, b: In) -> Result<bool> {
        let js = Js::new(env.raw());
        Ok(self.value_of(js, a.0)? == self.value_of(js, b.0)?)
    }
}
