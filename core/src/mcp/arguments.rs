//! A Flow call's args as an MCP tool's `arguments`.
//!
//! The args object is read as a record: each parameter is a member holding
//! its value's encoding, and an Option parameter follows the value
//! encoding's Option-field rule, left out for None and holding the value
//! itself for Some. That is how MCP servers read a missing optional argument
//! (its schema leaves it out of `required`, and SDKs fill the default), while
//! the protocol's own `"None"` / `{"Some": v}` would reach them as a string or
//! an object they never declared.

use crate::json::{parse_str, Json, Object};
use crate::limits::Limits;
use crate::types::Param;
use crate::value::Value;

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
        let json: Json = parse_str(&value.to_canonical(), &limits).map_err(|e| format!("argument {}: {e}", param.name))?;
        out.insert(param.name.as_str(), json);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Prim, Term};

    #[test]
    fn none_is_left_out_and_some_is_its_value() {
        let param = |name: &str| Param { name: name.into(), ty: Term::Prim(Prim::Int) };
        let args = [
            Value::Text("Oslo".into()),
            Value::Option(None),
            Value::Option(Some(Box::new(Value::Int(3.into())))),
            Value::Option(Some(Box::new(Value::Option(None)))),
        ];
        let out = arguments(&[param("city"), param("units"), param("days"), param("nested")], &args, &Limits::default()).unwrap();
        assert_eq!(Json::Object(out).to_canonical(), r#"{"city":"Oslo","days":3,"nested":"None"}"#);
    }
}
