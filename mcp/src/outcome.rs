//! What an MCP server's answer to `tools/call` is as a Flow outcome
//! (`host-boundary.md`, "Adapters"):
//!
//! - the structured result is `structuredContent` or, when the result has
//!   none, the JSON its one text content block holds;
//! - it is decoded at the success type, or at the error type when the result
//!   is marked `isError`: Ok or Failed;
//! - anything else is a result the adapter cannot map, BadReply with the
//!   reason: an error response, a line that cannot be read, a result that is
//!   not a `tools/call` result, a `resultType` other than `complete` (the
//!   server waits for input the adapter cannot give), no or several text
//!   blocks and no `structuredContent`, text that is not JSON, or a value that
//!   does not decode. The reason names the path from the response root
//!   (`$.result.structuredContent.days[0].high_c`) and the rule.
//!
//! Content blocks that are not text (images, audio, resources) have no place
//! in a declared type: beside one text block, or beside `structuredContent`,
//! they are ignored.
//!
//! The other way, a Flow Tool served to MCP clients answers with
//! `call_result`, which the mapping above reads back as the same outcome:
//! Ok as `structuredContent` and its JSON in one text block; Failed as an
//! `isError` result whose one text block holds the error's JSON; NotRun and
//! Unknown as `isError` results whose text names the outcome and why.

use flow_core::decode::from_json;
use flow_core::error::Path;
use flow_core::json::{parse_str, Json};
use flow_core::limits::Limits;
use flow_protocol::outcome::{CallOutcome, Outcome};
use flow_protocol::server::CallTypes;

use super::messages::{CallToolResult, Content};
use super::schemas::RESULT_MEMBER;
use super::session::Answer;

/// How much of a text that is not JSON a reason quotes.
const QUOTE: usize = 200;

fn quoted(text: &str) -> String {
    let cut: String = text.chars().take(QUOTE).collect();
    let mut out = Json::String(cut).to_canonical();
    if text.chars().count() > QUOTE {
        out.push_str("...");
    }
    out
}

/// The Flow outcome of one answer, decoded at `types`.
pub fn map_answer(answer: Answer, types: &CallTypes, limits: &Limits) -> CallOutcome {
    let result = match answer {
        Answer::Result(result) => result,
        Answer::Error(e) => return CallOutcome::BadReply(format!("the MCP server answered {e}, not a result")),
        Answer::Unreadable(why) => {
            return CallOutcome::BadReply(format!("the MCP server's answer cannot be read: {why}"))
        }
    };
    let at = Path::root().key("result");
    let result = match CallToolResult::from_json(&result, &at) {
        Ok(result) => result,
        Err(e) => return CallOutcome::BadReply(format!("not a tools/call result: {e}")),
    };
    if let Some(kind) = result.result_type.as_deref().filter(|k| *k != "complete") {
        return CallOutcome::BadReply(format!(
            "{}: {kind:?}: the call waits for input the adapter cannot give [shape]",
            at.key("resultType")
        ));
    }
    let (json, path) = match structured(result.structured_content, &result.content, &at, limits) {
        Ok(found) => found,
        Err(why) => return CallOutcome::BadReply(why),
    };
    let (node, wrap): (_, fn(flow_core::Value) -> CallOutcome) =
        if result.is_error { (types.err, CallOutcome::Failed) } else { (types.ok, CallOutcome::Ok) };
    match from_json(json, &types.plan, node) {
        Ok(value) => wrap(value),
        Err(e) => CallOutcome::BadReply(e.under_path(&path).to_string()),
    }
}

/// The structured result and its path: `structuredContent`, else the JSON of
/// the one text block.
fn structured(
    structured: Option<Json>,
    content: &[Content],
    at: &Path,
    limits: &Limits,
) -> Result<(Json, Path), String> {
    if let Some(json) = structured {
        return Ok((json, at.clone().key("structuredContent")));
    }
    let texts: Vec<(usize, &str)> = content
        .iter()
        .enumerate()
        .filter_map(|(i, c)| if let Content::Text(t) = c { Some((i, t.as_str())) } else { None })
        .collect();
    match texts[..] {
        [(i, text)] => {
            let path = at.clone().key("content").index(i).key("text");
            parse_str(text, limits).map(|json| (json, path.clone())).map_err(|e| {
                format!(
                    "{path}: no structuredContent, and the one text block is not JSON: {} [{}]: {}",
                    e.message,
                    e.rule.code(),
                    quoted(text)
                )
            })
        }
        [] => Err(format!("{}: no structuredContent and no text block [shape]", at.clone().key("content"))),
        _ => Err(format!(
            "{}: no structuredContent and {} text blocks, not one [shape]",
            at.clone().key("content"),
            texts.len()
        )),
    }
}

/// A served Tool's outcome as a `tools/call` result. `wrapped`: the Tool's
/// success type is not an object, so its `outputSchema` is
/// `{"result": ...}` and so is its structured result.
///
/// The declared error carries no `structuredContent`: a client checks any
/// `structuredContent` against the `outputSchema`, which describes the
/// success type (the TypeScript SDK 1.32 does so even on an `isError`
/// result), so the error's JSON is the one text block, where [`map_answer`]
/// finds it when there is no `structuredContent`.
pub(crate) fn call_result(outcome: &Outcome, wrapped: bool, limits: &Limits) -> CallToolResult {
    let error = |text: String| CallToolResult {
        content: vec![Content::Text(text)],
        structured_content: None,
        is_error: true,
        result_type: None,
    };
    match outcome {
        Outcome::Ok(value) => {
            let text = if wrapped {
                format!("{{{}:{value}}}", Json::str(RESULT_MEMBER).to_canonical())
            } else {
                value.clone()
            };
            // The value was checked at its type, so its text reads back; only
            // a value nested deeper than a client may read is refused here.
            // The line's size is its writer's to check.
            match parse_str(&text, &Limits { max_bytes: usize::MAX, ..*limits }) {
                Ok(json) => CallToolResult {
                    content: vec![Content::Text(text)],
                    structured_content: Some(json),
                    is_error: false,
                    result_type: None,
                },
                Err(e) => error(format!("Unknown: the result cannot be sent: {e}")),
            }
        }
        Outcome::Failed(value) => error(value.clone()),
        Outcome::NotRun(why) => error(format!("NotRun: {why}")),
        Outcome::Unknown(why) => error(format!("Unknown: {why}")),
    }
}

/// Appends the `tools/call` result that [`call_result`] makes of the Ok
/// outcome `value` (its value's canonical text), with `resultType` for the
/// modern era, written from the text as is: true when written. The text is
/// not read back into a tree when it is sure to read back under `limits`:
/// it was written canonically from a checked value, so it is valid JSON
/// whose canonical text is itself, and only a limit could refuse it; no
/// number in it has more digits than it has bytes, nor does it nest deeper
/// than it has brackets. Otherwise nothing is written, and the caller goes
/// through [`call_result`], which says which limit it passes.
pub(crate) fn write_ok_result(out: &mut String, value: &str, wrapped: bool, modern: bool, limits: &Limits) -> bool {
    let brackets = value.bytes().filter(|&b| b == b'[' || b == b'{').count() + usize::from(wrapped);
    if value.len() as u64 > limits.max_digits || brackets > limits.max_depth {
        return false;
    }
    let mut structured = String::with_capacity(value.len() + 12);
    if wrapped {
        structured.push('{');
        flow_core::json::write_string(&mut structured, RESULT_MEMBER);
        structured.push(':');
    }
    structured.push_str(value);
    if wrapped {
        structured.push('}');
    }
    // The members in canonical order, as CallToolResult::write_canonical writes them.
    out.push_str("{\"content\":[{\"text\":");
    flow_core::json::write_string(out, &structured);
    out.push_str(",\"type\":\"text\"}]");
    if modern {
        out.push_str(",\"resultType\":\"complete\"");
    }
    out.push_str(",\"structuredContent\":");
    out.push_str(&structured);
    out.push('}');
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ok_result_written_from_its_text_is_the_one_call_result_makes() {
        let texts = [
            r#""hello""#,
            r#""h\u0000\"\\é𝄞""#,
            "-12345678901234567890",
            "1.50e-3",
            r#"{"a":[1,{"b":null,"c":[true,false]}],"z":"}]\"["}"#,
            "[]",
            "{}",
        ];
        for text in texts {
            // The canonical text of a value, as Outcome::ok makes it.
            let value = parse_str(text, &Limits::default()).unwrap().to_canonical();
            for (wrapped, modern) in [(false, false), (true, false), (false, true), (true, true)] {
                let mut written = String::new();
                assert!(write_ok_result(&mut written, &value, wrapped, modern, &Limits::default()), "{value}");
                let mut result = call_result(&Outcome::Ok(value.clone()), wrapped, &Limits::default());
                if modern {
                    result.result_type = Some("complete".to_owned());
                }
                assert_eq!(written, result.to_json().to_canonical(), "{value} wrapped {wrapped} modern {modern}");
            }
        }
    }

    #[test]
    fn an_ok_result_near_a_limit_is_left_to_call_result() {
        let limits = Limits { max_depth: 3, max_digits: 10, ..Limits::default() };
        let mut out = String::new();
        assert!(write_ok_result(&mut out, "[[[1]]]", false, false, &limits));
        out.clear();
        assert!(!write_ok_result(&mut out, "[[[1]]]", true, false, &limits));
        assert!(!write_ok_result(&mut out, "12345678901", false, false, &limits));
        assert!(out.is_empty());
    }
    use crate::jsonrpc::RpcError;
    use flow_core::types::{Prim, Term};

    fn types() -> CallTypes {
        let list = Term::List(Box::new(Term::Prim(Prim::Int)));
        CallTypes::compile(&Default::default(), &[], &list, &Term::Prim(Prim::Text)).unwrap()
    }

    fn map(result: &str) -> CallOutcome {
        let json = parse_str(result, &Limits::default()).unwrap();
        map_answer(Answer::Result(json), &types(), &Limits::default())
    }

    fn bad(result: &str) -> String {
        match map(result) {
            CallOutcome::BadReply(why) => why,
            other => panic!("{result}: {other:?}"),
        }
    }

    #[test]
    fn structured_content_or_the_one_text_block_decodes() {
        assert_eq!(
            map(r#"{"content":[{"type":"text","text":"[9]"}],"structuredContent":[1,2e0]}"#).to_canonical(),
            r#"{"Ok":[1,2]}"#
        );
        assert_eq!(
            map(r#"{"content":[{"type":"image","data":"","mimeType":"image/png"},{"type":"text","text":" [3] "}]}"#)
                .to_canonical(),
            r#"{"Ok":[3]}"#
        );
        assert_eq!(
            map(r#"{"content":[],"structuredContent":"no","isError":true}"#).to_canonical(),
            r#"{"Failed":"no"}"#
        );
        assert_eq!(
            map(r#"{"content":[{"type":"text","text":"\"late\""}],"isError":true,"resultType":"complete"}"#)
                .to_canonical(),
            r#"{"Failed":"late"}"#
        );
    }

    #[test]
    fn what_cannot_be_mapped_is_bad_reply_with_the_reason() {
        assert_eq!(
            bad(r#"{"content":[],"structuredContent":[1,"x"]}"#),
            "$.result.structuredContent[1]: expected an Int (a number), found a string [type]"
        );
        assert_eq!(bad(r#"{"content":[{"type":"text","text":"Echo: hi"}]}"#), "$.result.content[0].text: no structuredContent, and the one text block is not JSON: invalid JSON at byte 0: expected a JSON value [syntax]: \"Echo: hi\"");
        assert_eq!(bad(r#"{"content":[]}"#), "$.result.content: no structuredContent and no text block [shape]");
        assert_eq!(
            bad(r#"{"content":[{"type":"text","text":"[1]"},{"type":"text","text":"[2]"}]}"#),
            "$.result.content: no structuredContent and 2 text blocks, not one [shape]"
        );
        assert!(bad(r#"{"content":"x"}"#).starts_with("not a tools/call result: $.result.content: expected an array"));
        assert!(bad(r#"{"content":[],"structuredContent":[],"resultType":"input_required"}"#)
            .contains("\"input_required\""));
        // An error result is decoded at the error type, and refused there.
        assert!(bad(r#"{"content":[{"type":"text","text":"Unknown tool: x"}],"isError":true}"#).contains("is not JSON"));
        assert_eq!(
            bad(r#"{"content":[],"structuredContent":[1],"isError":true}"#),
            "$.result.structuredContent: expected a string, found an array [type]"
        );
        let long = format!(r#"{{"content":[{{"type":"text","text":"{}"}}]}}"#, "x".repeat(1000));
        assert!(bad(&long).ends_with("xxx\"..."));

        let error = map_answer(Answer::Error(RpcError::new(-32602, "Invalid params")), &types(), &Limits::default());
        assert_eq!(
            error,
            CallOutcome::BadReply("the MCP server answered error -32602: Invalid params, not a result".into())
        );
        let unreadable = map_answer(Answer::Unreadable("a line of 99 bytes".into()), &types(), &Limits::default());
        assert!(matches!(unreadable, CallOutcome::BadReply(r) if r.contains("cannot be read: a line of 99 bytes")));
    }

    #[test]
    fn a_served_outcome_maps_back_to_itself() {
        let limits = Limits::default();
        let back = |outcome: &Outcome, wrapped: bool, types: &CallTypes| {
            let result = call_result(outcome, wrapped, &limits);
            map_answer(Answer::Result(result.to_json()), types, &limits)
        };
        let ok = Outcome::Ok("[1,2]".into());
        let result = call_result(&ok, false, &limits);
        assert_eq!(
            result.to_json().to_canonical(),
            r#"{"content":[{"text":"[1,2]","type":"text"}],"structuredContent":[1,2]}"#
        );
        assert_eq!(back(&ok, false, &types()).to_canonical(), r#"{"Ok":[1,2]}"#);
        let failed = Outcome::Failed("\"no\"".into());
        assert_eq!(
            call_result(&failed, false, &limits).to_json().to_canonical(),
            r#"{"content":[{"text":"\"no\"","type":"text"}],"isError":true}"#
        );
        assert_eq!(back(&failed, false, &types()).to_canonical(), r#"{"Failed":"no"}"#);
        // Wrapped: the adapter reads it back at a record holding `result`.
        let wrapped = call_result(&ok, true, &limits).to_json().to_canonical();
        assert_eq!(
            wrapped,
            r#"{"content":[{"text":"{\"result\":[1,2]}","type":"text"}],"structuredContent":{"result":[1,2]}}"#
        );
        // NotRun and Unknown are errors whose text is no JSON: BadReply to an adapter.
        let not_run = call_result(
            &Outcome::NotRun("$.params.arguments.a: missing argument [missing-field]".into()),
            false,
            &limits,
        );
        assert_eq!(
            not_run.to_json().to_canonical(),
            r#"{"content":[{"text":"NotRun: $.params.arguments.a: missing argument [missing-field]","type":"text"}],"isError":true}"#
        );
        assert!(matches!(back(&Outcome::Unknown("it broke".into()), false, &types()), CallOutcome::BadReply(_)));
        // A value nested past the depth limit is not sent as structured content.
        let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert!(!call_result(&Outcome::Ok(deep.clone()), false, &limits).is_error);
        let too_deep = call_result(&Outcome::Ok(deep), true, &limits);
        assert!(too_deep.is_error && too_deep.structured_content.is_none());
        assert!(
            matches!(&too_deep.content[0], Content::Text(t) if t.starts_with("Unknown: the result cannot be sent: ") && t.ends_with("[too-deep]")),
            "{too_deep:?}"
        );
    }
}
