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
//! - `tools/list` pages hold [`DEFAULT_PAGE_SIZE`] tools; the cursor is the
//!   index of the next tool, and any other cursor is -32602.
//! - A line that is no JSON is -32700, and one that is no request -32600,
//!   each with the request's id where one can be found, so that a client
//!   waiting on it hears back.
//! - A response whose line would pass the size limit is replaced by an
//!   `isError` Unknown saying so.

use std::collections::HashMap;

use crate::error::{Error, Path, Result};
use crate::json::{self, Json, Object};
use crate::limits::Limits;
use crate::protocol::framing::Frame;
use crate::protocol::front::{Front, FrontKind};
use crate::protocol::message::CallKey;
use crate::protocol::server::{value_json, Event, GenericCall, HandlerResult, ServerCore};
use crate::protocol::skim::Skim;
use crate::Number;

use super::arguments::decode_arguments;
use super::jsonrpc::{self, Message, RpcError, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR};
use super::outcome::call_result;
use super::messages::{
    CallToolParams, CallToolResult, CancelledParams, Content, DiscoverResult, InitializeParams, InitializeResult,
    ListToolsResult,
};
use super::tools::{mcp_tools, McpTool};
use super::version::{
    Implementation, HANDSHAKE, META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, META_SERVER_INFO, MODERN,
};

/// The run id of every MCP call: MCP has no runs.
pub const MCP_RUN: &str = "mcp";

/// Tools per `tools/list` page.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// MCP (2026-07-28): the protocol version a request asks for is not served.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

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
    /// a NAME, or one has no MCP form (see [`super::tools`]).
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

    /// Reads one frame from a [`crate::protocol::framing::LineReader`]. A
    /// final line without its `\n` is read like any other.
    pub fn receive_frame(&mut self, frame: Frame) -> Vec<Event> {
        match frame {
            Frame::Line(line) | Frame::Unterminated(line) => self.receive(&line),
            Frame::TooLong { length, skim } => self.too_long(length, skim),
        }
    }

    /// Reads one line (without its `\n`).
    pub fn receive(&mut self, line: &[u8]) -> Vec<Event> {
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
            |e: Error| answer(call_result(&crate::protocol::Outcome::NotRun(e.to_string()), false, &Limits::default()));
        let Some(&tool) = self.by_name.get(&call.name) else {
            return not_run(Error::at(
                params_path().key("name"),
                crate::Rule::Unresolved,
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
        let result = call_result(&outcome, self.tools[pending.tool].wrapped, &limits);
        let line = jsonrpc::write_result(&pending.id, completed(result.to_json(), pending.modern));
        // The client reads under the same limits (size without the line's
        // ending, depth from the message's object): send nothing it refuses.
        let Some(fault) = crate::protocol::outgoing::past_limit(&line, &limits) else { return vec![line] };
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
#[path = "front_tests.rs"]
mod tests;
