//! The host against the test Tool and the fault-injecting fake. Each fault
//! case asserts the outcome the spec prescribes, and that the host goes on
//! serving other calls. Nothing here times anything: ordering is forced by the
//! fake (held replies), never by sleeps.

mod common;

use common::*;
use flow_core::types::parse::term_from_json;
use flow_core::types::Term;
use flow_host::{Host, RefusalKind};
use flow_protocol::CallKey;

#[test]
fn the_test_tool_serves_every_tool_concurrently() {
    let setup = bind(&test_tool(), "happy");
    assert_forecast(&forecast(&setup, "1", "Oslo"), "Oslo");
    assert_eq!(
        forecast(&setup, "2", "Nowhere").to_canonical(),
        r#"{"Failed":{"UnknownCity":{"query":"Nowhere","suggestions":["Oslo"]}}}"#
    );
    assert!(reason(&forecast(&setup, "3", "panic"), "Unknown").contains("panicked: asked to panic"));
    assert!(reason(&forecast(&setup, "4", "wrong-type"), "Unknown").contains("not of the declared type"));

    let region = json(r#"{"region":{"name":"north","children":[]},"cursor":"None"}"#);
    let stations = setup.host.call(STATIONS, CallKey::new("r", "5"), &region).unwrap().wait();
    assert!(stations.to_canonical().starts_with(r#"{"Ok":{"items":[{"id":7,"#), "{stations:?}");

    // A generic call: the host sends the views, the Tool echoes JSON back,
    // decoded at the concrete type on both sides.
    let page =
        term_from_json(&json(r#"{"Named":{"declaration":"5","args":[{"Named":{"declaration":"6","args":[]}}]}}"#))
            .unwrap();
    let value = json(r#"{"value":{"items":[{"id":1,"position":[1,2],"readings":{},"raw":null}],"next":"n"}}"#);
    let echoed = setup.host.call_with(ECHO, CallKey::new("r", "6"), &value, &[page]).unwrap().wait();
    assert_eq!(
        echoed.to_canonical(),
        r#"{"Ok":{"items":[{"id":1,"position":[1,2],"raw":null,"readings":{}}],"next":"n"}}"#
    );
    let echoed = setup
        .host
        .call_with(ECHO, CallKey::new("r", "7"), &json(r#"{"value":3}"#), &[Term::Prim(flow_core::types::Prim::Int)])
        .unwrap()
        .wait();
    assert_eq!(echoed.to_canonical(), r#"{"Ok":3}"#);

    // 64 calls out at once, each answered with its own city.
    let handles: Vec<_> = (0..64)
        .map(|i| {
            setup.host.call(FORECAST, CallKey::new("many", i.to_string()), &forecast_args(&format!("city{i}"))).unwrap()
        })
        .collect();
    for (i, handle) in handles.into_iter().enumerate() {
        assert_forecast(&handle.wait(), &format!("city{i}"));
    }
}

#[test]
fn args_that_do_not_decode_are_refused_before_sending() {
    let setup = bind(&test_tool(), "args");
    let err = setup
        .host
        .call(FORECAST, CallKey::new("r", "1"), &json(r#"{"city":"Oslo","days":"two","units":"None"}"#))
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "$.args.days: expected an Int (a number), found a string [type]");
    let err = setup.host.call(FORECAST, CallKey::new("r", "2"), &json(r#"{"city":"Oslo","days":1}"#)).err().unwrap();
    assert_eq!(err.to_string(), "$.args.units: missing argument [missing-field]");
    assert_forecast(&forecast(&setup, "3", "Oslo"), "Oslo");
}

#[test]
fn cancel_reaches_the_handler() {
    let setup = bind(&test_tool(), "cancel");
    let handle = setup.host.call(FORECAST, CallKey::new("r", "blocked"), &forecast_args("wait-for-cancel")).unwrap();
    // It is running (it only returns on cancel), and other calls are served meanwhile.
    assert_forecast(&forecast(&setup, "other", "Oslo"), "Oslo");
    handle.cancel();
    assert_eq!(handle.wait().to_canonical(), r#"{"Failed":"RateLimited"}"#);
}

#[test]
fn a_process_that_crashes_after_reading_a_call_makes_it_unknown() {
    let setup = bind(&fake(""), "crash-after");
    let reason = reason(&forecast(&setup, "crash-after-read-1", "Oslo"), "Unknown");
    assert!(reason.contains("after the call reached it") && reason.contains("exit status: 3"), "{reason}");
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
    assert_eq!(setup.host.connection(FORECAST).unwrap().starts(), 2);
}

#[test]
fn calls_out_when_the_process_crashes_are_all_unknown() {
    let setup = bind(&fake(""), "crash-many");
    // Held until "never" answers: out when the process crashes.
    let held = setup.host.call(FORECAST, CallKey::new("r", "hold-until=never"), &forecast_args("Oslo")).unwrap();
    assert_eq!(forecast(&setup, "crash-after-read-2", "Oslo").case(), "Unknown");
    assert_eq!(held.wait().case(), "Unknown");
    assert_forecast(&forecast(&setup, "3", "Bergen"), "Bergen");
}

#[test]
fn a_second_reply_is_dropped_and_logged() {
    let setup = bind(&fake(""), "twice");
    assert_forecast(&forecast(&setup, "twice-1", "Oslo"), "Oslo");
    // The fake writes in order, so the duplicate is read before this reply.
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
    assert!(setup.logged(r#"dropped a reply for (run "r", call "twice-1"), which is not open"#), "{:?}", setup.log);
}

#[test]
fn a_reply_for_an_unknown_call_is_dropped_and_logged() {
    let setup = bind(&fake(""), "stray");
    assert_forecast(&forecast(&setup, "stray-1", "Oslo"), "Oslo");
    assert!(setup.logged(r#"dropped a reply for (run "r", call "stray-unknown"), which is not open"#));
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
}

#[test]
fn an_oversized_reply_is_a_bad_reply() {
    let setup = bind(&fake(""), "oversized");
    let reason = reason(&forecast(&setup, "oversized-1", "Oslo"), "BadReply");
    assert!(reason.contains("more than the limit of 16777216") && reason.ends_with("[too-large]"), "{reason}");
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
}

#[test]
fn a_garbage_line_is_logged_and_changes_nothing() {
    let setup = bind(&fake(""), "garbage");
    assert_forecast(&forecast(&setup, "garbage-1", "Oslo"), "Oslo");
    assert!(setup.logged("dropped a line: Parse error"), "{:?}", setup.log);
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
}

#[test]
fn malformed_outcomes_and_values_of_another_type_are_bad_replies() {
    let setup = bind(&fake(""), "malformed");
    let malformed = reason(&forecast(&setup, "malformed-1", "Oslo"), "BadReply");
    assert!(
        malformed.starts_with("$.params.outcome: malformed outcome") && malformed.ends_with("[shape]"),
        "{malformed}"
    );
    let reason = reason(&forecast(&setup, "badvalue-1", "Oslo"), "BadReply");
    assert_eq!(reason, "$.params.outcome.Ok: expected an object, found a number [type]");
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
}

#[test]
fn a_reply_whose_envelope_is_malformed_is_a_bad_reply_for_its_call() {
    let setup = bind(&fake(""), "envelope");
    for (call, member) in
        [("envelope-id-null-1", "$.id"), ("envelope-extra-1", "$.extra"), ("envelope-1.0-1", "$.jsonrpc")]
    {
        let why = reason(&forecast(&setup, call, "Oslo"), "BadReply");
        assert!(
            why.starts_with(&format!("malformed envelope: {member}: ")) && why.ends_with("[shape]"),
            "{call}: {why}"
        );
    }
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
}

#[test]
fn a_call_past_the_depth_limit_counted_from_the_message_is_not_sent() {
    let setup = bind(&test_tool(), "depth");
    let json_value = [Term::Prim(flow_core::types::Prim::JsonValue)];
    let nested = |n: usize| json(&format!(r#"{{"value":{}{}}}"#, "[".repeat(n), "]".repeat(n)));
    // The message 1, params 2, args 3: a value in args may nest 125 levels.
    let echoed = setup.host.call_with(ECHO, CallKey::new("r", "d125"), &nested(125), &json_value).unwrap().wait();
    assert!(echoed.to_canonical().starts_with(r#"{"Ok":[[[["#), "{echoed:?}");
    let why = reason(
        &setup.host.call_with(ECHO, CallKey::new("r", "d126"), &nested(126), &json_value).unwrap().wait(),
        "NotRun",
    );
    assert!(
        why.starts_with("the call was not sent: $: the message would nest") && why.ends_with("[too-deep]"),
        "{why}"
    );
}

#[test]
fn replies_out_of_order_are_matched_by_their_pair() {
    let setup = bind(&fake(""), "order");
    let first = setup.host.call(FORECAST, CallKey::new("r", "hold-until=second"), &forecast_args("First")).unwrap();
    let second = setup.host.call(FORECAST, CallKey::new("r", "second"), &forecast_args("Second")).unwrap();
    assert_forecast(&second.wait(), "Second");
    assert_forecast(&first.wait(), "First");
}

#[test]
fn another_data_major_is_a_version_refusal() {
    let (options, _) = options();
    let refusals = Host::bind(&listing(), &resolver(&fake("--data 1.0"), &scratch("major")), options).err().unwrap();
    assert_eq!(refusals.len(), 4);
    assert!(refusals.iter().all(|r| r.kind == RefusalKind::Version), "{refusals:?}");
    assert!(refusals[0].reason.contains("major 1"), "{}", refusals[0]);
    // A minor only adds: still bound.
    bind(&fake("--data 0.7"), "minor");
}

#[test]
fn a_fingerprint_mismatch_is_refused_by_name() {
    let (options, _) = options();
    let refusals =
        Host::bind(&listing(), &resolver(&fake("--bad-fingerprint get_forecast"), &scratch("mismatch")), options)
            .err()
            .unwrap();
    assert_eq!(refusals.len(), 1);
    assert_eq!((refusals[0].tool.as_str(), refusals[0].kind), (FORECAST, RefusalKind::Mismatch));
    assert!(refusals[0].reason.contains("sha256:0000"));
}

#[test]
fn unbound_declarations_are_refused() {
    let (options, _) = options();
    let mut resolver = resolver(&test_tool(), &scratch("unbound"));
    resolver.overrides.remove(STATIONS);
    let refusals = Host::bind(&listing(), &resolver, options).err().unwrap();
    assert_eq!(refusals.len(), 1);
    assert_eq!((refusals[0].tool.as_str(), refusals[0].kind), (STATIONS, RefusalKind::Unbound));
}

#[test]
fn a_tool_no_longer_served_after_a_restart_is_not_run() {
    let state = scratch("drop-state");
    let setup =
        bind(&fake(&format!("--state {} --drop-after-restart get_forecast", quote(state.to_str().unwrap()))), "drop");
    assert_forecast(&forecast(&setup, "1", "Oslo"), "Oslo");
    assert_eq!(forecast(&setup, "crash-after-read-2", "Oslo").case(), "Unknown");
    let reason = reason(&forecast(&setup, "3", "Oslo"), "NotRun");
    assert!(reason.contains("no longer fits: its process does not serve it"), "{reason}");
    // The restarted process still serves the others.
    let region = json(r#"{"region":{"name":"north","children":[]},"cursor":"None"}"#);
    assert!(setup.host.call(STATIONS, CallKey::new("r", "4"), &region).unwrap().wait().is_ok());
}

#[test]
fn a_command_that_cannot_start_is_unavailable() {
    let (options, _) = options();
    let refusals =
        Host::bind(&listing(), &resolver("/nonexistent/flow-tool --x", &scratch("nostart")), options).err().unwrap();
    assert!(
        refusals.iter().all(|r| r.kind == RefusalKind::Unavailable && r.reason.contains("could not start")),
        "{refusals:?}"
    );
}
