//! A Flow call's args as an MCP tool's `arguments`, both ways: the adapter
//! writes them ([`arguments`]), and a Flow Tool served to MCP clients reads
//! them (`decode_arguments`) by the same rule.
//!
//! The args object is read as a record: each parameter is a member holding
//! its value's encoding, and an Option parameter follows the value
//! encoding's Option-field rule, left out for None and holding the value
//! itself for Some. That is how MCP servers read a missing optional argument
//! (its schema leaves it out of `required`, and SDKs fill the default), and
//! how an agent reads "not given"; the protocol's own `"None"` /
//! `{"Some": v}` would be a string or an object nobody declared.

use flow_core::decode::from_json;
use flow_core::error::{Error, Path, Result, Rule};
use flow_core::json::{parse_str, Json, Object};
use flow_core::limits::Limits;
use flow_core::plan::Node;
use flow_core::types::Param;
use flow_core::value::Value;
use flow_protocol::server::CallTypes;

/// `arguments` for `args` (in parameter order). `Err` only for a value whose
/// JSON cannot be read back under `limits`, which decoded args never are.
pub fn arguments(params: &[Param], args: &[Value], limits: &Limits) -> Result<Object, String> {
    // Canonical text read back: the args were decoded under the same limits,
    // so no size limit applies to the text made from them.
    let limits = Limits { max_bytes: usize::MAX, ..*limits };
    let mut out = Object::new();
    for (param, value) in params.iter().zip(args) {
        let value = match value {
            Value::Option(None) => continue,
            Value::Option(Some(inner)) => inner,
            other => other,
        };
        let json: Json =
            parse_str(&value.to_canonical(), &limits).map_err(|e| format!("argument {}: {e}", param.name))?;
        out.insert(param.name.as_str(), json);
    }
    Ok(out)
}

/// Args in parameter order from `arguments`, decoded at `types` (the
/// parameters' types, in order): a member per parameter, an Option one
/// left out for None, no other member. As strict as a Flow call's args in
/// every other way; a refusal names the path from the message root
/// (`$.params.arguments.days`) and the rule.
pub(crate) fn decode_arguments(mut arguments: Object, params: &[Param], types: &CallTypes) -> Result<Vec<Value>> {
    let base = Path::root().key("params").key("arguments");
    let mut values = Vec::with_capacity(params.len());
    for (param, &node) in params.iter().zip(&types.params) {
        let at = base.clone().key(param.name.as_str());
        let member = arguments.remove(&param.name);
        let value = match (types.plan.node(node), member) {
            (Node::Option(_), None) => Value::none(),
            (Node::Option(inner), Some(json)) => {
                Value::some(from_json(json, &types.plan, *inner).map_err(|e| e.under_path(&at))?)
            }
            (_, None) => return Err(Error::at(at, Rule::MissingField, "missing argument")),
            (_, Some(json)) => from_json(json, &types.plan, node).map_err(|e| e.under_path(&at))?,
        };
        values.push(value);
    }
    if let Some(extra) = arguments.keys().next() {
        return Err(Error::at(base.key(extra), Rule::Shape, "not a parameter of the Tool"));
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::types::{Prim, Term};

    #[test]
    fn none_is_left_out_and_some_is_its_value() {
        let param = |name: &str| Param { name: name.into(), ty: Term::Prim(Prim::Int) };
        let args = [
            Value::Text("Oslo".into()),
            Value::Option(None),
            Value::Option(Some(Box::new(Value::Int(3.into())))),
            Value::Option(Some(Box::new(Value::Option(None)))),
        ];
        let out =
            arguments(&[param("city"), param("units"), param("days"), param("nested")], &args, &Limits::default())
                .unwrap();
        assert_eq!(Json::Object(out).to_canonical(), r#"{"city":"Oslo","days":3,"nested":"None"}"#);
    }

    #[test]
    fn decoding_reads_them_back_by_the_same_rule() {
        use flow_core::types::{Prim, Term};
        let int = Term::Prim(Prim::Int);
        let params = vec![
            Param { name: "city".into(), ty: Term::Prim(Prim::Text) },
            Param { name: "days".into(), ty: Term::Option(Box::new(int.clone())) },
            Param { name: "nested".into(), ty: Term::Option(Box::new(Term::Option(Box::new(int.clone())))) },
        ];
        let types = CallTypes::compile(&Default::default(), &params, &int, &int).unwrap();
        let decode = |text: &str| {
            let Json::Object(o) = parse_str(text, &Limits::default()).unwrap() else { panic!("{text}") };
            decode_arguments(o, &params, &types).map_err(|e| e.to_string())
        };
        let args = [
            Value::Text("Oslo".into()),
            Value::Option(Some(Box::new(Value::Int(3.into())))),
            Value::Option(Some(Box::new(Value::Option(None)))),
        ];
        // What the adapter writes, a served Tool reads back.
        let written = Json::Object(arguments(&params, &args, &Limits::default()).unwrap()).to_canonical();
        assert_eq!(decode(&written).unwrap(), args);
        assert_eq!(decode(r#"{"city":"Oslo"}"#).unwrap(), [Value::Text("Oslo".into()), Value::none(), Value::none()]);
        assert_eq!(decode(r#"{"city":"Oslo","days":1e1}"#).unwrap()[1], Value::some(Value::Int(10.into())));
        // The protocol's own Option encoding is no Int.
        assert_eq!(
            decode(r#"{"city":"Oslo","days":{"Some":3}}"#).unwrap_err(),
            "$.params.arguments.days: expected an Int (a number), found an object [type]"
        );
        assert_eq!(
            decode(r#"{"city":"Oslo","days":null}"#).unwrap_err(),
            "$.params.arguments.days: expected an Int (a number), found null [type]"
        );
        assert_eq!(decode(r#"{"days":1}"#).unwrap_err(), "$.params.arguments.city: missing argument [missing-field]");
        assert_eq!(
            decode(r#"{"city":"Oslo","extra":1}"#).unwrap_err(),
            "$.params.arguments.extra: not a parameter of the Tool [shape]"
        );
        assert_eq!(
            decode(r#"{"city":"Oslo","days":1.5}"#).unwrap_err(),
            "$.params.arguments.days: expected an Int, found 1.5 [not-whole]"
        );
    }
}
