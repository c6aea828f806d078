//! JSON-RPC 2.0 as MCP uses it over stdio: one message per line, requests,
//! notifications and responses in both directions.
//!
//! Reading never fails and never panics: every line from a peer, however
//! hostile, becomes a [`Message`], and what cannot be one is
//! [`Message::Invalid`] with the reason and, where one can be found, the id it
//! carried, so that a response too large or too broken to read still reaches
//! the call it answers. Lines are read under the same JSON rules and limits as
//! every other text this library reads (`decisions.md` section 2).
//!
//! Reading is lenient where MCP peers differ and nothing depends on it: an
//! envelope member JSON-RPC does not name is ignored, and so is the `data` of
//! an error beyond keeping it. Writing is canonical text (keys sorted, no
//! whitespace), which is one line because control characters are escaped.

use flow_core::json::{self, Json, Object};
use flow_core::limits::Limits;
use flow_protocol::Frame;
use flow_protocol::Skim;

/// JSON-RPC: the line is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the JSON is not a request.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: no such method.
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC: the method's params are wrong.
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC: the receiver failed.
pub const INTERNAL_ERROR: i64 = -32603;

/// An error response's `error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    /// The JSON-RPC error code.
    pub code: i64,
    /// The error's message.
    pub message: String,
    /// The error's `data` member, when it has one.
    pub data: Option<Json>,
}

impl RpcError {
    /// An error with `code` and `message`, without `data`.
    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError { code, message: message.into(), data: None }
    }

    /// The error object as JSON-RPC writes it.
    pub fn to_json(&self) -> Json {
        let mut o = Object::new();
        o.insert("code", Json::Number(flow_core::Number::from_i64(self.code)));
        o.insert("message", Json::str(self.message.as_str()));
        if let Some(data) = &self.data {
            o.insert("data", data.clone());
        }
        Json::Object(o)
    }

    fn from_json(json: Json) -> Result<RpcError, String> {
        let Json::Object(mut o) = json else { return Err(format!("error is {}, not an object", json.kind_name())) };
        let code = match o.remove("code") {
            Some(Json::Number(n)) => {
                n.to_bigint().and_then(|c| i64::try_from(c).ok()).ok_or("error.code is not a 64-bit integer")?
            }
            _ => return Err("error.code is missing or not a number".to_owned()),
        };
        let message = match o.remove("message") {
            Some(Json::String(m)) => m,
            _ => return Err("error.message is missing or not a string".to_owned()),
        };
        Ok(RpcError { code, message, data: o.remove("data") })
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error {}: {}", self.code, self.message)
    }
}

/// What one line is.
#[derive(Debug, Clone, PartialEq)]
pub enum Message {
    /// A request: answer it with a result or an error.
    Request {
        /// The request's id, echoed in the answer.
        id: Json,
        /// The method called.
        method: String,
        /// The method's params, when present.
        params: Option<Json>,
    },
    /// A notification: nothing to answer.
    Notification {
        /// The method notified.
        method: String,
        /// The method's params, when present.
        params: Option<Json>,
    },
    /// A response to one of our requests.
    Response {
        /// The id of the request this answers.
        id: Json,
        /// The result, or the error the peer answered with.
        result: Result<Json, RpcError>,
    },
    /// Not a JSON-RPC message. `id` is the id it carried, when one could be
    /// found: the member itself, or a top-level string id found by a scan of
    /// a line that could not be read.
    Invalid {
        /// The id found, if any.
        id: Option<Json>,
        /// Why the line is not a JSON-RPC message.
        why: String,
    },
}

/// Reads one frame from a [`flow_protocol::LineReader`]; `None`
/// for an unterminated tail, which a peer that ended mid-line leaves and which
/// is no message.
pub(crate) fn read_frame(frame: Frame, limits: &Limits) -> Option<Message> {
    match frame {
        Frame::Line(line) => Some(read(&line, limits)),
        Frame::TooLong { length, skim } => Some(Message::Invalid {
            id: skim.id.map(Json::String),
            why: format!(
                "a line of {length} bytes, more than the message size limit of {} [too-large]",
                limits.max_bytes
            ),
        }),
        Frame::Unterminated(_) => None,
    }
}

/// Reads one line (without its `\n`).
pub fn read(line: &[u8], limits: &Limits) -> Message {
    match json::parse(line, limits) {
        Ok(json) => message(json),
        Err(e) => {
            Message::Invalid { id: Skim::of(line).id.map(Json::String), why: format!("not a readable JSON text: {e}") }
        }
    }
}

/// What a JSON text already read is.
pub(crate) fn message(json: Json) -> Message {
    let Json::Object(mut o) = json else {
        return Message::Invalid {
            id: None,
            why: format!("a message is a JSON-RPC 2.0 object, not {}", json.kind_name()),
        };
    };
    let id = o.remove("id");
    let invalid = |why: String| Message::Invalid {
        id: id.clone().filter(|id| matches!(id, Json::String(_) | Json::Number(_))),
        why,
    };
    match o.remove("jsonrpc") {
        Some(Json::String(v)) if v == "2.0" => {}
        _ => return invalid("jsonrpc is not \"2.0\"".to_owned()),
    }
    let params = match o.remove("params") {
        p @ (None | Some(Json::Object(_) | Json::Array(_))) => p,
        Some(other) => return invalid(format!("params is {}, not an object or array", other.kind_name())),
    };
    match (o.remove("method"), id.clone()) {
        (Some(Json::String(method)), None) => Message::Notification { method, params },
        (Some(Json::String(method)), Some(id @ (Json::String(_) | Json::Number(_)))) => {
            Message::Request { id, method, params }
        }
        (Some(Json::String(_)), Some(other)) => {
            invalid(format!("a request's id is {}, not a string or number", other.kind_name()))
        }
        (Some(other), _) => invalid(format!("method is {}, not a string", other.kind_name())),
        (None, Some(id)) => match (o.remove("result"), o.remove("error")) {
            (Some(result), None) => Message::Response { id, result: Ok(result) },
            (None, Some(error)) => match RpcError::from_json(error) {
                Ok(error) => Message::Response { id, result: Err(error) },
                Err(why) => invalid(format!("a malformed error response: {why}")),
            },
            (Some(_), Some(_)) => invalid("a response with both result and error".to_owned()),
            (None, None) => invalid("a response with neither result nor error".to_owned()),
        },
        (None, None) => invalid("neither a request, a notification nor a response".to_owned()),
    }
}

fn envelope(members: Vec<(&str, Json)>) -> String {
    let mut o = Object::new();
    o.insert("jsonrpc", Json::str("2.0"));
    for (k, v) in members {
        o.insert(k, v);
    }
    let mut out = Json::Object(o).to_canonical();
    out.push('\n');
    out
}

/// A request line.
pub fn write_request(id: &Json, method: &str, params: Json) -> String {
    envelope(vec![("id", id.clone()), ("method", Json::str(method)), ("params", params)])
}

/// A notification line; `params` left out when `None`.
pub(crate) fn write_notification(method: &str, params: Option<Json>) -> String {
    let mut members = vec![("method", Json::str(method))];
    if let Some(params) = params {
        members.push(("params", params));
    }
    envelope(members)
}

/// A result response line.
pub fn write_result(id: &Json, result: Json) -> String {
    write_result_with(id, |out| json::write_canonical(out, &result))
}

/// A result response line whose result `write` appends as canonical text:
/// the envelope written in place, with no tree holding a copy of the result.
pub(crate) fn write_result_with(id: &Json, write: impl FnOnce(&mut String)) -> String {
    // The members in canonical order: id, jsonrpc, result.
    let mut out = String::with_capacity(256);
    out.push_str("{\"id\":");
    json::write_canonical(&mut out, id);
    out.push_str(",\"jsonrpc\":\"2.0\",\"result\":");
    write(&mut out);
    out.push_str("}\n");
    out
}

/// An error response line.
pub fn write_error(id: &Json, error: &RpcError) -> String {
    envelope(vec![("id", id.clone()), ("error", error.to_json())])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(text: &str) -> Message {
        read(text.as_bytes(), &Limits::default())
    }

    fn n(v: i64) -> Json {
        Json::Number(flow_core::Number::from_i64(v))
    }

    #[test]
    fn a_result_line_is_the_canonical_envelope() {
        let result = Json::object([("z", n(1)), ("a", Json::str("\u{1}\""))]);
        for id in [n(7), Json::str("c\"1"), Json::Null] {
            let tree = envelope(vec![("id", id.clone()), ("result", result.clone())]);
            assert_eq!(write_result(&id, result.clone()), tree);
        }
    }

    #[test]
    fn written_lines_read_back() {
        let params = Json::object([("name", Json::str("a\nb"))]);
        let line = write_request(&Json::str("c1"), "tools/call", params.clone());
        assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
        assert_eq!(
            read_str(line.trim_end()),
            Message::Request { id: Json::str("c1"), method: "tools/call".into(), params: Some(params) }
        );
        let line = write_notification("notifications/initialized", None);
        assert_eq!(line, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        assert_eq!(
            read_str(line.trim_end()),
            Message::Notification { method: "notifications/initialized".into(), params: None }
        );
        let error = RpcError { code: -32601, message: "Method not found".into(), data: Some(Json::Null) };
        assert_eq!(read_str(write_error(&n(3), &error).trim_end()), Message::Response { id: n(3), result: Err(error) });
        assert_eq!(
            read_str(write_result(&n(4), Json::Null).trim_end()),
            Message::Response { id: n(4), result: Ok(Json::Null) }
        );
    }

    #[test]
    fn anything_else_is_invalid_with_its_id_where_one_is_found() {
        let invalid = |text: &str| match read_str(text) {
            Message::Invalid { id, why } => (id, why),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(invalid("not json").0, None);
        assert_eq!(invalid("[1]").0, None);
        // Unreadable (a duplicate key), but a scan finds the string id.
        let (id, why) = invalid(r#"{"id":"c1","result":{"a":1,"a":2},"jsonrpc":"2.0"}"#);
        assert_eq!(id, Some(Json::str("c1")));
        assert!(why.contains("[duplicate-key]"), "{why}");
        assert_eq!(
            invalid(r#"{"id":"c1","result":1,"error":{"code":1,"message":"m"},"jsonrpc":"2.0"}"#).0,
            Some(Json::str("c1"))
        );
        assert_eq!(invalid(r#"{"id":2,"jsonrpc":"2.0"}"#).0, Some(n(2)));
        assert!(invalid(r#"{"id":2,"error":{"code":1.5,"message":"m"},"jsonrpc":"2.0"}"#).1.contains("error.code"));
        assert!(invalid(r#"{"id":2,"result":1,"jsonrpc":"1.0"}"#).1.contains("jsonrpc"));
        assert_eq!(invalid(r#"{"id":[],"method":"ping","jsonrpc":"2.0"}"#).0, None);
        let long = Frame::TooLong { length: 99, skim: Skim { id: Some("c9".into()), ..Skim::default() } };
        assert!(
            matches!(read_frame(long, &Limits::default()), Some(Message::Invalid { id: Some(Json::String(c)), .. }) if c == "c9")
        );
        assert_eq!(read_frame(Frame::Unterminated(b"{".to_vec()), &Limits::default()), None);
    }

    #[test]
    fn unknown_envelope_members_are_ignored() {
        let m = read_str(r#"{"jsonrpc":"2.0","id":1,"result":{},"extra":true}"#);
        assert!(matches!(m, Message::Response { result: Ok(_), .. }));
    }
}
