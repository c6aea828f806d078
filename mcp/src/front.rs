//! The MCP front: a Tool process's Tools served to MCP clients over stdio,
//! sans-IO like the [`ServerCore`] it wraps, and driven the same way.
//!
//! ```text
//!   line ──► McpFront::receive ──► Vec<Event>
//!            │ JSON-RPC, read without ever failing (jsonrpc)
//!            │ the era: initialize + initialized, or the 2026-07-28 _meta
//!            │ tools/list from the declarations (tools, schemas)
//!            │ tools/call: arguments decoded (arguments), else an isError
//!            │            NotRun; then the core starts the call
//!            │ notifications/cancelled: the call's token
//!            ▼
//!   Event::Write / Start / Cancel / Log, as the Flow front sends them
//!
//!   handler returns ──► McpFront::finish ──► the tools/call response
//!                       (checked by the core, written by outcome::call_result;
//!                        none for a cancelled request)
//! ```
//!
//! A call starts as the same [`Event::Start`] a Flow call does, so every
//! toolkit's handler dispatch serves MCP unchanged; only the reply differs.
//! The core keeps the running calls, their cancel tokens and the checks of
//! each handler's result. The call's key is run `mcp` and call the request
//! id's canonical text (`7`, `"c1"`): what the handler sees as its ids.
//!
//! # The era, decided by the first request
//!
//! As the Python SDK's server does: `initialize` opens the handshake era (the
//! version answered is the one asked for when it is a handshake version this
//! server knows, else the newest); a request whose `params._meta` carries
//! `io.modelcontextprotocol/protocolVersion` opens the 2026-07-28 era, where
//! every request carries that envelope and every result `resultType`. A
//! request of the other era is then refused (`initialize` on a modern
//! connection with -32022 naming the version served), and so is any request
//! before either (-32600 saying what to send). `ping` is answered always.
//!
//! # Decided where MCP leaves room
//!
//! - An unknown tool, and arguments that do not decode, are `isError`
//!   results (NotRun, with the path and rule), as both SDKs answer them; a
//!   `tools/call` whose params are no `{name, arguments}` is -32602.
//! - A request id that is already running is -32600: JSON-RPC ids are unique
//!   among outstanding requests, and the core keys calls by them.
//! - `tools/list` pages hold `DEFAULT_PAGE_SIZE` tools; the cursor is the
//!   index of the next tool, and any other cursor is -32602.
//! - A line that is no JSON is -32700, and one that is no request -32600,
//!   each with the request's id where one can be found, so that a client
//!   waiting on it hears back.
//! - A response whose line would pass the size limit is replaced by an
//!   `isError` Unknown saying so.

use std::collections::HashMap;

use flow_core::error::{Error, Path, Result};
use flow_core::json::{self, Json, Object};
use flow_core::limits::Limits;
use flow_core::Number;
use flow_protocol::message::CallKey;
use flow_protocol::server::{value_json, Event, GenericCall, HandlerResult, ServerCore};
use flow_protocol::Frame;
use flow_protocol::Skim;
use flow_protocol::{Front, FrontKind};

use super::arguments::decode_arguments;
use super::jsonrpc::{self, Message, RpcError, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};
use super::messages::{
    CallToolParams, CallToolResult, CancelledParams, Content, DiscoverResult, InitializeParams, InitializeResult,
    ListToolsResult,
};
use super::outcome::{call_result, write_ok_result};
use super::tools::{mcp_tools, McpTool};
use super::version::{
    Implementation, HANDSHAKE, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, META_SERVER_INFO, MODERN,
};

/// The run id of every MCP call: MCP has no runs.
pub(crate) const MCP_RUN: &str = "mcp";

/// Tools per `tools/list` page.
pub(crate) const DEFAULT_PAGE_SIZE: usize = 100;

/// MCP (2026-07-28): the protocol version a request asks for is not served.
pub(crate) const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// Which era the connection speaks.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Era {
    /// No request but `ping` yet.
    Undecided,
    /// `initialize` was answered with this version.
    Handshake(String),
    Modern,
}

/// A `tools/call` whose handler is running.
#[derive(Debug)]
struct Pending {
    /// The request's id, as the response carries it.
    id: Json,
    /// The MCP tool's index.
    tool: usize,
    /// The request carried the 2026-07-28 envelope: its result carries `resultType`.
    modern: bool,
    /// `notifications/cancelled` arrived: no response is sent.
    cancelled: bool,
}

/// The sans-IO MCP server of a [`ServerCore`]'s Tools.
pub struct McpFront {
    core: ServerCore,
    tools: Vec<McpTool>,
    by_name: HashMap<String, usize>,
    server: Implementation,
    era: Era,
    calls: HashMap<CallKey, Pending>,
    page_size: usize,
}

/// A request's answer: a result, or a JSON-RPC error.
type Answer = std::result::Result<Json, RpcError>;

fn invalid_params(message: impl Into<String>) -> RpcError {
    RpcError::new(INVALID_PARAMS, format!("Invalid params: {}", message.into()))
}

fn invalid_request(message: impl Into<String>) -> RpcError {
    RpcError::new(INVALID_REQUEST, format!("Invalid Request: {}", message.into()))
}

fn params_path() -> Path {
    Path::root().key("params")
}

impl McpFront {
    /// Serves `core`'s Tools to MCP clients. Refused when two of them share
    /// a NAME, or one has no MCP form (see `super::tools`).
    pub fn new(core: ServerCore) -> Result<McpFront> {
        let (tools, by_name) = mcp_tools(&core)?;
        Ok(McpFront {
            core,
            tools,
            by_name,
            server: Implementation { name: "flow-tool".to_owned(), version: env!("CARGO_PKG_VERSION").to_owned() },
            era: Era::Undecided,
            calls: HashMap::new(),
            page_size: DEFAULT_PAGE_SIZE,
        })
    }

    /// Names the server in `serverInfo` (by default `flow-tool` and this
    /// library's version).
    pub fn with_server_info(mut self, server: Implementation) -> McpFront {
        self.server = server;
        self
    }

    /// Changes how many tools a `tools/list` page holds (at least one).
    pub fn with_page_size(mut self, page_size: usize) -> McpFront {
        self.page_size = page_size.max(1);
        self
    }

    /// The wrapped core: the served Tools, the limits, the running calls.
    pub fn core(&self) -> &ServerCore {
        &self.core
    }

    /// The wrapped core, given back.
    pub fn into_core(self) -> ServerCore {
        self.core
    }

    /// Reads one frame from a [`flow_protocol::LineReader`]. A
    /// final line without its `\n` is read like any other.
    pub fn receive_frame(&mut self, frame: Frame) -> Vec<Event> {
        match frame {
            Frame::Line(line) | Frame::Unterminated(line) => self.receive(&line),
            Frame::TooLong { length, skim } => self.too_long(length, skim),
        }
    }

    /// Reads one line (without its `\n`).
    pub fn receive(&mut self, line: &[u8]) -> Vec<Event> {
        self.core.reading_line(line.len());
        let limits = *self.core.limits();
        if line.len() > limits.max_bytes {
            return self.too_long(line.len() as u64, Skim::of(line));
        }
        let json = match json::parse(line, &limits) {
            Ok(json) => json,
            Err(e) => {
                let id = Skim::of(line).id.map_or(Json::Null, Json::String);
                return refuse(&id, RpcError::new(PARSE_ERROR, format!("Parse error: {e}")));
            }
        };
        match jsonrpc::message(json) {
            Message::Request { id, method, params } => self.request(id, &method, params),
            Message::Notification { method, params } => self.notification(&method, params),
            Message::Response { id, .. } => {
                vec![Event::Log(format!(
                    "ignored a response (id {}): this server sends no requests",
                    id.to_canonical()
                ))]
            }
            Message::Invalid { id, why } => refuse(&id.unwrap_or(Json::Null), invalid_request(why)),
        }
    }

    fn too_long(&self, length: u64, skim: Skim) -> Vec<Event> {
        let why = format!(
            "a line of {length} bytes, more than the message size limit of {} [too-large]",
            self.core.limits().max_bytes
        );
        refuse(&skim.id.map_or(Json::Null, Json::String), RpcError::new(PARSE_ERROR, format!("Parse error: {why}")))
    }

    fn request(&mut self, id: Json, method: &str, params: Option<Json>) -> Vec<Event> {
        let modern = match envelope(&params) {
            Ok(modern) => modern,
            Err(e) => return refuse(&id, e),
        };
        let answer = match method {
            "ping" => Ok(Json::Object(Object::new())),
            "initialize" => self.initialize(params),
            _ => match self.enter(modern) {
                Err(e) => Err(e),
                Ok(()) => match method {
                    "server/discover" if modern => Ok(self.discover()),
                    "tools/list" => self.list(params, modern),
                    "tools/call" => return self.call(id, params, modern),
                    other => Err(RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {other:?}"))),
                },
            },
        };
        match answer {
            Ok(result) => vec![Event::Write(jsonrpc::write_result(&id, completed(result, modern)))],
            Err(e) => refuse(&id, e),
        }
    }

    /// Admits a request other than `initialize` and `ping` in the era it
    /// belongs to, deciding the era when it is the first.
    fn enter(&mut self, modern: bool) -> std::result::Result<(), RpcError> {
        match (&self.era, modern) {
            (Era::Modern, true) | (Era::Handshake(_), false) => Ok(()),
            (Era::Undecided, true) => {
                self.era = Era::Modern;
                Ok(())
            }
            (Era::Undecided, false) => Err(invalid_request(format!(
                "send initialize first (the handshake era), or carry params._meta with {META_PROTOCOL_VERSION:?} {MODERN:?} (the {MODERN} era)"
            ))),
            (Era::Modern, false) => Err(invalid_params(format!(
                "this connection serves the {MODERN} era: every request carries params._meta with {META_PROTOCOL_VERSION:?} and {META_CLIENT_CAPABILITIES:?}"
            ))),
            (Era::Handshake(version), true) => Err(invalid_request(format!(
                "this connection serves the handshake era ({version}, after initialize): a request with the {MODERN} envelope is not accepted on it"
            ))),
        }
    }

    fn initialize(&mut self, params: Option<Json>) -> Answer {
        let requested = params
            .as_ref()
            .and_then(Json::as_object)
            .and_then(|p| p.get("protocolVersion"))
            .and_then(Json::as_str)
            .map(str::to_owned);
        if self.era == Era::Modern {
            let mut data = Object::new();
            data.insert("supported", Json::Array(vec![Json::str(MODERN)]));
            if let Some(requested) = requested {
                data.insert("requested", Json::String(requested));
            }
            let message =
                format!("this connection serves the {MODERN} era: the initialize handshake is not accepted on it");
            return Err(RpcError { code: UNSUPPORTED_PROTOCOL_VERSION, message, data: Some(Json::Object(data)) });
        }
        let params = params.unwrap_or(Json::Null);
        let asked = InitializeParams::from_json(&params, &params_path()).map_err(|e| invalid_params(e.to_string()))?;
        let version = if HANDSHAKE.contains(&asked.protocol_version.as_str()) {
            asked.protocol_version
        } else {
            HANDSHAKE[0].to_owned()
        };
        self.era = Era::Handshake(version.clone());
        let result = InitializeResult {
            protocol_version: version,
            capabilities: capabilities(),
            server_info: Some(self.server.clone()),
            instructions: None,
        };
        Ok(result.to_json())
    }

    fn discover(&self) -> Json {
        let result = DiscoverResult {
            supported_versions: vec![MODERN.to_owned()],
            capabilities: capabilities(),
            instructions: None,
        }
        .to_json();
        let Json::Object(mut o) = result else { unreachable!("a discover result is an object") };
        o.insert("_meta", Json::object([(META_SERVER_INFO, self.server.to_json())]));
        Json::Object(o)
    }

    fn list(&self, params: Option<Json>, modern: bool) -> Answer {
        let cursor = match &params {
            None => None,
            Some(Json::Object(p)) => match p.get("cursor") {
                None | Some(Json::Null) => None,
                Some(Json::String(c)) => Some(c.as_str()),
                Some(other) => {
                    return Err(invalid_params(format!(
                        "$.params.cursor: expected a string, found {}",
                        other.kind_name()
                    )))
                }
            },
            Some(other) => {
                return Err(invalid_params(format!("$.params: expected an object, found {}", other.kind_name())))
            }
        };
        let start = match cursor {
            None => 0,
            Some(c) => match c.parse::<usize>() {
                Ok(start) if start > 0 && start < self.tools.len() && c == start.to_string() => start,
                _ => return Err(invalid_params(format!("$.params.cursor: {:?} is no cursor this server gave", c))),
            },
        };
        let end = (start + self.page_size).min(self.tools.len());
        let page = ListToolsResult {
            tools: self.tools[start..end].iter().map(|t| t.listed.clone()).collect(),
            next_cursor: (end < self.tools.len()).then(|| end.to_string()),
            skipped: Vec::new(),
        };
        let mut result = page.to_json();
        if let (Json::Object(o), true) = (&mut result, modern) {
            // A modern list is cacheable (`CacheableResult`): private, and
            // to be fetched again at will.
            o.insert("cacheScope", Json::str("private"));
            o.insert("ttlMs", Json::Number(Number::from_i64(0)));
        }
        Ok(result)
    }

    fn call(&mut self, id: Json, params: Option<Json>, modern: bool) -> Vec<Event> {
        let params = params.unwrap_or(Json::Null);
        let call = match CallToolParams::from_json(&params, &params_path()) {
            Ok(call) => call,
            Err(e) => return refuse(&id, invalid_params(e.to_string())),
        };
        let key = CallKey::new(MCP_RUN, id.to_canonical());
        if self.calls.contains_key(&key) {
            return refuse(&id, invalid_request(format!("a request with id {} is running", id.to_canonical())));
        }
        let answer = |result: CallToolResult| {
            vec![Event::Write(jsonrpc::write_result(&id, completed(result.to_json(), modern)))]
        };
        let not_run =
            |e: Error| answer(call_result(&flow_protocol::Outcome::NotRun(e.to_string()), false, &Limits::default()));
        let Some(&tool) = self.by_name.get(&call.name) else {
            return not_run(Error::at(
                params_path().key("name"),
                flow_core::Rule::Unresolved,
                format!("no tool is named {:?} ({})", call.name, self.offered()),
            ));
        };
        let mcp = &self.tools[tool];
        let args = match decode_arguments(call.arguments, &mcp.params, &mcp.types) {
            Ok(args) => args,
            Err(e) => return not_run(e),
        };
        let generic = match &mcp.generic {
            None => None,
            Some(json_view) => {
                let limits = self.core.limits();
                match args.iter().map(|v| value_json(v, limits)).collect::<Result<Vec<_>>>() {
                    Ok(args_json) => Some(GenericCall {
                        view: json_view.view.clone(),
                        schema: json_view.schema.clone(),
                        types: mcp.types.clone(),
                        args_json,
                    }),
                    Err(e) => return not_run(e),
                }
            }
        };
        let (index, types) = (mcp.index, mcp.types.clone());
        match self.core.start_decoded(key.clone(), index, args, generic, types) {
            Some(started) => {
                self.calls.insert(key, Pending { id, tool, modern, cancelled: false });
                vec![Event::Start(Box::new(started))]
            }
            // The core runs a call of this key that this front did not start:
            // none, since every key is made here; refused rather than trusted.
            None => refuse(&id, invalid_request(format!("a request with id {} is running", id.to_canonical()))),
        }
    }

    /// The names offered, for a refusal.
    fn offered(&self) -> String {
        let names: Vec<&str> = self.tools.iter().map(|t| t.listed.name.as_str()).collect();
        format!("the tools are: {}", names.join(", "))
    }

    fn notification(&mut self, method: &str, params: Option<Json>) -> Vec<Event> {
        match method {
            "notifications/cancelled" => {
                let params = params.unwrap_or(Json::Null);
                let cancelled = match CancelledParams::from_json(&params, &params_path()) {
                    Ok(c) => c,
                    Err(e) => return vec![Event::Log(format!("ignored notifications/cancelled: {e}"))],
                };
                let key = CallKey::new(MCP_RUN, cancelled.request_id.to_canonical());
                match self.calls.get_mut(&key) {
                    Some(pending) if !pending.cancelled => {
                        pending.cancelled = true;
                        self.core.cancel(&key);
                        vec![Event::Cancel(key)]
                    }
                    _ => vec![Event::Log(format!(
                        "ignored a cancel of request {}, which is not running",
                        cancelled.request_id.to_canonical()
                    ))],
                }
            }
            "notifications/initialized" => Vec::new(),
            other => vec![Event::Log(format!("ignored the notification {other:?}"))],
        }
    }

    /// The response of a started call whose handler returned: none for a
    /// request that was cancelled (MCP answers it with nothing), nor for one
    /// that is not running.
    pub fn finish(&mut self, key: &CallKey, result: HandlerResult) -> Vec<String> {
        let Some(outcome) = self.core.settle(key, result) else { return Vec::new() };
        let Some(pending) = self.calls.remove(key) else { return Vec::new() };
        if pending.cancelled {
            return Vec::new();
        }
        let limits = *self.core.limits();
        let wrapped = self.tools[pending.tool].wrapped;
        if let flow_protocol::Outcome::Ok(value) = &outcome {
            let mut written = false;
            let line = jsonrpc::write_result_with(&pending.id, |out| {
                written = write_ok_result(out, value, wrapped, pending.modern, &limits);
            });
            if written && flow_protocol::past_limit(&line, &limits).is_none() {
                return vec![line];
            }
        }
        let mut result = call_result(&outcome, wrapped, &limits);
        if pending.modern {
            // What `completed` adds to a modern result, set before writing it in place.
            result.result_type = Some("complete".to_owned());
        }
        let line = jsonrpc::write_result_with(&pending.id, |out| result.write_canonical(out));
        // The client reads under the same limits (size without the line's
        // ending, depth from the message's object): send nothing it refuses.
        let Some(fault) = flow_protocol::past_limit(&line, &limits) else { return vec![line] };
        let why = format!("Unknown: the result could not be sent: {fault}");
        let result = CallToolResult {
            content: vec![Content::Text(why)],
            structured_content: None,
            is_error: true,
            result_type: None,
        };
        vec![jsonrpc::write_result(&pending.id, completed(result.to_json(), pending.modern))]
    }

    /// Sets every running call's cancel token (for a driver shutting down).
    pub fn cancel_all(&self) {
        self.core.cancel_all();
    }
}

impl Front for McpFront {
    fn kind(&self) -> FrontKind {
        FrontKind::Mcp
    }

    fn core(&self) -> &ServerCore {
        McpFront::core(self)
    }

    fn into_core(self: Box<Self>) -> ServerCore {
        McpFront::into_core(*self)
    }

    fn receive(&mut self, line: &[u8]) -> Vec<Event> {
        McpFront::receive(self, line)
    }

    fn receive_frame(&mut self, frame: Frame) -> Vec<Event> {
        McpFront::receive_frame(self, frame)
    }

    fn finish(&mut self, key: &CallKey, result: HandlerResult) -> Vec<String> {
        McpFront::finish(self, key, result)
    }
}

/// `core` speaking `kind`: as is for the Flow protocol, wrapped in an
/// [`McpFront`] for MCP. Refused when the Tools cannot be served that way
/// (two MCP tools with one name).
pub fn front_for(core: ServerCore, kind: FrontKind) -> Result<Box<dyn Front>> {
    Ok(match kind {
        FrontKind::Flow => Box::new(core),
        FrontKind::Mcp => Box::new(McpFront::new(core)?),
    })
}

/// What a server offers: tools, whose list does not change while it runs.
fn capabilities() -> Json {
    Json::object([("tools", Json::object([("listChanged", Json::Bool(false))]))])
}

/// Whether a request carries the 2026-07-28 envelope, refused when it names
/// another version or lacks the client's capabilities. Only the version key
/// decides: handshake-era requests may carry `_meta` too (a progress token).
fn envelope(params: &Option<Json>) -> std::result::Result<bool, RpcError> {
    let meta = params.as_ref().and_then(Json::as_object).and_then(|p| p.get("_meta")).and_then(Json::as_object);
    let Some(version) = meta.and_then(|m| m.get(META_PROTOCOL_VERSION)) else { return Ok(false) };
    if version.as_str() != Some(MODERN) {
        let mut data = Object::new();
        data.insert("supported", Json::Array(vec![Json::str(MODERN)]));
        if let Some(requested) = version.as_str() {
            data.insert("requested", Json::str(requested));
        }
        return Err(RpcError {
            code: UNSUPPORTED_PROTOCOL_VERSION,
            message: format!(
                "Unsupported protocol version {}: this server serves {MODERN}, or a handshake version after initialize",
                version.to_canonical()
            ),
            data: Some(Json::Object(data)),
        });
    }
    match meta.and_then(|m| m.get(META_CLIENT_CAPABILITIES)) {
        Some(Json::Object(_)) => Ok(true),
        _ => Err(invalid_params(format!(
            "$.params._meta[{META_CLIENT_CAPABILITIES:?}]: expected the client's capabilities, an object [shape]"
        ))),
    }
}

/// A result of the modern era carries `resultType`: `complete`, since this
/// server never waits on its client.
fn completed(result: Json, modern: bool) -> Json {
    match result {
        Json::Object(mut o) if modern => {
            o.insert("resultType", Json::str("complete"));
            Json::Object(o)
        }
        other => other,
    }
}

fn refuse(id: &Json, error: RpcError) -> Vec<Event> {
    let log = Event::Log(format!("answered {error}"));
    vec![log, Event::Write(jsonrpc::write_error(id, &error))]
}

#[cfg(test)]
mod tests {
    //! The MCP front, line by line, with the weather listing: both eras, every
    //! method, refusals, cancels, and lines no client should send.

    use super::*;
    use flow_core::json::parse_str;
    use flow_core::types::parse::listing_from_text;
    use flow_core::value::Value;
    use flow_protocol::{CancelToken, StartedCall};

    const WEATHER: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");

    const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

    fn core() -> ServerCore {
        ServerCore::from_listing(&listing_from_text(WEATHER, &Limits::default()).unwrap()).unwrap()
    }

    fn front() -> McpFront {
        McpFront::new(core()).unwrap()
    }

    fn j(text: &str) -> Json {
        parse_str(text, &Limits::default()).unwrap()
    }

    /// The lines written, read back; every one is a single line of JSON.
    fn writes(events: &[Event]) -> Vec<Json> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Write(line) => {
                    assert!(line.ends_with('\n') && line.matches('\n').count() == 1, "{line:?}");
                    Some(j(line.trim_end()))
                }
                _ => None,
            })
            .collect()
    }

    fn one(events: &[Event]) -> Json {
        let lines = writes(events);
        assert_eq!(lines.len(), 1, "{events:?}");
        lines.into_iter().next().unwrap()
    }

    fn feed(front: &mut McpFront, line: &str) -> Vec<Event> {
        front.receive(line.as_bytes())
    }

    fn get<'a>(json: &'a Json, path: &[&str]) -> &'a Json {
        path.iter().fold(json, |at, key| {
            at.as_object().and_then(|o| o.get(key)).unwrap_or_else(|| panic!("no {key} in {}", at.to_canonical()))
        })
    }

    fn error_code(response: &Json) -> i64 {
        let Json::Number(n) = get(response, &["error", "code"]) else { panic!("{}", response.to_canonical()) };
        i64::try_from(n.to_bigint().unwrap()).unwrap()
    }

    fn started(events: Vec<Event>) -> StartedCall {
        let mut starts: Vec<StartedCall> = events
            .into_iter()
            .filter_map(|e| match e {
                Event::Start(call) => Some(*call),
                _ => None,
            })
            .collect();
        assert_eq!(starts.len(), 1);
        starts.remove(0)
    }

    fn handshake() -> McpFront {
        let mut front = front();
        let r = one(&feed(
            &mut front,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        ));
        assert_eq!(get(&r, &["result", "protocolVersion"]), &Json::str("2025-06-18"));
        assert!(feed(&mut front, r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).is_empty());
        front
    }

    fn tools_call(tool: &str, arguments: &str, id: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
        )
    }

    fn modern_call(tool: &str, arguments: &str, id: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments},{META}}}}}"#
        )
    }

    fn text_of(result: &Json) -> String {
        let content = get(result, &["result", "content"]).as_array().unwrap();
        assert_eq!(content.len(), 1, "{}", result.to_canonical());
        get(&content[0], &["text"]).as_str().unwrap().to_owned()
    }

    #[test]
    fn the_handshake_era_lists_and_calls() {
        let mut front = front();
        let r = one(&feed(
            &mut front,
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        ));
        assert_eq!(
            r.to_canonical(),
            format!(
                r#"{{"id":1,"jsonrpc":"2.0","result":{{"capabilities":{{"tools":{{"listChanged":false}}}},"protocolVersion":"2025-11-25","serverInfo":{{"name":"flow-tool","version":"{}"}}}}}}"#,
                env!("CARGO_PKG_VERSION")
            )
        );
        let list = one(&feed(&mut front, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#));
        let tools = get(&list, &["result", "tools"]).as_array().unwrap();
        let names: Vec<&str> = tools.iter().map(|t| get(t, &["name"]).as_str().unwrap()).collect();
        assert_eq!(names, ["get_forecast", "list_stations", "station_history", "echo"]);
        assert_eq!(get(&tools[0], &["description"]), &Json::str("Forecast for a city."));
        assert_eq!(get(&tools[0], &["inputSchema", "required"]), &j(r#"["city","days"]"#));
        assert!(get(&list, &["result"]).as_object().unwrap().get("resultType").is_none());
        assert!(get(&list, &["result"]).as_object().unwrap().get("nextCursor").is_none());

        // Units left out is None; a call starts as any Flow call does.
        let call = started(feed(&mut front, &tools_call("get_forecast", r#"{"city":"Oslo","days":2}"#, "\"c1\"")));
        assert_eq!(call.key, CallKey::new("mcp", "\"c1\""));
        assert_eq!(call.args, [Value::Text("Oslo".into()), Value::Int(2.into()), Value::none()]);
        assert!(call.generic.is_none());
        let forecast = j(r#"{"city":"Oslo","days":[],"issued":"2026-01-01T00:00:00Z","tags":[]}"#);
        let lines = front.finish(&call.key, HandlerResult::OkJson(forecast.clone()));
        let r = one(&lines.iter().map(|l| Event::Write(l.clone())).collect::<Vec<_>>());
        assert_eq!(get(&r, &["id"]), &Json::str("c1"));
        assert_eq!(get(&r, &["result", "structuredContent"]), &forecast);
        assert_eq!(j(&text_of(&r)), forecast);
        assert!(get(&r, &["result"]).as_object().unwrap().get("isError").is_none());
        // Finished: a second finish writes nothing.
        assert!(front.finish(&call.key, HandlerResult::Error("again".into())).is_empty());
    }

    #[test]
    fn the_modern_era_carries_its_envelope_and_result_type() {
        let mut front = front();
        let r = one(&feed(
            &mut front,
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#),
        ));
        let result = get(&r, &["result"]);
        assert_eq!(get(result, &["supportedVersions"]), &j(r#"["2026-07-28"]"#));
        assert_eq!(get(result, &["resultType"]), &Json::str("complete"));
        assert_eq!(get(result, &["ttlMs"]), &j("0"));
        assert_eq!(get(result, &["_meta", "io.modelcontextprotocol/serverInfo", "name"]), &Json::str("flow-tool"));
        let list =
            one(&feed(&mut front, &format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{{META}}}}}"#)));
        for (member, value) in [("resultType", "\"complete\""), ("cacheScope", "\"private\""), ("ttlMs", "0")] {
            assert_eq!(get(&list, &["result", member]), &j(value));
        }
        let call = started(feed(
            &mut front,
            &modern_call(
                "station_history",
                r#"{"station":7,"since":"2026-01-01T00:00:00+01:00","window":"PT0.5S","counts":[[1,2]]}"#,
                "3",
            ),
        ));
        assert_eq!(call.key, CallKey::new("mcp", "3"));
        let r = one(&front
            .finish(&call.key, HandlerResult::OkJson(j(r#"[["2026-01-01T00:00:00Z",1.5]]"#)))
            .into_iter()
            .map(Event::Write)
            .collect::<Vec<_>>());
        assert_eq!(get(&r, &["result", "resultType"]), &Json::str("complete"));
        // Not an object: wrapped, in the text block too.
        assert_eq!(
            get(&r, &["result", "structuredContent"]).to_canonical(),
            r#"{"result":[["2026-01-01T00:00:00Z",1.5]]}"#
        );
        assert_eq!(text_of(&r), r#"{"result":[["2026-01-01T00:00:00Z",1.5]]}"#);
        // A refusal in the modern era is a complete result too.
        let r = one(&feed(&mut front, &modern_call("get_forecast", r#"{"city":"Oslo"}"#, "4")));
        assert_eq!(get(&r, &["result", "resultType"]), &Json::str("complete"));
        assert_eq!(get(&r, &["result", "isError"]), &Json::Bool(true));
    }

    #[test]
    fn each_era_refuses_the_other_and_requests_before_either() {
        let mut undecided = front();
        let r = one(&feed(&mut undecided, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#));
        assert_eq!(error_code(&r), INVALID_REQUEST);
        assert!(get(&r, &["error", "message"]).as_str().unwrap().contains("send initialize first"));
        // ping is answered in any state, and decides nothing.
        assert_eq!(
            one(&feed(&mut undecided, r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)).to_canonical(),
            r#"{"id":2,"jsonrpc":"2.0","result":{}}"#
        );
        assert_eq!(
            error_code(&one(&feed(&mut undecided, r#"{"jsonrpc":"2.0","id":3,"method":"server/discover"}"#))),
            INVALID_REQUEST
        );

        let mut handshake = handshake();
        let r = one(&feed(
            &mut handshake,
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#),
        ));
        assert_eq!(error_code(&r), INVALID_REQUEST);
        // A handshake request may carry _meta of its own (a progress token).
        let r = one(&feed(
            &mut handshake,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"progressToken":1}}}"#,
        ));
        assert!(get(&r, &["result", "tools"]).as_array().is_some());
        assert_eq!(
            error_code(&one(&feed(&mut handshake, r#"{"jsonrpc":"2.0","id":3,"method":"server/discover"}"#))),
            METHOD_NOT_FOUND
        );

        let mut modern = front();
        let _ =
            feed(&mut modern, &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#));
        let r = one(&feed(
            &mut modern,
            r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        ));
        assert_eq!(error_code(&r), UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(
            get(&r, &["error", "data"]).to_canonical(),
            r#"{"requested":"2025-11-25","supported":["2026-07-28"]}"#
        );
        assert_eq!(
            error_code(&one(&feed(&mut modern, r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#))),
            INVALID_PARAMS
        );
        let r = one(&feed(
            &mut modern,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2027-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        ));
        assert_eq!(error_code(&r), UNSUPPORTED_PROTOCOL_VERSION);
        assert_eq!(get(&r, &["error", "data", "requested"]), &Json::str("2027-01-01"));
        let r = one(&feed(
            &mut modern,
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
        ));
        assert_eq!(error_code(&r), INVALID_PARAMS);
        assert!(get(&r, &["error", "message"]).as_str().unwrap().contains("clientCapabilities"));
        assert_eq!(
            error_code(&one(&feed(
                &mut modern,
                &format!(r#"{{"jsonrpc":"2.0","id":6,"method":"resources/list","params":{{{META}}}}}"#)
            ))),
            METHOD_NOT_FOUND
        );
    }

    #[test]
    fn refusals_are_error_results_naming_the_path_and_rule() {
        let mut front = handshake();
        let not_run = |front: &mut McpFront, line: &str| {
            let r = one(&feed(front, line));
            assert_eq!(get(&r, &["result", "isError"]), &Json::Bool(true), "{}", r.to_canonical());
            assert!(get(&r, &["result"]).as_object().unwrap().get("structuredContent").is_none());
            text_of(&r)
        };
        assert_eq!(
            not_run(&mut front, &tools_call("get_forecast", r#"{"city":"Oslo","days":"two"}"#, "1")),
            "NotRun: $.params.arguments.days: expected an Int (a number), found a string [type]"
        );
        assert_eq!(
            not_run(&mut front, &tools_call("get_forecast", r#"{"days":2}"#, "2")),
            "NotRun: $.params.arguments.city: missing argument [missing-field]"
        );
        assert_eq!(
            not_run(&mut front, &tools_call("get_forecast", r#"{"city":"Oslo","days":2,"unit":"Metric"}"#, "3")),
            "NotRun: $.params.arguments.unit: not a parameter of the Tool [shape]"
        );
        // The protocol's own Option encoding is not the MCP reading.
        assert!(not_run(
            &mut front,
            &tools_call("get_forecast", r#"{"city":"Oslo","days":2,"units":{"Some":"Metric"}}"#, "4")
        )
        .starts_with("NotRun: $.params.arguments.units: "));
        assert_eq!(
            not_run(&mut front, &tools_call("forecast", "{}", "5")),
            "NotRun: $.params.name: no tool is named \"forecast\" (the tools are: get_forecast, list_stations, station_history, echo) [unresolved]"
        );
        // The strict rules of decoding, here too: a duplicate key anywhere refuses the line.
        let r = one(&feed(
            &mut front,
            r#"{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"name":"echo","arguments":{"value":{"a":1,"a":2}}}}"#,
        ));
        assert_eq!(error_code(&r), PARSE_ERROR);
        assert_eq!(get(&r, &["id"]), &Json::str("d"));
        // Params that are no tools/call params are a protocol error.
        assert_eq!(
            error_code(&one(&feed(
                &mut front,
                r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"arguments":{}}}"#
            ))),
            INVALID_PARAMS
        );
        assert_eq!(
            error_code(&one(&feed(
                &mut front,
                r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":[]}}"#
            ))),
            INVALID_PARAMS
        );
        assert_eq!(
            error_code(&one(&feed(&mut front, r#"{"jsonrpc":"2.0","id":8,"method":"tools/call"}"#))),
            INVALID_PARAMS
        );
        // Nothing started.
        assert_eq!(front.core().running(), 0);
    }

    #[test]
    fn the_declared_error_and_other_outcomes() {
        let mut front = handshake();
        let call = started(feed(
            &mut front,
            &tools_call("get_forecast", r#"{"city":"Nowhere","days":1,"units":"Imperial"}"#, "1"),
        ));
        assert_eq!(
            call.args[2],
            Value::some(Value::Enum(flow_core::value::EnumValue {
                index: 1,
                name: "Imperial".into(),
                payload: flow_core::value::EnumPayload::None
            }))
        );
        let error = j(r#"{"UnknownCity":{"query":"Nowhere","suggestions":["Oslo"]}}"#);
        let r = one(&front
            .finish(&call.key, HandlerResult::FailedJson(error.clone()))
            .into_iter()
            .map(Event::Write)
            .collect::<Vec<_>>());
        assert_eq!(get(&r, &["result", "isError"]), &Json::Bool(true));
        assert_eq!(j(&text_of(&r)), error);
        assert!(get(&r, &["result"]).as_object().unwrap().get("structuredContent").is_none());

        let finish = |front: &mut McpFront, id: &str, result: HandlerResult| {
            let call = started(feed(front, &tools_call("get_forecast", r#"{"city":"Oslo","days":1}"#, id)));
            let r = one(&front.finish(&call.key, result).into_iter().map(Event::Write).collect::<Vec<_>>());
            assert_eq!(get(&r, &["result", "isError"]), &Json::Bool(true));
            text_of(&r)
        };
        assert_eq!(
            finish(&mut front, "2", HandlerResult::Error("it broke".into())),
            "Unknown: the handler failed: it broke"
        );
        assert_eq!(
            finish(&mut front, "3", HandlerResult::NotRun("the toolkit refused".into())),
            "NotRun: the toolkit refused"
        );
        // A result not of the declared type is Unknown, as in the Flow protocol.
        assert!(finish(&mut front, "4", HandlerResult::OkJson(j("7")))
            .starts_with("Unknown: the handler's result is not of the declared type: "));
    }

    #[test]
    fn a_generic_tool_takes_any_json() {
        let mut front = handshake();
        let call = started(feed(&mut front, &tools_call("echo", r#"{"value":{"b":[1,2.50],"a":null}}"#, "1")));
        let generic = call.generic.as_ref().unwrap();
        assert_eq!(
            generic.view.bindings,
            [("T".to_owned(), flow_core::types::Term::Prim(flow_core::types::Prim::JsonValue))]
        );
        assert_eq!(generic.schema, j("{}"));
        assert_eq!(generic.args_json, [j(r#"{"a":null,"b":[1,2.5]}"#)]);
        let r = one(&front
            .finish(&call.key, HandlerResult::OkJson(generic.args_json[0].clone()))
            .into_iter()
            .map(Event::Write)
            .collect::<Vec<_>>());
        assert_eq!(get(&r, &["result", "structuredContent"]).to_canonical(), r#"{"result":{"a":null,"b":[1,2.5]}}"#);
        // Missing is missing: json.Value is no Option.
        let r = one(&feed(&mut front, &tools_call("echo", "{}", "2")));
        assert_eq!(text_of(&r), "NotRun: $.params.arguments.value: missing argument [missing-field]");
    }

    #[test]
    fn a_cancelled_request_gets_no_response() {
        let mut front = handshake();
        let call = started(feed(&mut front, &tools_call("get_forecast", r#"{"city":"Oslo","days":1}"#, "7")));
        let token: CancelToken = call.cancel.clone();
        // The same id again while it runs is refused.
        assert_eq!(
            error_code(&one(&feed(&mut front, &tools_call("get_forecast", r#"{"city":"Oslo","days":1}"#, "7")))),
            INVALID_REQUEST
        );
        let events = feed(
            &mut front,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"no longer needed"}}"#,
        );
        assert!(matches!(&events[..], [Event::Cancel(key)] if *key == call.key), "{events:?}");
        assert!(token.is_cancelled());
        // A second cancel, and one of a request that is not running, are logged.
        assert!(matches!(
            &feed(&mut front, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}"#)[..],
            [Event::Log(_)]
        ));
        assert!(matches!(
            &feed(&mut front, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"7"}}"#)[..],
            [Event::Log(_)]
        ));
        assert!(matches!(
            &feed(&mut front, r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#)[..],
            [Event::Log(_)]
        ));
        assert!(front.finish(&call.key, HandlerResult::FailedJson(j("\"RateLimited\""))).is_empty());
        assert_eq!(front.core().running(), 0);
        // The id is free again.
        let again = started(feed(&mut front, &tools_call("get_forecast", r#"{"city":"Oslo","days":1}"#, "7")));
        assert!(!again.cancel.is_cancelled());
    }

    #[test]
    fn tools_come_in_pages_when_asked() {
        let mut front = McpFront::new(core()).unwrap().with_page_size(3);
        let _ = handshake_of(&mut front);
        let first = one(&feed(&mut front, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#));
        assert_eq!(get(&first, &["result", "tools"]).as_array().unwrap().len(), 3);
        assert_eq!(get(&first, &["result", "nextCursor"]), &Json::str("3"));
        let second =
            one(&feed(&mut front, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"3"}}"#));
        assert_eq!(get(&get(&second, &["result", "tools"]).as_array().unwrap()[0], &["name"]), &Json::str("echo"));
        assert!(get(&second, &["result"]).as_object().unwrap().get("nextCursor").is_none());
        for cursor in [r#""4""#, r#""0""#, r#""03""#, r#""x""#, "3"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{"cursor":{cursor}}}}}"#);
            assert_eq!(error_code(&one(&feed(&mut front, &line))), INVALID_PARAMS, "{cursor}");
        }
    }

    fn handshake_of(front: &mut McpFront) -> Json {
        one(&feed(
            front,
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        ))
    }

    #[test]
    fn a_response_over_the_size_limit_is_replaced() {
        let limits = Limits { max_bytes: 400, ..Limits::default() };
        let mut front = McpFront::new(core().with_limits(limits)).unwrap();
        let _ = handshake_of(&mut front);
        let call = started(feed(&mut front, &tools_call("echo", r#"{"value":1}"#, "1")));
        let big = Json::str("x".repeat(300));
        let r =
            one(&front.finish(&call.key, HandlerResult::OkJson(big)).into_iter().map(Event::Write).collect::<Vec<_>>());
        assert!(
            text_of(&r).starts_with("Unknown: the result could not be sent: $: the message would be "),
            "{}",
            r.to_canonical()
        );
        assert!(text_of(&r).ends_with("more than the message size limit of 400 [too-large]"));
        // A request line over the limit is a parse error carrying its id.
        let line = tools_call("echo", &format!(r#"{{"value":"{}"}}"#, "y".repeat(400)), "\"big\"");
        let r = one(&feed(&mut front, &line));
        assert_eq!((error_code(&r), get(&r, &["id"])), (PARSE_ERROR, &Json::str("big")));
    }

    #[test]
    fn lines_no_client_should_send_are_answered_or_logged() {
        let mut front = handshake();
        let code = |front: &mut McpFront, line: &str| error_code(&one(&feed(front, line)));
        assert_eq!(code(&mut front, "not json"), PARSE_ERROR);
        assert_eq!(code(&mut front, "[]"), INVALID_REQUEST);
        assert_eq!(code(&mut front, r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#), INVALID_REQUEST);
        assert_eq!(code(&mut front, r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}"#), INVALID_REQUEST);
        assert_eq!(
            code(&mut front, r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}"#),
            METHOD_NOT_FOUND
        );
        assert_eq!(code(&mut front, r#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#), INVALID_REQUEST);
        assert!(matches!(&feed(&mut front, r#"{"jsonrpc":"2.0","id":9,"result":{}}"#)[..], [Event::Log(_)]));
        assert!(matches!(
            &feed(&mut front, r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#)[..],
            [Event::Log(_)]
        ));
        assert_eq!(code(&mut front, "\u{feff}{}"), PARSE_ERROR);
        assert_eq!(front.receive(&[0xff, 0xfe, b'{']).len(), 2);

        // Every prefix of every kind of line, every one of its bytes flipped:
        // each is answered, logged or started, and what is written is JSON-RPC.
        let lines = [
            tools_call("get_forecast", r#"{"city":"Oslo","days":2,"units":"Metric"}"#, "\"p\""),
            modern_call("echo", r#"{"value":[1,{"a":"\u00e9"}]}"#, "12"),
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"p"}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_owned(),
        ];
        for line in &lines {
            let bytes = line.as_bytes();
            for cut in 0..=bytes.len() {
                for variant in [bytes[..cut].to_vec(), flip(bytes, cut)] {
                    let mut front = handshake();
                    for event in front.receive(&variant) {
                        match event {
                            Event::Write(out) => {
                                let response = j(out.trim_end());
                                assert_eq!(get(&response, &["jsonrpc"]), &Json::str("2.0"));
                            }
                            Event::Start(call) => {
                                let key = call.key.clone();
                                let _ = front.finish(&key, HandlerResult::Error("stopped".into()));
                            }
                            Event::Cancel(_) | Event::Log(_) => {}
                        }
                    }
                }
            }
        }
    }

    /// `bytes` with the byte at `at` (if any) replaced by one that breaks JSON.
    fn flip(bytes: &[u8], at: usize) -> Vec<u8> {
        let mut out = bytes.to_vec();
        if let Some(b) = out.get_mut(at) {
            *b = match *b {
                b'"' => b'\\',
                b'{' => b'[',
                b'0'..=b'9' => b'x',
                _ => b'"',
            };
        }
        out
    }
}
