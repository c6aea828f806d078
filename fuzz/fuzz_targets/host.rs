//! The host side of the Tool process protocol: what `host::Connection`'s
//! reader thread does with each line a Tool process writes (framing,
//! `message::parse_line`, `outcome::admit` at the call's declared types,
//! `Described::from_json` for a describe result), without the process.
//!
//! Input: one flags byte (bit 0: small limits, so that lines over the size
//! limit reach the skim and BadReply paths from short inputs), then the
//! process's output. A reply is admitted at the types of one of five calls,
//! chosen from its pair: the weather Tools, `echo` at a recursive type, and
//! the recursive fixture's Tool.
//!
//! Never panics, and
//! - an admitted Ok or Failed value is of its declared type, and written
//!   back as a reply it is admitted again as the same value;
//! - every outcome's canonical text is canonical JSON;
//! - the error the host answers a request with is a line the process can read.

#![no_main]

use std::io::BufReader;
use std::sync::OnceLock;

use flow_core::check::check;
use flow_core::json::{self, Json};
use flow_core::plan::NodeId;
use flow_core::types::{Listing, Term, TypeSpec, TOOL_OWNER};
use flow_core::Limits;
use flow_fuzz::{check_canonical, check_line, recursive, unbounded, weather};
use flow_host::described::Described;
use flow_protocol::message::{self, parse_line, too_long, write_error, write_reply, Incoming};
use flow_protocol::outcome::{admit, Outcome, ReplyTypes};
use flow_protocol::{CallKey, CallOutcome, CallTypes, Frame, LineReader};
use libfuzzer_sys::fuzz_target;

const SMALL: Limits = Limits { max_bytes: 400, max_depth: 12, max_digits: 40 };

fn compile(listing: &Listing, tool: &str, bindings: &[Term]) -> CallTypes {
    let spec = TypeSpec::for_tool(listing, tool).expect("a fixture Tool");
    let bind = |t: &Term| t.substitute(TOOL_OWNER, bindings);
    let params: Vec<_> =
        spec.params.iter().map(|p| flow_core::types::Param { name: p.name.clone(), ty: bind(&p.ty) }).collect();
    // The listing's declarations, not the TypeSpec's: a binding may name a
    // type the generic Tool itself does not reach.
    CallTypes::compile(&listing.declarations, &params, &bind(&spec.ok), &bind(&spec.err))
        .expect("fixture types compile")
}

fn all_types() -> &'static [CallTypes] {
    static CELL: OnceLock<Vec<CallTypes>> = OnceLock::new();
    CELL.get_or_init(|| {
        let w = weather();
        let region = Term::Named { declaration: "7".into(), args: vec![] };
        let mut types: Vec<CallTypes> =
            w.tools.iter().map(|t| compile(w, &t.tool, std::slice::from_ref(&region))).collect();
        let r = recursive();
        types.extend(r.tools.iter().map(|t| compile(r, &t.tool, &[])));
        types
    })
}

fn types_for(key: &CallKey) -> &'static CallTypes {
    let all = all_types();
    let hash = key.run.bytes().chain(key.call.bytes()).fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize));
    &all[hash % all.len()]
}

/// An admitted value is of its type and crosses again unchanged.
fn round_trip(key: &CallKey, types: &CallTypes, admitted: &CallOutcome, node: NodeId, wire: Outcome) {
    let value = match admitted {
        CallOutcome::Ok(v) | CallOutcome::Failed(v) => v,
        _ => unreachable!("only values round-trip"),
    };
    check(value, &types.plan, node).unwrap_or_else(|e| panic!("an admitted value is not of its type: {e}"));
    let line = write_reply(key, &wire);
    check_line(&line);
    let Incoming::Reply(reply) = parse_line(line.trim_end().as_bytes(), &unbounded()) else {
        panic!("a reply written from an admitted value does not read as a reply: {line}");
    };
    let again = admit(reply.outcome, ReplyTypes { plan: &types.plan, ok: types.ok, err: types.err });
    assert_eq!(&again, admitted, "an admitted value crossed again as another");
}

fn reply(key: CallKey, outcome: Json) {
    let types = types_for(&key);
    let admitted = admit(outcome, ReplyTypes { plan: &types.plan, ok: types.ok, err: types.err });
    check_canonical(
        &json::parse_str(&admitted.to_canonical(), &unbounded()).expect("an outcome's text is JSON"),
        &unbounded(),
    );
    match &admitted {
        CallOutcome::Ok(v) => round_trip(&key, types, &admitted, types.ok, Outcome::ok(v)),
        CallOutcome::Failed(v) => round_trip(&key, types, &admitted, types.err, Outcome::failed(v)),
        CallOutcome::NotRun(why) | CallOutcome::Unknown(why) | CallOutcome::BadReply(why) => {
            let _ = why.len();
        }
    }
}

fn described(result: &Json) {
    match Described::from_json(result) {
        Ok(d) => {
            for (identity, tool) in &d.tools {
                assert_eq!(identity, &tool.tool);
                assert!(tool.fingerprint.starts_with("sha256:") && tool.fingerprint.len() == 71);
                assert!(tool.signature.as_object().is_some());
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

fn receive(incoming: Incoming) {
    match incoming {
        Incoming::Reply(r) => reply(r.key, r.outcome),
        Incoming::BadReply { reason, .. } => assert!(!reason.is_empty()),
        Incoming::Response { result: Ok(result), .. } => described(&result),
        Incoming::Response { result: Err(e), .. } => {
            let _ = e.message.len();
        }
        // The host answers a request with an error the process must be able to read.
        Incoming::Describe { id } => {
            check_line(&write_error(
                &id,
                message::METHOD_NOT_FOUND,
                "Method not found: \"describe\" (the host serves none)",
            ));
        }
        Incoming::Refuse { id, code, message } => {
            check_line(&write_error(&id, code, &message));
        }
        Incoming::Call(_) | Incoming::BadCall { .. } | Incoming::Cancel(_) | Incoming::Ignore(_) => {}
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, output)) = data.split_first() else { return };
    let limits = if flags & 1 != 0 { SMALL } else { Limits::default() };
    let mut reader = LineReader::new(BufReader::with_capacity(64, output), limits.max_bytes);
    while let Some(frame) = reader.next_frame().expect("reading a slice cannot fail") {
        let incoming = match frame {
            Frame::Line(line) => parse_line(&line, &limits),
            Frame::TooLong { length, skim } => too_long(length, skim, &limits),
            // The host drops a tail without its newline; read it anyway, as
            // one more line to survive.
            Frame::Unterminated(line) => parse_line(&line, &limits),
        };
        receive(incoming);
    }
});
