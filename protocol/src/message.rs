//! The four messages of `decisions.md` section 7 on JSON-RPC 2.0, one per
//! line: strict reading of any line into an [`Incoming`], and writers for every
//! line either side sends.
//!
//! Reading never fails and never panics: every line becomes something to do
//! (start a call, answer an error, admit a reply) or something to log. Lines
//! that JSON reading refuses, including lines over the size limit, are still
//! attributed to their call when a bounded scan (`super::skim`) finds its
//! pair, because the spec gives them an outcome (NotRun for a call, BadReply
//! for a reply) and an unattributed line would leave the call open forever.
//!
//! Every written line is canonical text (keys sorted, no whitespace) ending in
//! one `\n`: values inside are already canonical, so the whole line is.

use std::fmt;

use flow_core::error::{Error, Path, Rule};
use flow_core::json::{self, write_string, Json, Object};
use flow_core::limits::Limits;
use flow_core::value::Value;

use super::outcome::Outcome;
use super::skim::Skim;

/// JSON-RPC: the line is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the JSON is not a request object.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: no such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC: the method's params are wrong.
pub const INVALID_PARAMS: i64 = -32602;

/// The only correlation key of a call: the host's run id and the call's
/// history id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallKey {
    /// The host's run id.
    pub run: String,
    /// The call's history id within the run.
    pub call: String,
}

impl CallKey {
    /// The key of call `call` in run `run`.
    pub fn new(run: impl Into<String>, call: impl Into<String>) -> CallKey {
        CallKey { run: run.into(), call: call.into() }
    }
}

impl fmt::Display for CallKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mut run, mut call) = (String::new(), String::new());
        write_string(&mut run, &self.run);
        write_string(&mut call, &self.call);
        write!(f, "(run {run}, call {call})")
    }
}

/// A `call` notification whose envelope is sound; its args and views are not
/// yet checked against any type.
#[derive(Debug, Clone, PartialEq)]
pub struct CallMessage {
    /// The call's correlation key.
    pub key: CallKey,
    /// The identity of the Tool called.
    pub tool: String,
    /// The arguments by parameter name, not yet decoded.
    pub args: Object,
    /// `Some(Json::Null)` when the member is present and null (a refusal for
    /// generic and nongeneric Tools alike), `None` when absent.
    pub schema: Option<Json>,
    /// The `types` view of a generic call, as sent; `None` when absent.
    pub types: Option<Json>,
}

/// A `reply` notification: the pair and the raw outcome, which only the host
/// can judge (it knows the declared types).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyMessage {
    /// The call's correlation key.
    pub key: CallKey,
    /// The outcome as sent, not yet checked against the Tool's types.
    pub outcome: Json,
}

/// A JSON-RPC error object received in a response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    /// The JSON-RPC error code.
    pub code: i64,
    /// The error's message.
    pub message: String,
}

/// What one line is.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A `describe` request.
    Describe {
        /// The request's id, echoed in the answer.
        id: Json,
    },
    /// A response to one of our requests (`describe`).
    Response {
        /// The id of the request this answers.
        id: Json,
        /// The result, or the error the peer answered with.
        result: Result<Json, RpcError>,
    },
    /// A sound `call` notification.
    Call(CallMessage),
    /// A call that names its pair but cannot run: answer NotRun with `reason`.
    BadCall {
        /// The call's correlation key.
        key: CallKey,
        /// Why the call cannot run.
        reason: String,
    },
    /// A `cancel` notification for the call with this key.
    Cancel(CallKey),
    /// A sound `reply` notification.
    Reply(ReplyMessage),
    /// A reply for `key` that is malformed, past a limit or over the size
    /// limit: the host admits BadReply with `reason`.
    BadReply {
        /// The call's correlation key.
        key: CallKey,
        /// Why the reply is bad.
        reason: String,
    },
    /// Answer with this JSON-RPC error (-32700, -32600, -32601, -32602).
    Refuse {
        /// The request's id, or `null` when it could not be read.
        id: Json,
        /// The JSON-RPC error code.
        code: i64,
        /// The error's message.
        message: String,
    },
    /// Nothing to answer (an unknown notification, a response nobody asked
    /// for, a call without a pair): log the reason.
    Ignore(String),
}

fn at(path: Path, rule: Rule, message: impl Into<String>) -> String {
    Error::at(path, rule, message).to_string()
}

fn params_path() -> Path {
    Path::root().key("params")
}

/// What a line that could not be read as a tree is: attributed to its call or
/// reply when a scan finds the pair, else a parse error.
fn unreadable(skim: Skim, why: String) -> Incoming {
    match (skim.method.as_deref(), skim.pair()) {
        (Some("call"), Some((run, call))) => Incoming::BadCall { key: CallKey { run, call }, reason: why },
        (Some("reply"), Some((run, call))) => Incoming::BadReply { key: CallKey { run, call }, reason: why },
        _ => Incoming::Refuse { id: Json::Null, code: PARSE_ERROR, message: format!("Parse error: {why}") },
    }
}

/// A line longer than the size limit, of which only its length and a scan are
/// known.
pub fn too_long(length: u64, skim: Skim, limits: &Limits) -> Incoming {
    let why = Error::new(
        Rule::TooLarge,
        format!("the message is {length} bytes, more than the limit of {}", limits.max_bytes),
    )
    .to_string();
    unreadable(skim, why)
}

/// Reads one line (without its `\n`).
pub fn parse_line(line: &[u8], limits: &Limits) -> Incoming {
    if line.len() > limits.max_bytes {
        return too_long(line.len() as u64, Skim::of(line), limits);
    }
    let json = match json::parse(line, limits) {
        Ok(json) => json,
        Err(e) => return unreadable(Skim::of(line), e.to_string()),
    };
    let object = match json {
        Json::Object(o) => o,
        other => {
            return invalid(Json::Null, format!("a message is a JSON-RPC 2.0 object, not {}", other.kind_name()));
        }
    };
    envelope(object)
}

fn invalid(id: Json, why: String) -> Incoming {
    Incoming::Refuse { id, code: INVALID_REQUEST, message: format!("Invalid Request: {why}") }
}

/// The pair of a line that is a reply in intent (method `reply`, string
/// `params.run` and `params.call`) whose envelope breaks section 7 (an `id`,
/// even null; an extra top-level member; `jsonrpc` other than "2.0"): the
/// reason, naming the member. Such a line is BadReply for its call, never a
/// stray line, or the call would stay open while the process lives.
fn reply_envelope_fault(o: &Object) -> Option<(CallKey, String)> {
    if o.get("method").and_then(Json::as_str) != Some("reply") {
        return None;
    }
    let params = o.get("params")?.as_object()?;
    let run = params.get("run")?.as_str()?.to_owned();
    let call = params.get("call")?.as_str()?.to_owned();
    let fault = if o.get("id").is_some() {
        at(Path::root().key("id"), Rule::Shape, "a reply is a notification and carries no id, not even null")
    } else if o.get("jsonrpc").and_then(Json::as_str) != Some("2.0") {
        at(Path::root().key("jsonrpc"), Rule::Shape, "jsonrpc must be \"2.0\"")
    } else if let Some(extra) = o.keys().find(|k| !matches!(*k, "jsonrpc" | "method" | "params")) {
        at(
            Path::root().key(extra),
            Rule::Shape,
            "unknown member of a reply's envelope (only jsonrpc, method and params)",
        )
    } else {
        return None;
    };
    Some((CallKey { run, call }, format!("malformed envelope: {fault}")))
}

fn envelope(mut o: Object) -> Incoming {
    if let Some((key, reason)) = reply_envelope_fault(&o) {
        return Incoming::BadReply { key, reason };
    }
    // The id to echo in a refusal: the message's own when it is a valid id.
    let id = match o.remove("id") {
        None => None,
        Some(id @ (Json::String(_) | Json::Number(_) | Json::Null)) => Some(id),
        Some(other) => {
            return invalid(Json::Null, format!("id is {}, not a string, number or null", other.kind_name()))
        }
    };
    let echo = id.clone().unwrap_or(Json::Null);
    match o.remove("jsonrpc") {
        Some(Json::String(v)) if v == "2.0" => {}
        _ => return invalid(echo, "jsonrpc must be \"2.0\"".to_owned()),
    }
    let method = o.remove("method");
    let params = o.remove("params");
    let result = o.remove("result");
    let error = o.remove("error");
    if let Some(key) = o.keys().next() {
        return invalid(echo, format!("unknown member {key:?}"));
    }
    match (method, id) {
        (Some(Json::String(method)), id) => {
            if result.is_some() || error.is_some() {
                return invalid(echo, "a request carries no result or error".to_owned());
            }
            match &params {
                Some(Json::Object(_) | Json::Array(_)) | None => {}
                Some(other) => {
                    return invalid(echo, format!("params is {}, not an object or array", other.kind_name()));
                }
            }
            match id {
                Some(id) => request(id, &method, params),
                None => notification(&method, params),
            }
        }
        (Some(other), _) => invalid(echo, format!("method is {}, not a string", other.kind_name())),
        (None, Some(id)) => response(id, result, error),
        (None, None) => invalid(echo, "neither a request nor a response".to_owned()),
    }
}

fn request(id: Json, method: &str, params: Option<Json>) -> Incoming {
    match method {
        "describe" => match params {
            None => Incoming::Describe { id },
            Some(Json::Object(p)) if p.is_empty() => Incoming::Describe { id },
            Some(_) => {
                Incoming::Refuse { id, code: INVALID_PARAMS, message: "Invalid params: describe takes {}".to_owned() }
            }
        },
        other => Incoming::Refuse { id, code: METHOD_NOT_FOUND, message: format!("Method not found: {other:?}") },
    }
}

fn response(id: Json, result: Option<Json>, error: Option<Json>) -> Incoming {
    match (result, error) {
        (Some(result), None) => Incoming::Response { id, result: Ok(result) },
        (None, Some(Json::Object(mut e))) => {
            let code = e.remove("code");
            let message = e.remove("message");
            e.remove("data");
            match (code, message) {
                (Some(Json::Number(code)), Some(Json::String(message))) if e.is_empty() => {
                    match code.to_bigint().and_then(|c| i64::try_from(c).ok()) {
                        Some(code) => Incoming::Response { id, result: Err(RpcError { code, message }) },
                        None => Incoming::Ignore("an error response whose code is not an integer".to_owned()),
                    }
                }
                _ => Incoming::Ignore("a malformed error response".to_owned()),
            }
        }
        _ => Incoming::Ignore("a response with neither exactly one of result or error".to_owned()),
    }
}

/// Takes the pair out of `params`, or says why there is none.
fn take_pair(p: &mut Object) -> Result<CallKey, String> {
    let mut get = |name: &str| match p.remove(name) {
        Some(Json::String(s)) => Ok(s),
        Some(other) => {
            Err(at(params_path().key(name), Rule::Type, format!("expected a string, found {}", other.kind_name())))
        }
        None => Err(at(params_path().key(name), Rule::MissingField, "missing")),
    };
    let run = get("run")?;
    let call = get("call")?;
    Ok(CallKey { run, call })
}

fn notification(method: &str, params: Option<Json>) -> Incoming {
    let mut p = match (method, params) {
        ("call" | "cancel" | "reply", Some(Json::Object(p))) => p,
        ("call" | "cancel" | "reply", _) => {
            return Incoming::Ignore(format!(
                "a {method} notification whose params are not an object cannot be answered"
            ));
        }
        (other, _) => return Incoming::Ignore(format!("ignored unknown notification {other:?}")),
    };
    let key = match take_pair(&mut p) {
        Ok(key) => key,
        Err(why) => return Incoming::Ignore(format!("a {method} without its pair cannot be answered: {why}")),
    };
    match method {
        "call" => call(key, p),
        "cancel" => match p.keys().next() {
            None => Incoming::Cancel(key),
            Some(k) => Incoming::Ignore(at(
                params_path().key(k),
                Rule::Shape,
                format!("cancel of {key} has an unknown member"),
            )),
        },
        _ => reply(key, p),
    }
}

fn call(key: CallKey, mut p: Object) -> Incoming {
    let bad = |reason: String| Incoming::BadCall { key: key.clone(), reason };
    let tool = match p.remove("tool") {
        Some(Json::String(t)) => t,
        Some(other) => {
            return bad(at(
                params_path().key("tool"),
                Rule::Type,
                format!("expected a string, found {}", other.kind_name()),
            ))
        }
        None => return bad(at(params_path().key("tool"), Rule::MissingField, "missing")),
    };
    let args = match p.remove("args") {
        Some(Json::Object(a)) => a,
        Some(other) => {
            return bad(at(
                params_path().key("args"),
                Rule::Type,
                format!("expected an object, found {}", other.kind_name()),
            ))
        }
        None => return bad(at(params_path().key("args"), Rule::MissingField, "missing")),
    };
    let schema = p.remove("schema");
    let types = p.remove("types");
    if let Some(k) = p.keys().next() {
        return bad(at(params_path().key(k), Rule::Shape, "unknown member of a call"));
    }
    Incoming::Call(CallMessage { key, tool, args, schema, types })
}

fn reply(key: CallKey, mut p: Object) -> Incoming {
    let outcome = p.remove("outcome");
    if let Some(k) = p.keys().next() {
        let reason = at(params_path().key(k), Rule::Shape, "unknown member of a reply");
        return Incoming::BadReply { key, reason };
    }
    match outcome {
        Some(outcome) => Incoming::Reply(ReplyMessage { key, outcome }),
        None => Incoming::BadReply {
            key,
            reason: at(params_path().key("outcome"), Rule::MissingField, "malformed outcome: missing"),
        },
    }
}

// --- Writers. Members are written in ascending key order by hand, so each
// line is canonical text without building a tree.

fn pair_members(out: &mut String, key: &CallKey) {
    out.push_str("\"call\":");
    write_string(out, &key.call);
}

fn run_member(out: &mut String, key: &CallKey) {
    out.push_str(",\"run\":");
    write_string(out, &key.run);
}

/// `{"id":ID,"jsonrpc":"2.0","method":"describe","params":{}}`
pub fn write_describe_request(id: u64) -> String {
    format!("{{\"id\":{id},\"jsonrpc\":\"2.0\",\"method\":\"describe\",\"params\":{{}}}}\n")
}

/// A result response; `result` is written canonically.
pub(crate) fn write_result(id: &Json, result: &Json) -> String {
    let mut out = String::from("{\"id\":");
    json::write_canonical(&mut out, id);
    out.push_str(",\"jsonrpc\":\"2.0\",\"result\":");
    json::write_canonical(&mut out, result);
    out.push_str("}\n");
    out
}

/// An error response.
pub fn write_error(id: &Json, code: i64, message: &str) -> String {
    let mut out = format!("{{\"error\":{{\"code\":{code},\"message\":");
    write_string(&mut out, message);
    out.push_str("},\"id\":");
    json::write_canonical(&mut out, id);
    out.push_str(",\"jsonrpc\":\"2.0\"}\n");
    out
}

/// A `call` notification. `args` is the canonical text of the args object;
/// `views` is `(schema, types)` for a generic Tool and `None` otherwise.
pub fn write_call(key: &CallKey, tool: &str, args: &str, views: Option<(&Json, &Json)>) -> String {
    let mut out = String::from("{\"jsonrpc\":\"2.0\",\"method\":\"call\",\"params\":{\"args\":");
    out.push_str(args);
    write_call_after_args(&mut out, key, tool, views);
    out
}

/// The members of a `call` line after its args, and the line's end: shared
/// by [`write_call`] and the host's in-place call line, which write the args
/// before them each their own way.
#[inline]
pub fn write_call_after_args(out: &mut String, key: &CallKey, tool: &str, views: Option<(&Json, &Json)>) {
    out.push(',');
    pair_members(out, key);
    run_member(out, key);
    if let Some((schema, _)) = views {
        out.push_str(",\"schema\":");
        json::write_canonical(out, schema);
    }
    out.push_str(",\"tool\":");
    write_string(out, tool);
    if let Some((_, types)) = views {
        out.push_str(",\"types\":");
        json::write_canonical(out, types);
    }
    out.push_str("}}\n");
}

/// A `cancel` notification.
pub fn write_cancel(key: &CallKey) -> String {
    let mut out = String::from("{\"jsonrpc\":\"2.0\",\"method\":\"cancel\",\"params\":{");
    pair_members(&mut out, key);
    run_member(&mut out, key);
    out.push_str("}}\n");
    out
}

/// A `reply` notification whose outcome is `{"TAG": value}` (`Ok` or
/// `Failed`), the value's canonical text written in place, into a line of
/// `capacity` bytes to start with: the same text as [`write_reply`] of
/// [`Outcome::ok`] or [`Outcome::failed`], without the value's text made apart.
pub fn write_value_reply(key: &CallKey, tag: &str, value: &Value, capacity: usize) -> String {
    write_body_reply(key, tag, capacity, |out| value.write_canonical(out))
}

/// A `reply` notification whose outcome is `{"TAG": text}`, `text` being a
/// value's canonical text already made: the same line as
/// [`write_value_reply`] of that value.
pub fn write_text_reply(key: &CallKey, tag: &str, text: &str, capacity: usize) -> String {
    write_body_reply(key, tag, capacity, |out| out.push_str(text))
}

fn write_body_reply(key: &CallKey, tag: &str, capacity: usize, body: impl FnOnce(&mut String)) -> String {
    let mut out = String::with_capacity(capacity);
    out.push_str("{\"jsonrpc\":\"2.0\",\"method\":\"reply\",\"params\":{");
    pair_members(&mut out, key);
    out.push_str(",\"outcome\":{\"");
    out.push_str(tag);
    out.push_str("\":");
    body(&mut out);
    out.push('}');
    run_member(&mut out, key);
    out.push_str("}}\n");
    out
}

/// A `reply` notification.
pub fn write_reply(key: &CallKey, outcome: &Outcome) -> String {
    let mut out = String::from("{\"jsonrpc\":\"2.0\",\"method\":\"reply\",\"params\":{");
    pair_members(&mut out, key);
    out.push_str(",\"outcome\":");
    outcome.write(&mut out);
    run_member(&mut out, key);
    out.push_str("}}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Incoming {
        parse_line(text.as_bytes(), &Limits::default())
    }

    fn refused(text: &str) -> (Json, i64) {
        match parse(text) {
            Incoming::Refuse { id, code, .. } => (id, code),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn num(n: i64) -> Json {
        Json::Number(flow_core::Number::from_i64(n))
    }

    #[test]
    fn every_written_line_reads_back_and_is_canonical() {
        let key = CallKey::new("r\n1", "c/2");
        let lines = [
            write_describe_request(7),
            write_result(&num(7), &Json::object([("data", Json::str("0.1")), ("tools", Json::Array(vec![]))])),
            write_error(&Json::Null, PARSE_ERROR, "Parse error"),
            write_call(&key, "a.flow.t", r#"{"x":1}"#, None),
            write_call(
                &key,
                "a.flow.t",
                r#"{"x":1}"#,
                Some((&Json::object([("type", Json::str("integer"))]), &Json::Null)),
            ),
            write_cancel(&key),
            write_reply(&key, &Outcome::Ok("[1]".into())),
        ];
        for line in &lines {
            assert!(line.ends_with('\n') && line.matches('\n').count() == 1, "{line}");
            let body = line.trim_end_matches('\n');
            assert_eq!(json::canonicalize(body.as_bytes(), &Limits::default()).unwrap(), body);
        }
        assert_eq!(parse(&lines[0]), Incoming::Describe { id: num(7) });
        assert!(matches!(parse(&lines[1]), Incoming::Response { result: Ok(_), .. }));
        assert!(matches!(parse(&lines[2]), Incoming::Response { result: Err(RpcError { code: PARSE_ERROR, .. }), .. }));
        match parse(&lines[3]) {
            Incoming::Call(c) => {
                assert_eq!((c.key, c.tool.as_str(), c.schema, c.types), (key.clone(), "a.flow.t", None, None));
            }
            other => panic!("{other:?}"),
        }
        match parse(&lines[4]) {
            Incoming::Call(c) => assert_eq!(c.types, Some(Json::Null)),
            other => panic!("{other:?}"),
        }
        assert_eq!(parse(&lines[5]), Incoming::Cancel(key.clone()));
        assert!(matches!(parse(&lines[6]), Incoming::Reply(ReplyMessage { key: k, .. }) if k == key));
    }

    #[test]
    fn json_rpc_refusals() {
        assert_eq!(refused("not json"), (Json::Null, PARSE_ERROR));
        assert_eq!(refused(""), (Json::Null, PARSE_ERROR));
        assert_eq!(refused(r#"{"jsonrpc":"2.0","id":1,"method":"describe","id":2}"#), (Json::Null, PARSE_ERROR));
        assert_eq!(refused("[1,2]"), (Json::Null, INVALID_REQUEST));
        assert_eq!(refused(r#"{"jsonrpc":"1.0","id":3,"method":"describe"}"#), (num(3), INVALID_REQUEST));
        assert_eq!(refused(r#"{"jsonrpc":"2.0","id":3,"method":"describe","extra":1}"#), (num(3), INVALID_REQUEST));
        assert_eq!(refused(r#"{"jsonrpc":"2.0","id":[],"method":"describe"}"#), (Json::Null, INVALID_REQUEST));
        assert_eq!(refused(r#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#), (Json::str("a"), METHOD_NOT_FOUND));
        assert_eq!(
            refused(r#"{"jsonrpc":"2.0","id":"a","method":"describe","params":{"x":1}}"#),
            (Json::str("a"), INVALID_PARAMS)
        );
        assert_eq!(parse(r#"{"jsonrpc":"2.0","id":null,"method":"describe"}"#), Incoming::Describe { id: Json::Null });
    }

    #[test]
    fn unknown_notifications_and_pairless_calls_are_only_logged() {
        assert!(
            matches!(parse(r#"{"jsonrpc":"2.0","method":"progress","params":{}}"#), Incoming::Ignore(m) if m.contains("unknown notification"))
        );
        assert!(
            matches!(parse(r#"{"jsonrpc":"2.0","method":"call","params":{"call":"c","tool":"t","args":{}}}"#), Incoming::Ignore(m) if m.contains("$.params.run"))
        );
        assert!(matches!(
            parse(r#"{"jsonrpc":"2.0","method":"call","params":{"run":1,"call":"c"}}"#),
            Incoming::Ignore(_)
        ));
    }

    #[test]
    fn bad_calls_name_path_and_rule() {
        let reason = |text: &str| match parse(text) {
            Incoming::BadCall { key, reason } => {
                assert_eq!(key, CallKey::new("r", "c"));
                reason
            }
            other => panic!("{other:?}"),
        };
        let base = r#"{"jsonrpc":"2.0","method":"call","params":{"run":"r","call":"c""#;
        assert_eq!(reason(&format!("{base},\"args\":{{}}}}}}")), "$.params.tool: missing [missing-field]");
        assert_eq!(
            reason(&format!("{base},\"tool\":\"t\",\"args\":[]}}}}")),
            "$.params.args: expected an object, found an array [type]"
        );
        assert_eq!(
            reason(&format!("{base},\"tool\":\"t\",\"args\":{{}},\"x\":1}}}}")),
            "$.params.x: unknown member of a call [shape]"
        );
        // Past a limit: no tree, but the pair is found.
        let deep = format!("{base},\"tool\":\"t\",\"args\":{{\"v\":{}{}}}}}}}", "[".repeat(200), "]".repeat(200));
        assert!(reason(&deep).ends_with("[too-deep]"));
    }

    #[test]
    fn oversized_lines_are_attributed_without_a_tree() {
        let limits = Limits { max_bytes: 64, ..Limits::default() };
        let line = format!(
            r#"{{"jsonrpc":"2.0","method":"reply","params":{{"call":"c","outcome":{{"Ok":"{}"}},"run":"r"}}}}"#,
            "x".repeat(100)
        );
        match parse_line(line.as_bytes(), &limits) {
            Incoming::BadReply { key, reason } => {
                assert_eq!(key, CallKey::new("r", "c"));
                assert!(reason.ends_with("[too-large]"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            too_long(1 << 40, Skim::default(), &limits),
            Incoming::Refuse {
                id: Json::Null,
                code: PARSE_ERROR,
                message: "Parse error: $: the message is 1099511627776 bytes, more than the limit of 64 [too-large]"
                    .to_owned()
            }
        );
    }

    #[test]
    fn malformed_replies_are_bad_replies() {
        let base = r#"{"jsonrpc":"2.0","method":"reply","params":{"run":"r","call":"c""#;
        assert!(
            matches!(parse(&format!("{base}}}}}")), Incoming::BadReply { reason, .. } if reason.contains("$.params.outcome"))
        );
        assert!(matches!(parse(&format!("{base},\"outcome\":{{\"Ok\":1}},\"more\":1}}}}")), Incoming::BadReply { .. }));
    }

    #[test]
    fn a_reply_with_a_malformed_envelope_is_a_bad_reply_for_its_call() {
        let params = r#""params":{"call":"c","outcome":{"Ok":1},"run":"r""#;
        let cases = [
            (
                format!(r#"{{"id":null,"jsonrpc":"2.0","method":"reply",{params}}}}}"#),
                "$.id: a reply is a notification",
            ),
            (format!(r#"{{"id":7,"jsonrpc":"2.0","method":"reply",{params}}}}}"#), "$.id: a reply is a notification"),
            (format!(r#"{{"jsonrpc":"1.0","method":"reply",{params}}}}}"#), "$.jsonrpc: jsonrpc must be \"2.0\""),
            (format!(r#"{{"method":"reply",{params}}}}}"#), "$.jsonrpc: jsonrpc must be \"2.0\""),
            (
                format!(r#"{{"extra":1,"jsonrpc":"2.0","method":"reply",{params}}}}}"#),
                "$.extra: unknown member of a reply's envelope",
            ),
        ];
        for (line, why) in cases {
            match parse(&line) {
                Incoming::BadReply { key, reason } => {
                    assert_eq!(key, CallKey::new("r", "c"), "{line}");
                    assert!(reason.starts_with(&format!("malformed envelope: {why}")), "{line}: {reason}");
                    assert!(reason.ends_with("[shape]"), "{reason}");
                }
                other => panic!("{line}: {other:?}"),
            }
        }
        // A well-formed reply is still a reply.
        assert!(matches!(parse(&format!(r#"{{"jsonrpc":"2.0","method":"reply",{params}}}}}"#)), Incoming::Reply(_)));
    }
}
