//! A call's whole line, its args' canonical text written in place: the bytes
//! of [`write_call`] of [`encode_args`], without the args' text, each
//! argument's text and (for the common types) each argument's [`Value`]
//! made apart.
//!
//! An argument of a simple type (scalars, Options, constant enum
//! constructors, json.Value, lists of those) is checked and written
//! straight from its JSON; any other is decoded to its Value and written.
//! Anything that does not decode hands the whole call to [`encode_args`],
//! which words the refusal. [`decode_args`] and [`encode_args`] are the
//! args' decoding and canonical text on their own, for in-process adapters.

use flow_core::decode::from_json;
use flow_core::error::{Error, Path, Result, Rule};
use flow_core::json::{self, write_string, Json};
use flow_core::plan::{Node, NodeId, PayloadPlan, Plan};
use flow_core::types::{Param, Prim};
use flow_core::value::Value;
use flow_protocol::message::{write_call, write_call_after_args, CallKey};
use flow_protocol::server::CallTypes;

/// The `call` line of `key` to `tool` with `args` (an object keyed by
/// parameter name, decoded at its declared types), and the generic views.
pub fn call_line(
    key: &CallKey,
    tool: &str,
    args: &Json,
    params: &[Param],
    types: &CallTypes,
    views: Option<(&Json, &Json)>,
) -> Result<String> {
    match write_in_place(key, tool, args, params, types, views) {
        Some(line) => Ok(line),
        None => Ok(write_call(key, tool, &encode_args(args, params, types)?, views)),
    }
}

fn write_in_place(
    key: &CallKey,
    tool: &str,
    args: &Json,
    params: &[Param],
    types: &CallTypes,
    views: Option<(&Json, &Json)>,
) -> Option<String> {
    let object = args.as_object()?;
    if object.len() != params.len() {
        // A missing or an extra member: encode_args says which.
        return None;
    }
    let mut out = String::with_capacity(128 + key.run.len() + key.call.len() + tool.len());
    out.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"call\",\"params\":{\"args\":{");
    // The object's members ascend by key, as canonical text wants; with as
    // many members as parameters, each must be one.
    for (i, (name, json)) in object.iter().enumerate() {
        let at = params.iter().position(|p| p.name == name)?;
        if i > 0 {
            out.push(',');
        }
        write_string(&mut out, name);
        out.push(':');
        let node = types.params[at];
        let mark = out.len();
        if !write_simple(&mut out, json, &types.plan, node) {
            out.truncate(mark);
            from_json(json.clone(), &types.plan, node).ok()?.write_canonical(&mut out);
        }
    }
    out.push('}');
    write_call_after_args(&mut out, key, tool, views);
    Some(out)
}

/// Writes the canonical text of the value `json` decodes to at `node`, when
/// that type is simple and `json` decodes; `false` (what was written left
/// for the caller to cut) otherwise.
fn write_simple(out: &mut String, json: &Json, plan: &Plan, node: NodeId) -> bool {
    match (plan.node(node), json) {
        (Node::Prim(Prim::Text), Json::String(s)) => write_string(out, s),
        (Node::Prim(Prim::Int), Json::Number(n)) if n.is_whole() => n.write_canonical(out),
        (Node::Prim(Prim::Decimal), Json::Number(n)) => n.write_canonical(out),
        (Node::Prim(Prim::Bool), Json::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
        (Node::Prim(Prim::Unit), Json::Null) => out.push_str("null"),
        (Node::Prim(Prim::JsonValue), json) => json::write_canonical(out, json),
        (Node::Option(_), Json::String(s)) if s == "None" => out.push_str("\"None\""),
        (Node::Option(item), Json::Object(o)) if o.len() == 1 => {
            let Some(inner) = o.get("Some") else { return false };
            out.push_str("{\"Some\":");
            if !write_simple(out, inner, plan, *item) {
                return false;
            }
            out.push('}');
        }
        (Node::Enum(e), Json::String(name)) => {
            let constant = e.constructors.iter().any(|c| &*c.name == name && matches!(c.payload, PayloadPlan::None));
            if !constant {
                return false;
            }
            write_string(out, name);
        }
        (Node::List(item), Json::Array(items)) => {
            out.push('[');
            for (i, json) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !write_simple(out, json, plan, *item) {
                    return false;
                }
            }
            out.push(']');
        }
        _ => return false,
    }
    true
}

/// A call's args decoded at their declared types, in parameter order: each
/// parameter present, no other member. Paths are `$.args.NAME...`.
pub fn decode_args(args: &Json, params: &[Param], types: &CallTypes) -> Result<Vec<Value>> {
    let base = Path::root().key("args");
    let object = args.as_object().ok_or_else(|| {
        Error::at(base.clone(), Rule::Type, format!("expected an object, found {}", args.kind_name()))
    })?;
    if let Some(extra) = object.keys().find(|k| !params.iter().any(|p| p.name == *k)) {
        return Err(Error::at(base.key(extra), Rule::Shape, "not a parameter of the Tool"));
    }
    params
        .iter()
        .zip(&types.params)
        .map(|(param, &node)| {
            let at = base.clone().key(param.name.as_str());
            let json =
                object.get(&param.name).ok_or_else(|| Error::at(at.clone(), Rule::MissingField, "missing argument"))?;
            from_json(json.clone(), &types.plan, node).map_err(|e| e.under_path(&at))
        })
        .collect()
}

/// The canonical text of a call's args object: each parameter present and
/// decoding at its type, no other member.
pub fn encode_args(args: &Json, params: &[Param], types: &CallTypes) -> Result<String> {
    let values = decode_args(args, params, types)?;
    let mut members: Vec<(&str, String)> =
        params.iter().zip(&values).map(|(p, v)| (p.name.as_str(), v.to_canonical())).collect();
    // Canonical text: keys in code-point order, which is byte order.
    members.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = String::from("{");
    for (i, (name, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(&mut out, name);
        out.push(':');
        out.push_str(value);
    }
    out.push('}');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::json::parse_str;
    use flow_core::types::parse::listing_from_text;
    use flow_core::types::Term;
    use flow_core::Limits;
    use flow_testkit::Rng;

    const WEATHER: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");

    /// Arguments of every kind the fast path meets, decoding or not.
    const VALUES: &[&str] = &[
        "0",
        "-7",
        "2e0",
        "1.5",
        "-0",
        "123456789012345678901234567890",
        r#""Oslo""#,
        r#""a\"é""#,
        r#""None""#,
        r#"{"Some":"Metric"}"#,
        r#"{"Some":"Kelvin"}"#,
        r#""Metric""#,
        r#""Imperial""#,
        r#"{"Some":1}"#,
        r#"{"Some":1,"x":2}"#,
        "true",
        "null",
        "[]",
        "[1,2e1,-3]",
        r#"[1,"x"]"#,
        r#"{"a":[1,{"b":null}]}"#,
        r#""2026-12-02T10:00:00Z""#,
        r#""PT1.5S""#,
        r#"[[1,2],[3,4]]"#,
        r#"[[2,1],[1,1]]"#,
        r#"{"Americas":null}"#,
        r#""Europe""#,
        r#"{"Some":{"Some":3}}"#,
        r#"{"children":[],"name":"Europe"}"#,
    ];

    fn args(rng: &mut Rng, params: &[Param]) -> Json {
        let mut members = Vec::new();
        for p in params {
            if rng.below(12) != 0 {
                members.push((p.name.clone(), VALUES[rng.below(VALUES.len())]));
            }
        }
        if rng.below(12) == 0 {
            members.push(("extra".to_owned(), "1"));
        }
        let text: Vec<String> = members
            .iter()
            .map(|(k, v)| {
                let mut key = String::new();
                write_string(&mut key, k);
                format!("{key}:{v}")
            })
            .collect();
        parse_str(&format!("{{{}}}", text.join(",")), &Limits::default()).unwrap()
    }

    #[test]
    fn the_line_is_write_call_of_encode_args_over_many_calls() {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let mut rng = Rng::new(0x5eed_0000_0000_0043);
        let key = CallKey::new("run-\"1\"", "call é");
        let views = (parse_str(r#"{"T":"Int"}"#, &Limits::default()).unwrap(), Json::Null);
        let mut in_place = 0;
        for tool in &listing.tools {
            let (decl_params, types) = if tool.is_generic() {
                let view = crate::views(tool, &listing.declarations, &[Term::Prim(Prim::Int)]).unwrap();
                let types =
                    CallTypes::compile(&view.view.declarations, &view.view.params, &view.view.ok, &view.view.err)
                        .unwrap();
                (view.view.params.clone(), types)
            } else {
                (
                    tool.params.clone(),
                    CallTypes::compile(&listing.declarations, &tool.params, &tool.ok, &tool.err).unwrap(),
                )
            };
            for case in 0..3_000 {
                let args = args(&mut rng, &decl_params);
                let v = (rng.below(2) == 0).then_some((&views.0, &views.1));
                let fast = call_line(&key, &tool.tool, &args, &decl_params, &types, v).map_err(|e| e.to_string());
                let old = encode_args(&args, &decl_params, &types)
                    .map(|a| write_call(&key, &tool.tool, &a, v))
                    .map_err(|e| e.to_string());
                assert_eq!(fast, old, "{} case {case}: {}", tool.tool, args.to_canonical());
                in_place += usize::from(write_in_place(&key, &tool.tool, &args, &decl_params, &types, v).is_some());
            }
        }
        assert!(in_place > 300, "only {in_place} calls written in place");
    }
}
