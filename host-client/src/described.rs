//! A `describe` result as the host reads it: `{"data", "tools": [{"tool",
//! "fingerprint", "signature"}]}` with exact shapes. The data version is kept
//! as text and judged per binding, so that another major is a version refusal
//! of each declaration, distinct from a shape error.

use std::collections::BTreeMap;

use flow_core::error::{Error, Path, Result, Rule};
use flow_core::json::Json;

/// One served declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribedTool {
    /// The declaration's identity.
    pub tool: String,
    /// The fingerprint the host binds by.
    pub fingerprint: String,
    /// For people to read; binding goes by the fingerprint.
    pub signature: Json,
}

/// What a Tool process said it serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// The process's data version.
    pub data: String,
    /// By identity.
    pub tools: BTreeMap<String, DescribedTool>,
    /// The result as received, for people who want to read all of it.
    pub raw: Json,
}

fn shape(path: Path, message: impl Into<String>) -> Error {
    Error::at(path, Rule::Shape, message)
}

fn exact_members(json: &Json, path: &Path, names: &[&str]) -> Result<()> {
    let object = json
        .as_object()
        .ok_or_else(|| shape(path.clone(), format!("expected an object, found {}", json.kind_name())))?;
    if let Some(extra) = object.keys().find(|k| !names.contains(k)) {
        return Err(shape(path.clone().key(extra), "unknown member"));
    }
    if let Some(missing) = names.iter().find(|n| object.get(n).is_none()) {
        return Err(Error::at(path.clone().key(*missing), Rule::MissingField, "missing"));
    }
    Ok(())
}

fn is_fingerprint(text: &str) -> bool {
    text.strip_prefix("sha256:")
        .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

impl Described {
    /// Reads a describe result; paths are from the result (`$.tools[2].fingerprint`).
    pub fn from_json(json: &Json) -> Result<Described> {
        let root = Path::root();
        exact_members(json, &root, &["data", "tools"])?;
        let object = json.as_object().expect("checked");
        let data = object
            .get("data")
            .and_then(Json::as_str)
            .ok_or_else(|| Error::at(root.clone().key("data"), Rule::Type, "expected a string"))?
            .to_owned();
        let entries = object
            .get("tools")
            .and_then(Json::as_array)
            .ok_or_else(|| Error::at(root.clone().key("tools"), Rule::Type, "expected an array"))?;
        let mut tools = BTreeMap::new();
        for (i, entry) in entries.iter().enumerate() {
            let at = root.clone().key("tools").index(i);
            exact_members(entry, &at, &["tool", "fingerprint", "signature"])?;
            let o = entry.as_object().expect("checked");
            let text = |name: &str| {
                o.get(name)
                    .and_then(Json::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| Error::at(at.clone().key(name), Rule::Type, "expected a string"))
            };
            let tool = text("tool")?;
            let fingerprint = text("fingerprint")?;
            if !is_fingerprint(&fingerprint) {
                return Err(shape(at.key("fingerprint"), "expected sha256: and 64 lowercase hex digits"));
            }
            let signature = o.get("signature").cloned().expect("checked");
            if signature.as_object().is_none() {
                return Err(Error::at(at.key("signature"), Rule::Type, "expected an object"));
            }
            if tools.contains_key(&tool) {
                return Err(Error::at(at.key("tool"), Rule::DuplicateName, format!("{tool} is described twice")));
            }
            tools.insert(tool.clone(), DescribedTool { tool, fingerprint, signature });
        }
        Ok(Described { data, tools, raw: json.clone() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::json::parse_str;
    use flow_core::Limits;

    const FP: &str = "sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077";

    fn read(text: &str) -> Result<Described> {
        Described::from_json(&parse_str(text, &Limits::default()).unwrap())
    }

    #[test]
    fn reads_exact_shapes() {
        let d =
            read(&format!(r#"{{"data":"0.3","tools":[{{"tool":"a.flow.t","fingerprint":"{FP}","signature":{{}}}}]}}"#))
                .unwrap();
        assert_eq!(d.data, "0.3");
        assert_eq!(d.tools["a.flow.t"].fingerprint, FP);
        let err = |text: String| read(&text).unwrap_err().to_string();
        assert_eq!(err(r#"{"data":"0.1"}"#.into()), "$.tools: missing [missing-field]");
        assert_eq!(err(r#"{"data":"0.1","tools":[],"x":1}"#.into()), "$.x: unknown member [shape]");
        assert!(err(r#"{"data":"0.1","tools":[{"tool":"a","fingerprint":"md5:00","signature":{}}]}"#.into())
            .starts_with("$.tools[0].fingerprint"));
        let entry = format!(r#"{{"tool":"a","fingerprint":"{FP}","signature":{{}}}}"#);
        assert!(err(format!(r#"{{"data":"0.1","tools":[{entry},{entry}]}}"#)).ends_with("[duplicate-name]"));
    }
}
