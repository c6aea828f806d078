//! The MCP client session (`mcp/src/session.rs`, `jsonrpc.rs`,
//! `messages.rs`, `outcome.rs`): what an MCP server's stdout does to the
//! adapter, without the process.
//!
//! Input: one flags byte (bit 0: small limits; bit 1: the probe times out
//! before any line), then the server's output. Once the session is ready,
//! two calls go out (to the first two tools listed) and their answers are
//! mapped to Flow outcomes at the weather Tools' types; every third line
//! cancels the first call.
//!
//! Never panics, and
//! - every line the session writes is one canonical JSON text ending in
//!   its `\n`, and a JSON-RPC message the server can read;
//! - a mapped Ok or Failed value is of its declared type;
//! - a failed session is not ready, and calls into it are refused.

#![no_main]

use std::io::BufReader;
use std::sync::OnceLock;

use flow_core::check::check;
use flow_core::json::{self, Object};
use flow_core::types::{Term, TypeSpec, TOOL_OWNER};
use flow_core::Limits;
use flow_fuzz::{check_canonical, check_line, unbounded, weather};
use flow_mcp::jsonrpc::{self, Message};
use flow_mcp::outcome::map_answer;
use flow_mcp::session::{Action, Session};
use flow_mcp::version::Implementation;
use flow_protocol::{CallOutcome, CallTypes, LineReader};
use libfuzzer_sys::fuzz_target;

const SMALL: Limits = Limits { max_bytes: 400, max_depth: 12, max_digits: 40 };
const CALLS: [&str; 2] = ["c0", "c1"];

/// The types the answers to `c0` and `c1` are mapped at: get_forecast's,
/// and echo's at the recursive Region.
fn types(id: &str) -> &'static CallTypes {
    static CELL: OnceLock<Vec<CallTypes>> = OnceLock::new();
    let all = CELL.get_or_init(|| {
        let w = weather();
        let region = [Term::Named { declaration: "7".into(), args: vec![] }];
        [&w.tools[0], &w.tools[3]]
            .into_iter()
            .map(|tool| {
                let spec = TypeSpec::for_tool(w, &tool.tool).expect("a weather Tool");
                let bind = |t: &Term| t.substitute(TOOL_OWNER, &region);
                let params: Vec<_> = spec
                    .params
                    .iter()
                    .map(|p| flow_core::types::Param { name: p.name.clone(), ty: bind(&p.ty) })
                    .collect();
                CallTypes::compile(&w.declarations, &params, &bind(&spec.ok), &bind(&spec.err))
                    .expect("weather types compile")
            })
            .collect()
    });
    &all[usize::from(id == CALLS[1])]
}

/// A line the session writes: canonical, and a message a server can read.
fn written(line: &str) {
    check_line(line);
    match jsonrpc::read(line.trim_end().as_bytes(), &unbounded()) {
        Message::Invalid { why, .. } => panic!("the session wrote a line no server can read ({why}): {line}"),
        Message::Request { .. } | Message::Notification { .. } | Message::Response { .. } => {}
    }
}

struct Run {
    session: Session,
    limits: Limits,
    called: bool,
}

impl Run {
    fn actions(&mut self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Write(line) => written(&line),
                Action::Ready => {
                    assert!(self.session.is_ready(), "Ready from a session that is not");
                    self.call();
                }
                Action::Failed(why) => {
                    assert!(!why.is_empty());
                    assert!(!self.session.is_ready(), "a failed session is ready");
                    assert!(self.session.call("late", "x", Object::new()).is_err(), "a failed session takes calls");
                }
                Action::Answered { id, answer } => {
                    let types = types(&id);
                    let outcome = map_answer(answer, types, &self.limits);
                    let text = outcome.to_canonical();
                    check_canonical(
                        &json::parse_str(&text, &unbounded()).expect("an outcome's text is JSON"),
                        &unbounded(),
                    );
                    match &outcome {
                        CallOutcome::Ok(v) => {
                            check(v, &types.plan, types.ok).expect("a mapped Ok value is of its type")
                        }
                        CallOutcome::Failed(v) => {
                            check(v, &types.plan, types.err).expect("a mapped Failed value is of its type")
                        }
                        _ => {}
                    }
                }
                Action::Log(text) => assert!(!text.is_empty()),
            }
        }
    }

    /// The two calls, once, to the first two tools listed (or to a name no
    /// tool has, which must be refused).
    fn call(&mut self) {
        if std::mem::replace(&mut self.called, true) {
            return;
        }
        let names: Vec<String> = self.session.tools().keys().take(2).cloned().collect();
        for (i, id) in CALLS.iter().enumerate() {
            match names.get(i) {
                Some(name) => {
                    let line = self.session.call(id, name, Object::new()).expect("a ready session calls a listed tool");
                    written(&line);
                }
                None => assert!(self.session.call(id, "no such tool", Object::new()).is_err()),
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, output)) = data.split_first() else { return };
    let limits = if flags & 1 != 0 { SMALL } else { Limits::default() };
    let (session, first) = Session::start(Implementation::flow_adapter(), limits);
    let mut run = Run { session, limits, called: false };
    run.actions(first);
    if flags & 2 != 0 {
        let actions = run.session.probe_timed_out();
        run.actions(actions);
    }
    let mut reader = LineReader::new(BufReader::with_capacity(64, output), limits.max_bytes);
    let mut frames = 0usize;
    while let Some(frame) = reader.next_frame().expect("reading a slice cannot fail") {
        let actions = run.session.receive_frame(frame);
        run.actions(actions);
        frames += 1;
        if frames.is_multiple_of(3) {
            if let Some(line) = run.session.cancel(CALLS[0], "cancelled by the fuzz target") {
                written(&line);
            }
        }
    }
});
