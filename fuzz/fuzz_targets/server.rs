//! The server side of the Tool process protocol (`protocol/src/`):
//! `ServerCore` serving the weather listing (with its generic Tool `echo`) or
//! the recursive fixture, fed the input as lines through the same bounded
//! framing the stdio driver uses.
//!
//! Input: one flags byte (bit 0: small limits and a memory of 2 pairs, so
//! that lines over the size limit, depth and digit refusals and forgetting
//! are reached by short inputs; bit 1: the recursive fixture), then lines.
//! Calls that start are answered by stand-in handlers chosen from the call id:
//! left running until later, an Ok or Failed value (the args themselves,
//! which is right for `echo` and a wrong type elsewhere), the args as JSON,
//! an error, NotRun or Unknown.
//!
//! Never panics, and
//! - every line written is one canonical JSON text ending in its one `\n`,
//!   and the host reads it as a response or a reply (never a line it must
//!   refuse or drop);
//! - a reply to a handler's answer is admitted by the host at the call's own
//!   types (never BadReply), and a value the handler returned as JSON comes
//!   back as the same value;
//! - a started call's args are of the declared types;
//! - `running()` counts exactly the calls started and not finished.

#![no_main]

use std::collections::VecDeque;
use std::io::BufReader;
use std::sync::{Arc, OnceLock};

use flow_core::check::check;
use flow_core::fingerprint::describe_entry;
use flow_core::json::Json;
use flow_core::types::Listing;
use flow_core::Limits;
use flow_fuzz::{check_line, recursive, unbounded, weather};
use flow_protocol::message::{parse_line, Incoming};
use flow_protocol::outcome::{admit, ReplyTypes};
use flow_protocol::{
    CallKey, CallOutcome, CallTypes, Event, HandlerResult, LineReader, ServedEntry, ServerCore, StartedCall,
};
use libfuzzer_sys::fuzz_target;

const SMALL: Limits = Limits { max_bytes: 400, max_depth: 12, max_digits: 40 };

/// The served entries with their real fingerprints, but `{}` for each
/// signature: the core only writes a signature into its describe answer, as
/// opaque JSON, and cloning the real ones took half of every run.
fn entries(listing: &Listing) -> Vec<ServedEntry> {
    listing
        .tools
        .iter()
        .map(|tool| {
            let entry = describe_entry(tool, &listing.declarations).expect("a fixture Tool has a describe entry");
            let fingerprint =
                entry.as_object().and_then(|o| o.get("fingerprint")).and_then(Json::as_str).expect("fingerprint");
            ServedEntry {
                tool: tool.tool.clone(),
                fingerprint: fingerprint.to_owned(),
                signature: Json::Object(Default::default()),
            }
        })
        .collect()
}

/// Fingerprints are computed once; each run builds a fresh core from them.
fn core(recursive_fixture: bool) -> ServerCore {
    static WEATHER: OnceLock<Vec<ServedEntry>> = OnceLock::new();
    static RECURSIVE: OnceLock<Vec<ServedEntry>> = OnceLock::new();
    let (listing, cell) = if recursive_fixture { (recursive(), &RECURSIVE) } else { (weather(), &WEATHER) };
    let served = cell.get_or_init(|| entries(listing)).clone();
    ServerCore::new(listing, served).expect("the fixture is served")
}

/// Reads a line the server wrote as the host does: a response or a reply.
/// A reply is returned with its key and outcome.
fn host_reads(line: &str) -> Option<(CallKey, Json)> {
    check_line(line);
    match parse_line(line.trim_end_matches('\n').as_bytes(), &unbounded()) {
        Incoming::Response { .. } => None,
        Incoming::Reply(reply) => Some((reply.key, reply.outcome)),
        other => panic!("the host cannot use a line the server wrote: {other:?}\n{line}"),
    }
}

struct Run {
    core: ServerCore,
    running: VecDeque<Box<StartedCall>>,
}

impl Run {
    fn events(&mut self, events: Vec<Event>) {
        for event in events {
            match event {
                Event::Write(line) => {
                    host_reads(&line);
                }
                Event::Start(call) => self.start(call),
                Event::Cancel(key) => {
                    let call = self.running.iter().find(|c| c.key == key).expect("a cancel reaches a running call");
                    assert!(call.cancel.is_cancelled(), "a cancelled call's token is not set");
                }
                Event::Log(text) => assert!(!text.is_empty()),
            }
        }
        assert_eq!(self.core.running(), self.running.len(), "running() disagrees with the calls started");
    }

    fn start(&mut self, call: Box<StartedCall>) {
        let types = &call.types;
        assert_eq!(call.args.len(), types.params.len());
        for (i, (arg, &node)) in call.args.iter().zip(&types.params).enumerate() {
            check(arg, &types.plan, node)
                .unwrap_or_else(|e| panic!("arg {i} of a started call is not of its type: {e}"));
        }
        if let Some(generic) = &call.generic {
            assert_eq!(generic.args_json.len(), call.args.len());
        }
        let choice = call.key.call.bytes().fold(0u8, u8::wrapping_add) % 8;
        if choice == 0 {
            self.running.push_back(call);
        } else {
            self.finish(call, choice);
        }
    }

    fn finish(&mut self, call: Box<StartedCall>, choice: u8) {
        let first = call.args.first().cloned();
        let first_json = call.generic.as_ref().and_then(|g| g.args_json.first().cloned());
        let result = match (choice, first, first_json.clone()) {
            (1, Some(v), _) => HandlerResult::Ok(v),
            (2, Some(v), _) => HandlerResult::Failed(v),
            (3, _, Some(j)) => HandlerResult::OkJson(j),
            (3, _, None) => HandlerResult::FailedJson(Json::str("Unavailable")),
            (4, _, _) => HandlerResult::NotRun("the stand-in handler did not run".to_owned()),
            (5, _, _) => HandlerResult::Unknown("the stand-in handler does not know".to_owned()),
            _ => HandlerResult::Error("the stand-in handler failed".to_owned()),
        };
        let lines = self.core.finish(&call.key, result);
        assert_eq!(lines.len(), 1, "a finished call gets one reply line");
        let (key, outcome) = host_reads(&lines[0]).expect("a finished call's line is a reply");
        assert_eq!(key, call.key, "a reply for another pair");
        let admitted = admit(outcome, reply_types(&call.types));
        if let CallOutcome::BadReply(why) = &admitted {
            panic!("the host refuses the server's own reply: {why}\n{}", lines[0]);
        }
        if let (CallOutcome::Ok(value), Some(json)) = (&admitted, first_json) {
            if choice == 3 {
                assert_eq!(value, &call.types.decode_ok(json).expect("echoed"), "an echoed value came back changed");
            }
        }
        assert!(self.core.finish(&call.key, HandlerResult::Error("twice".into())).is_empty(), "a call finished twice");
    }
}

fn reply_types(types: &Arc<CallTypes>) -> ReplyTypes<'_> {
    ReplyTypes { plan: &types.plan, ok: types.ok, err: types.err }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, lines)) = data.split_first() else { return };
    let mut core = core(flags & 2 != 0);
    if flags & 1 != 0 {
        core = core.with_limits(SMALL).with_memory(2);
    }
    let limit = core.limits().max_bytes;
    let mut run = Run { core, running: VecDeque::new() };
    // A small buffer makes the framing assemble lines from several reads.
    let mut reader = LineReader::new(BufReader::with_capacity(64, lines), limit);
    let mut frames = 0usize;
    while let Some(frame) = reader.next_frame().expect("reading a slice cannot fail") {
        let events = run.core.receive_frame(frame);
        run.events(events);
        frames += 1;
        // Now and then the oldest running call ends, between lines.
        if frames.is_multiple_of(3) {
            if let Some(call) = run.running.pop_front() {
                run.finish(call, 3);
            }
        }
    }
    while let Some(call) = run.running.pop_front() {
        run.finish(call, 6);
    }
    assert_eq!(run.core.running(), 0);
});
