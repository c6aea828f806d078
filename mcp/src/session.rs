//! One MCP client session, sans-IO: what to write, and what each line the
//! server writes means. No threads, no clocks, no processes: the driver
//! ([`super::client`]) owns those and feeds lines in, and tests feed any line
//! they like, hostile ones included.
//!
//! ```text
//!   start ──► server/discover (modern _meta)
//!               │ a result naming 2026-07-28 ──────────────► modern
//!               │ an error, another result, an unreadable
//!               │ answer, or probe_timed_out() ──► initialize ──► notifications/initialized
//!               ▼                                                 │ handshake era
//!           tools/list, page after page (nextCursor) ◄────────────┘
//!               ▼
//!             Ready: calls (string ids: the Flow call's history id),
//!                    cancels, pings answered, notifications logged
//! ```
//!
//! Internal requests use number ids and calls use string ids, so a Flow
//! call id can never be taken for a handshake step.

use std::collections::{BTreeMap, HashSet};

use flow_core::error::Path;
use flow_core::json::{Json, Object};
use flow_core::limits::Limits;
use flow_protocol::Frame;

use super::jsonrpc::{self, Message, RpcError, METHOD_NOT_FOUND};
use super::messages::{
    list_tools_params, CallToolParams, CancelledParams, DiscoverResult, InitializeParams, InitializeResult,
    ListToolsResult, Tool,
};
use super::version::{request_meta, Era, Implementation, HANDSHAKE, MODERN};

/// At most this many `tools/list` pages: a server that pages forever fails
/// the session instead of filling memory.
pub(crate) const MAX_PAGES: usize = 1000;

/// What the driver does next.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Write this line (it ends in `\n`) to the server's stdin.
    Write(String),
    /// The era is agreed and every page of tools is read: calls may go out.
    Ready,
    /// The session cannot be used, and why.
    Failed(String),
    /// What the server answered to a call.
    Answered {
        /// The JSON-RPC id the call went out with.
        id: String,
        /// The server's answer.
        answer: Answer,
    },
    /// Something for a person's log.
    Log(String),
}

/// What came back for one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A result, not yet read as a `tools/call` result.
    Result(Json),
    /// An error response.
    Error(RpcError),
    /// A line carrying the call's id that is no JSON-RPC response, or that
    /// could not be read at all (too large, a number past the limit...).
    Unreadable(String),
}

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Probing {
        id: u64,
    },
    /// `late_probe`: the id of a `server/discover` that timed out. A server
    /// still starting when the probe timed out answers it late, and having
    /// chosen the modern era it refuses the `initialize` that followed; its
    /// late answer is then taken as the era's answer.
    Initializing {
        id: u64,
        late_probe: Option<u64>,
    },
    Listing {
        id: u64,
        pages: usize,
        cursors: HashSet<String>,
    },
    Ready,
    Failed,
}

/// One session with one server process.
#[derive(Debug)]
pub struct Session {
    client: Implementation,
    limits: Limits,
    phase: Phase,
    era: Option<Era>,
    next_id: u64,
    tools: BTreeMap<String, Tool>,
    calls: HashSet<String>,
}

fn number(id: u64) -> Json {
    Json::Number(flow_core::Number::from_bigint(&id.into()))
}

fn id_number(id: &Json) -> Option<u64> {
    match id {
        Json::Number(n) => n.to_bigint().and_then(|n| u64::try_from(n).ok()),
        _ => None,
    }
}

fn result_path() -> Path {
    Path::root().key("result")
}

impl Session {
    /// A new session and its first line, the `server/discover` probe.
    pub fn start(client: Implementation, limits: Limits) -> (Session, Vec<Action>) {
        let mut session = Session {
            client,
            limits,
            phase: Phase::Failed,
            era: None,
            next_id: 0,
            tools: BTreeMap::new(),
            calls: HashSet::new(),
        };
        let id = session.take_id();
        session.phase = Phase::Probing { id };
        let params = Json::object([("_meta", request_meta(&session.client))]);
        let line = jsonrpc::write_request(&number(id), "server/discover", params);
        (session, vec![Action::Write(line)])
    }

    fn take_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// The era agreed, once it is.
    pub fn era(&self) -> Option<&Era> {
        self.era.as_ref()
    }

    /// Whether the session is ready: era agreed and every page of tools read.
    pub fn is_ready(&self) -> bool {
        self.phase == Phase::Ready
    }

    /// Whether the probe is still waiting for its answer.
    pub fn is_probing(&self) -> bool {
        matches!(self.phase, Phase::Probing { .. })
    }

    /// The server's tools by name, complete once ready.
    pub fn tools(&self) -> &BTreeMap<String, Tool> {
        &self.tools
    }

    /// The params of a request in this session's era: the modern era's
    /// `_meta` added.
    fn params(&self, mut params: Object) -> Json {
        if self.era == Some(Era::Modern) {
            params.insert("_meta", request_meta(&self.client));
        }
        Json::Object(params)
    }

    /// The probe got no answer in time: fall back to the handshake.
    pub fn probe_timed_out(&mut self) -> Vec<Action> {
        match self.phase {
            Phase::Probing { id } => {
                let actions = self.initialize("server/discover got no answer in time".to_owned());
                if let Phase::Initializing { late_probe, .. } = &mut self.phase {
                    *late_probe = Some(id);
                }
                actions
            }
            _ => Vec::new(),
        }
    }

    /// The answer to a `server/discover` that timed out, while `initialize`
    /// is out: a server that speaks the modern era is spoken to in it (the
    /// `initialize` it refuses is then no longer open); any other answer
    /// leaves the handshake to go on.
    fn late_probe_answer(&mut self, result: Result<Json, Answer>) -> Vec<Action> {
        match result.map(|r| DiscoverResult::from_json(&r, &result_path())) {
            Ok(Ok(discover)) if discover.supported_versions.iter().any(|v| v == MODERN) => {
                self.era = Some(Era::Modern);
                let mut actions = vec![Action::Log(format!("server/discover answered late: speaking {MODERN}"))];
                actions.extend(self.list(None, 0, HashSet::new()));
                actions
            }
            _ => {
                if let Phase::Initializing { late_probe, .. } = &mut self.phase {
                    *late_probe = None;
                }
                vec![Action::Log("server/discover answered late without the modern era: initialize goes on".to_owned())]
            }
        }
    }

    fn initialize(&mut self, why: String) -> Vec<Action> {
        let id = self.take_id();
        self.phase = Phase::Initializing { id, late_probe: None };
        let params = InitializeParams {
            protocol_version: HANDSHAKE[0].to_owned(),
            capabilities: Json::Object(Object::new()),
            client_info: self.client.clone(),
        };
        vec![
            Action::Log(format!("{why}: speaking the handshake era (initialize)")),
            Action::Write(jsonrpc::write_request(&number(id), "initialize", params.to_json())),
        ]
    }

    fn fail(&mut self, why: String) -> Vec<Action> {
        self.phase = Phase::Failed;
        vec![Action::Failed(why)]
    }

    fn list(&mut self, cursor: Option<&str>, pages: usize, cursors: HashSet<String>) -> Vec<Action> {
        let id = self.take_id();
        self.phase = Phase::Listing { id, pages, cursors };
        let params = self.params(list_tools_params(cursor));
        vec![Action::Write(jsonrpc::write_request(&number(id), "tools/list", params))]
    }

    /// Reads one frame of the server's stdout.
    pub fn receive_frame(&mut self, frame: Frame) -> Vec<Action> {
        match jsonrpc::read_frame(frame, &self.limits) {
            Some(message) => self.receive_message(message),
            None => vec![Action::Log("dropped bytes after the last newline: a message ends with one".to_owned())],
        }
    }

    /// Reads one line of the server's stdout (without its `\n`).
    pub fn receive(&mut self, line: &[u8]) -> Vec<Action> {
        let message = jsonrpc::read(line, &self.limits);
        self.receive_message(message)
    }

    fn receive_message(&mut self, message: Message) -> Vec<Action> {
        match message {
            Message::Request { id, method, .. } => vec![Action::Write(self.answer_request(&id, &method))],
            Message::Notification { method, params } => vec![Action::Log(notification_text(&method, params.as_ref()))],
            Message::Response { id, result } => self.response(id, result.map_err(Answer::Error)),
            Message::Invalid { id: Some(id), why } => self.response(id, Err(Answer::Unreadable(why))),
            Message::Invalid { id: None, why } => vec![Action::Log(format!("dropped a line: {why}"))],
        }
    }

    /// The adapter serves a server nothing but `ping`: it declared no client
    /// capability, so sampling, roots and elicitation are not its to answer.
    fn answer_request(&self, id: &Json, method: &str) -> String {
        match method {
            "ping" => jsonrpc::write_result(id, Json::Object(Object::new())),
            other => jsonrpc::write_error(
                id,
                &RpcError::new(
                    METHOD_NOT_FOUND,
                    format!("Method not found: {other:?} (the Flow MCP adapter declares no client capabilities)"),
                ),
            ),
        }
    }

    /// A response, or an unreadable line that names its id (`Err`).
    fn response(&mut self, id: Json, result: Result<Json, Answer>) -> Vec<Action> {
        if let Json::String(call) = &id {
            if self.calls.remove(call) {
                let answer = match result {
                    Ok(json) => Answer::Result(json),
                    Err(answer) => answer,
                };
                return vec![Action::Answered { id: call.clone(), answer }];
            }
        }
        if let Phase::Initializing { late_probe: Some(probe), .. } = self.phase {
            if id_number(&id) == Some(probe) {
                return self.late_probe_answer(result);
            }
        }
        let current = match &self.phase {
            Phase::Probing { id } | Phase::Initializing { id, .. } | Phase::Listing { id, .. } => Some(*id),
            Phase::Ready | Phase::Failed => None,
        };
        if current.is_none() || id_number(&id) != current {
            return vec![Action::Log(format!("dropped a response to id {}, which is not open", id.to_canonical()))];
        }
        let why_not = |answer: Answer| match answer {
            Answer::Error(e) => format!("answered {e}"),
            Answer::Unreadable(why) => format!("answered a line that cannot be read: {why}"),
            Answer::Result(_) => "answered a result".to_owned(),
        };
        match std::mem::replace(&mut self.phase, Phase::Failed) {
            Phase::Probing { .. } => match result.map(|r| DiscoverResult::from_json(&r, &result_path())) {
                Ok(Ok(discover)) if discover.supported_versions.iter().any(|v| v == MODERN) => {
                    self.era = Some(Era::Modern);
                    let mut actions = vec![Action::Log(format!("server/discover: speaking {MODERN}"))];
                    actions.extend(self.list(None, 0, HashSet::new()));
                    actions
                }
                Ok(Ok(discover)) => self.initialize(format!(
                    "server/discover supports {} but not {MODERN}",
                    discover.supported_versions.join(", ")
                )),
                Ok(Err(e)) => self.initialize(format!("server/discover answered a result that is not one: {e}")),
                Err(answer) => self.initialize(format!("server/discover {}", why_not(answer))),
            },
            Phase::Initializing { .. } => match result.map(|r| InitializeResult::from_json(&r, &result_path())) {
                Ok(Ok(init)) if Era::known_handshake(&init.protocol_version) => {
                    self.era = Some(Era::Handshake(init.protocol_version.clone()));
                    let mut actions = vec![
                        Action::Log(format!("initialize: speaking {}", init.protocol_version)),
                        Action::Write(jsonrpc::write_notification("notifications/initialized", None)),
                    ];
                    actions.extend(self.list(None, 0, HashSet::new()));
                    actions
                }
                Ok(Ok(init)) => self.fail(format!(
                    "initialize answered protocol version {:?}, which this adapter does not speak",
                    init.protocol_version
                )),
                Ok(Err(e)) => self.fail(format!("initialize answered a result that is not one: {e}")),
                Err(answer) => self.fail(format!("initialize {}", why_not(answer))),
            },
            Phase::Listing { pages, mut cursors, .. } => {
                let page = match result.map(|r| ListToolsResult::from_json(&r, &result_path())) {
                    Ok(Ok(page)) => page,
                    Ok(Err(e)) => return self.fail(format!("tools/list answered a result that is not one: {e}")),
                    Err(answer) => return self.fail(format!("tools/list {}", why_not(answer))),
                };
                let mut actions: Vec<Action> = page
                    .skipped
                    .iter()
                    .map(|why| Action::Log(format!("tools/list: skipped an entry: {why}")))
                    .collect();
                for tool in page.tools {
                    if self.tools.contains_key(&tool.name) {
                        actions.push(Action::Log(format!(
                            "tools/list: {:?} is listed twice; the first is kept",
                            tool.name
                        )));
                    } else {
                        self.tools.insert(tool.name.clone(), tool);
                    }
                }
                match page.next_cursor {
                    None => {
                        self.phase = Phase::Ready;
                        actions.push(Action::Ready);
                    }
                    Some(cursor) if !cursors.insert(cursor.clone()) => {
                        actions.extend(self.fail(format!(
                            "tools/list: the cursor {cursor:?} came twice: its pages go round in a loop"
                        )));
                    }
                    Some(_) if pages + 1 >= MAX_PAGES => {
                        actions.extend(self.fail(format!("tools/list: more than {MAX_PAGES} pages")));
                    }
                    Some(cursor) => actions.extend(self.list(Some(&cursor), pages + 1, cursors)),
                }
                actions
            }
            // Not reached: `current` is None in these phases.
            phase @ (Phase::Ready | Phase::Failed) => {
                self.phase = phase;
                Vec::new()
            }
        }
    }

    /// The `tools/call` line of a Flow call, its JSON-RPC id the call's
    /// history id; `Err` says why it cannot be sent (the call did not happen).
    pub fn call(&mut self, id: &str, name: &str, arguments: Object) -> Result<String, String> {
        if !self.is_ready() {
            return Err("the MCP session is not ready".to_owned());
        }
        if !self.tools.contains_key(name) {
            return Err(format!("the MCP server no longer offers a tool named {name:?}"));
        }
        // JSON-RPC ids are unique among requests in flight, and a Flow call id
        // is unique only within its run.
        if self.calls.contains(id) {
            return Err(format!("a call with id {id:?} (from another run) is still out to the MCP server"));
        }
        let params = self.params(CallToolParams { name: name.to_owned(), arguments }.to_json());
        self.calls.insert(id.to_owned());
        Ok(jsonrpc::write_request(&Json::str(id), "tools/call", params))
    }

    /// The `notifications/cancelled` line for a call that is out; the call is
    /// closed here, so a response that still comes is dropped.
    pub fn cancel(&mut self, id: &str, reason: &str) -> Option<String> {
        if !self.calls.remove(id) {
            return None;
        }
        let params = CancelledParams { request_id: Json::str(id), reason: Some(reason.to_owned()) };
        Some(jsonrpc::write_notification("notifications/cancelled", Some(params.to_json())))
    }

    /// Forgets a call whose line never reached the server.
    pub fn forget(&mut self, id: &str) {
        self.calls.remove(id);
    }
}

/// A server's notification as one log line: its own log messages with their
/// data, anything else by method.
fn notification_text(method: &str, params: Option<&Json>) -> String {
    let member = |name: &str| params.and_then(Json::as_object).and_then(|o| o.get(name));
    match method {
        "notifications/message" => {
            let level = member("level").and_then(Json::as_str).unwrap_or("info");
            let data = member("data").map(|d| match d {
                Json::String(s) => s.clone(),
                other => other.to_canonical(),
            });
            format!("server log ({level}): {}", data.unwrap_or_default())
        }
        "notifications/tools/list_changed" => {
            "the server says its tools changed; the adapter keeps the list it read when the server started".to_owned()
        }
        other => format!("notification {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    //! The session fed by hand: both eras, paging, and hostile lines.

    use super::*;
    use flow_core::json::parse_str;

    fn start() -> (Session, Vec<Action>) {
        Session::start(Implementation::flow_adapter(), Limits::default())
    }

    fn writes(actions: &[Action]) -> Vec<Json> {
        actions
            .iter()
            .filter_map(|a| match a {
                Action::Write(line) => {
                    assert!(line.ends_with('\n') && line.matches('\n').count() == 1, "{line}");
                    Some(parse_str(line.trim_end(), &Limits::default()).unwrap())
                }
                _ => None,
            })
            .collect()
    }

    fn get<'j>(json: &'j Json, path: &[&str]) -> &'j Json {
        path.iter().fold(json, |j, k| {
            j.as_object().and_then(|o| o.get(k)).unwrap_or_else(|| panic!("no {k} in {}", json.to_canonical()))
        })
    }

    fn feed(session: &mut Session, line: &str) -> Vec<Action> {
        session.receive(line.as_bytes())
    }

    const TOOLS: &str =
        r#"{"tools":[{"name":"add","inputSchema":{"type":"object"}},{"name":"echo","inputSchema":{"type":"object"}}]}"#;

    /// A session that went through the handshake era and is ready.
    fn handshake_session() -> Session {
        let (mut s, _) = start();
        feed(&mut s, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#);
        feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}"#);
        let actions = feed(&mut s, &format!(r#"{{"jsonrpc":"2.0","id":3,"result":{TOOLS}}}"#));
        assert!(actions.contains(&Action::Ready), "{actions:?}");
        s
    }

    #[test]
    fn modern_servers_stay_modern_with_meta_on_every_request() {
        let (mut s, actions) = start();
        let probe = &writes(&actions)[0];
        assert_eq!(get(probe, &["method"]), &Json::str("server/discover"));
        assert_eq!(
            get(probe, &["params", "_meta", "io.modelcontextprotocol/protocolVersion"]),
            &Json::str("2026-07-28")
        );
        assert!(get(probe, &["params", "_meta", "io.modelcontextprotocol/clientCapabilities"])
            .as_object()
            .unwrap()
            .is_empty());

        let actions = feed(
            &mut s,
            r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete"}}"#,
        );
        assert_eq!(s.era(), Some(&Era::Modern));
        let list = &writes(&actions)[0];
        assert_eq!(get(list, &["method"]), &Json::str("tools/list"));
        assert!(get(list, &["params", "_meta"]).as_object().is_some());

        feed(&mut s, &format!(r#"{{"jsonrpc":"2.0","id":2,"result":{TOOLS}}}"#));
        assert!(s.is_ready());
        let call = parse_str(s.call("c1", "add", Object::new()).unwrap().trim_end(), &Limits::default()).unwrap();
        assert_eq!(get(&call, &["id"]), &Json::str("c1"));
        assert_eq!(get(&call, &["params", "name"]), &Json::str("add"));
        assert_eq!(
            get(&call, &["params", "_meta", "io.modelcontextprotocol/protocolVersion"]),
            &Json::str("2026-07-28")
        );
    }

    #[test]
    fn any_error_or_a_timeout_falls_back_to_the_handshake() {
        let s = handshake_session();
        assert_eq!(s.era(), Some(&Era::Handshake("2025-06-18".into())));
        let call =
            parse_str(handshake_session().call("c1", "add", Object::new()).unwrap().trim_end(), &Limits::default())
                .unwrap();
        assert!(get(&call, &["params"]).as_object().unwrap().get("_meta").is_none());

        // The initialize request, then initialized before tools/list.
        let (mut s, _) = start();
        let actions = s.probe_timed_out();
        let init = &writes(&actions)[0];
        assert_eq!(get(init, &["method"]), &Json::str("initialize"));
        assert_eq!(get(init, &["params", "protocolVersion"]), &Json::str("2025-11-25"));
        assert_eq!(get(init, &["params", "clientInfo", "name"]), &Json::str("flow-mcp-adapter"));
        // A late answer without the modern era is not taken for initialize's.
        let late =
            feed(&mut s, r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2027-01-01"],"capabilities":{}}}"#);
        assert!(matches!(&late[..], [Action::Log(l)] if l.contains("initialize goes on")), "{late:?}");
        let actions =
            feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#);
        let lines = writes(&actions);
        assert_eq!(get(&lines[0], &["method"]), &Json::str("notifications/initialized"));
        assert_eq!(get(&lines[1], &["method"]), &Json::str("tools/list"));

        // A server still starting when the probe timed out answers it late in
        // the modern era, then refuses the initialize: the late answer decides.
        let (mut s, _) = start();
        s.probe_timed_out();
        let late =
            feed(&mut s, r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{}}}"#);
        assert_eq!(get(&writes(&late)[0], &["method"]), &Json::str("tools/list"), "{late:?}");
        let refused = feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"modern only"}}"#);
        assert!(matches!(&refused[..], [Action::Log(l)] if l.contains("not open")), "{refused:?}");
        let listed = feed(&mut s, r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{}}]}}"#);
        assert!(listed.contains(&Action::Ready), "{listed:?}");

        // A result that is not a discover result, or one without the modern
        // version, falls back too; so does an unreadable answer.
        for answer in [
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2027-01-01"],"capabilities":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}"#,
        ] {
            let (mut s, _) = start();
            let actions = feed(&mut s, answer);
            assert_eq!(get(&writes(&actions)[0], &["method"]), &Json::str("initialize"), "{answer}");
        }
    }

    #[test]
    fn a_handshake_that_cannot_finish_fails_the_session() {
        for (init, why) in [
            (
                r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"1999-01-01","capabilities":{}}}"#,
                "does not speak",
            ),
            (r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}"#, "error -32602: bad"),
            (r#"{"jsonrpc":"2.0","id":2,"result":[]}"#, "not one"),
        ] {
            let (mut s, _) = start();
            s.probe_timed_out();
            let actions = feed(&mut s, init);
            assert!(matches!(&actions[..], [Action::Failed(w)] if w.contains(why)), "{actions:?}");
            assert!(s.call("c", "add", Object::new()).is_err());
        }
    }

    #[test]
    fn every_page_is_read_and_loops_fail() {
        let (mut s, _) = start();
        s.probe_timed_out();
        feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#);
        let actions = feed(
            &mut s,
            r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{}}],"nextCursor":"p2"}}"#,
        );
        assert_eq!(get(&writes(&actions)[0], &["params", "cursor"]), &Json::str("p2"));
        let actions = feed(
            &mut s,
            r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"b","inputSchema":{}},{"name":"a","inputSchema":{"x":1}},{"bad":1}],"nextCursor":"p3"}}"#,
        );
        assert!(actions.iter().any(|a| matches!(a, Action::Log(l) if l.contains("listed twice"))));
        assert!(actions
            .iter()
            .any(|a| matches!(a, Action::Log(l) if l.contains("skipped an entry: $.result.tools[2].name: missing"))));
        let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":5,"result":{"tools":[{"name":"c","inputSchema":{}}]}}"#);
        assert!(actions.contains(&Action::Ready));
        assert_eq!(s.tools().keys().collect::<Vec<_>>(), ["a", "b", "c"]);
        // The first listing of a name is kept.
        assert!(s.tools()["a"].input_schema.as_object().unwrap().is_empty());

        let (mut s, _) = start();
        s.probe_timed_out();
        feed(&mut s, r#"{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#);
        feed(&mut s, r#"{"jsonrpc":"2.0","id":3,"result":{"tools":[],"nextCursor":"x"}}"#);
        let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":4,"result":{"tools":[],"nextCursor":"x"}}"#);
        assert!(matches!(&actions[..], [Action::Failed(w)] if w.contains("loop")), "{actions:?}");
    }

    #[test]
    fn calls_are_answered_by_their_id_and_cancels_close_them() {
        let mut s = handshake_session();
        s.call("c1", "add", Object::new()).unwrap();
        // A second call with the same id (another run's) cannot go out.
        assert!(s.call("c1", "add", Object::new()).unwrap_err().contains("still out"));
        assert!(s.call("c2", "nope", Object::new()).unwrap_err().contains("no longer offers"));
        let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":"c1","result":{"content":[]}}"#);
        assert_eq!(
            actions,
            vec![Action::Answered {
                id: "c1".into(),
                answer: Answer::Result(parse_str(r#"{"content":[]}"#, &Limits::default()).unwrap())
            }]
        );
        // Answered once: a second answer is dropped.
        let again = feed(&mut s, r#"{"jsonrpc":"2.0","id":"c1","result":{"content":[]}}"#);
        assert!(matches!(&again[..], [Action::Log(l)] if l.contains("not open")));

        s.call("c3", "add", Object::new()).unwrap();
        let cancel = s.cancel("c3", "cancelled by the Flow host").unwrap();
        let cancel = parse_str(cancel.trim_end(), &Limits::default()).unwrap();
        assert_eq!(get(&cancel, &["method"]), &Json::str("notifications/cancelled"));
        assert_eq!(get(&cancel, &["params", "requestId"]), &Json::str("c3"));
        assert_eq!(s.cancel("c3", "again"), None);
        assert!(matches!(&feed(&mut s, r#"{"jsonrpc":"2.0","id":"c3","result":{}}"#)[..], [Action::Log(_)]));

        s.call("c4", "add", Object::new()).unwrap();
        let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":"c4","error":{"code":-32602,"message":"Invalid params"}}"#);
        assert!(matches!(&actions[..], [Action::Answered { answer: Answer::Error(e), .. }] if e.code == -32602));
    }

    #[test]
    fn hostile_lines_never_break_the_session() {
        let mut s = handshake_session();
        s.call("c1", "add", Object::new()).unwrap();
        let huge_number =
            format!(r#"{{"jsonrpc":"2.0","id":"c1","result":{{"structuredContent":{{"n":1{}}}}}}}"#, "0".repeat(5000));
        let lines: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"\xff\xfe\x00garbage".to_vec(),
            b"[]".to_vec(),
            b"null".to_vec(),
            br#"{"jsonrpc":"2.0"}"#.to_vec(),
            br#"{"jsonrpc":"2.0","id":{},"result":1}"#.to_vec(),
            br#"{"jsonrpc":"2.0","id":99,"result":1}"#.to_vec(),
            br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}"#.to_vec(),
            br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"disk full"}}"#
                .to_vec(),
            "[".repeat(100_000).into_bytes(),
        ];
        for line in &lines {
            let actions = s.receive(line);
            assert!(actions.iter().all(|a| matches!(a, Action::Log(_))), "{actions:?}");
        }
        assert!(s.is_ready());
        // An unreadable answer that names its call is that call's answer.
        let actions = feed(&mut s, &huge_number);
        assert!(
            matches!(&actions[..], [Action::Answered { id, answer: Answer::Unreadable(w) }] if id == "c1" && w.contains("[number-too-large]")),
            "{actions:?}"
        );

        // Requests: ping is answered, anything else refused with -32601.
        let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#);
        assert_eq!(
            writes(&actions),
            vec![parse_str(r#"{"id":"p","jsonrpc":"2.0","result":{}}"#, &Limits::default()).unwrap()]
        );
        let actions = feed(&mut s, r#"{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{}}"#);
        assert_eq!(get(&writes(&actions)[0], &["error", "code"]).to_canonical(), "-32601");
    }
}
