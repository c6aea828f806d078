//! Pretty JSON (two-space indent) for the metadata files the generators
//! write, so that a change to a listing reads as a small diff in a Tool
//! repository.

use flow_core::json::Json;

/// `json` with two-space indents; empty arrays and objects stay on one line,
/// scalars are in canonical form.
pub fn pretty_json(json: &Json) -> String {
    let mut out = String::new();
    pretty(json, 0, &mut out);
    out
}

/// A JSON file's text: [`pretty_json`] and its final newline.
pub fn json_file(json: &Json) -> String {
    let mut text = pretty_json(json);
    text.push('\n');
    text
}

fn pretty(json: &Json, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent + 1);
    let close = "  ".repeat(indent);
    match json {
        Json::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad);
                pretty(item, indent + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&close);
            out.push(']');
        }
        Json::Object(object) if !object.is_empty() => {
            out.push_str("{\n");
            for (i, (k, v)) in object.iter().enumerate() {
                out.push_str(&pad);
                flow_core::json::write_string(out, k);
                out.push_str(": ");
                pretty(v, indent + 1, out);
                out.push_str(if i + 1 < object.len() { ",\n" } else { "\n" });
            }
            out.push_str(&close);
            out.push('}');
        }
        other => flow_core::json::write_canonical(out, other),
    }
}

#[cfg(test)]
mod tests {
    use super::{json_file, pretty_json};
    use flow_core::json::parse;
    use flow_core::limits::Limits;

    #[test]
    fn nests_with_two_spaces_and_keeps_empty_containers_inline() {
        let json = parse(br#"{"a":[1,{"b":[]}],"c":{},"d":"x\ny"}"#, &Limits::default()).unwrap();
        assert_eq!(
            pretty_json(&json),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    }\n  ],\n  \"c\": {},\n  \"d\": \"x\\ny\"\n}"
        );
    }

    #[test]
    fn json_files_keep_canonical_values_and_end_in_a_newline() {
        let json = flow_core::json::parse_str(r#"{"b":[1.50,{}],"a":"é\n","c":[]}"#, &Limits::default()).unwrap();
        assert_eq!(json_file(&json), "{\n  \"a\": \"é\\n\",\n  \"b\": [\n    1.5,\n    {}\n  ],\n  \"c\": []\n}\n");
    }
}
