//! Every message rule of the server core, against the weather listing.

use super::*;
use crate::json::parse_str;
use crate::protocol::message::{METHOD_NOT_FOUND, PARSE_ERROR};
use crate::types::parse::listing_from_text;
use crate::Number;

const WEATHER: &[u8] = include_bytes!("../../../tests/examples/weather.tools.json");
const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
const HISTORY: &str = "github.com/acme/weather@1.2.0/weather.flow.station_history";
const ECHO: &str = "github.com/acme/weather@1.2.0/weather.flow.echo";

fn core() -> ServerCore {
    let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
    ServerCore::from_listing(&listing).unwrap()
}

fn call_line(run: &str, call: &str, tool: &str, args: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"call","params":{{"run":"{run}","call":"{call}","tool":"{tool}","args":{args}}}}}"#
    )
}

fn forecast(call: &str, days: &str) -> String {
    call_line("r1", call, FORECAST, &format!(r#"{{"city":"Oslo","days":{days},"units":"None"}}"#))
}

fn writes(events: &[Event]) -> Vec<Json> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Write(line) => {
                assert!(line.ends_with('\n'));
                Some(parse_str(line.trim_end(), &Limits::default()).unwrap())
            }
            _ => None,
        })
        .collect()
}

fn only_write(events: &[Event]) -> Json {
    let w = writes(events);
    assert_eq!(w.len(), 1, "{events:?}");
    w.into_iter().next().unwrap()
}

fn started(events: Vec<Event>) -> StartedCall {
    let mut starts: Vec<StartedCall> = events
        .into_iter()
        .filter_map(|e| match e {
            Event::Start(s) => Some(*s),
            _ => None,
        })
        .collect();
    assert_eq!(starts.len(), 1);
    starts.pop().unwrap()
}

fn member<'a>(json: &'a Json, path: &[&str]) -> &'a Json {
    path.iter().fold(json, |j, k| {
        j.as_object().and_then(|o| o.get(k)).unwrap_or_else(|| panic!("no {k} in {}", j.to_canonical()))
    })
}

/// The NotRun reason of a single reply.
fn not_run(events: &[Event]) -> String {
    let reply = only_write(events);
    member(&reply, &["params", "outcome", "NotRun"]).as_str().unwrap().to_owned()
}

#[test]
fn describe_answers_with_data_version_fingerprints_and_signatures() {
    let mut core = core();
    let reply = only_write(&core.receive(br#"{"jsonrpc":"2.0","id":"d1","method":"describe","params":{}}"#));
    assert_eq!(member(&reply, &["id"]), &Json::str("d1"));
    assert_eq!(member(&reply, &["result", "data"]), &Json::str("0.1"));
    let tools = member(&reply, &["result", "tools"]).as_array().unwrap();
    assert_eq!(tools.len(), 4);
    assert_eq!(member(&tools[0], &["tool"]), &Json::str(FORECAST));
    assert_eq!(
        member(&tools[0], &["fingerprint"]),
        &Json::str("sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077")
    );
    assert_eq!(
        member(&tools[3], &["fingerprint"]),
        &Json::str("sha256:f0c47b163440554ce0fde4a4817bdfe8b3caaa2407160dfab854468af3778ff7")
    );
    // The describe form keeps docs.
    assert!(member(&tools[0], &["signature"])
        .to_canonical()
        .contains("\"description\":\"One entry per day, today first.\""));
}

#[test]
fn json_rpc_errors_and_ignored_notifications() {
    let mut core = core();
    let error = only_write(&core.receive(br#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#));
    assert_eq!(member(&error, &["error", "code"]), &Json::Number(Number::from_i64(METHOD_NOT_FOUND)));
    assert_eq!(member(&error, &["id"]), &Json::Number(Number::from_i64(5)));

    let error = only_write(&core.receive(b"this is not json"));
    assert_eq!(member(&error, &["error", "code"]), &Json::Number(Number::from_i64(PARSE_ERROR)));
    assert_eq!(member(&error, &["id"]), &Json::Null);

    let events = core.receive(br#"{"jsonrpc":"2.0","method":"progress","params":{"x":1}}"#);
    assert!(writes(&events).is_empty());
    assert!(matches!(&events[..], [Event::Log(m)] if m.contains("unknown notification")));

    // A call without its pair cannot be answered: logged, nothing written.
    let events = core.receive(br#"{"jsonrpc":"2.0","method":"call","params":{"tool":"x","args":{}}}"#);
    assert!(writes(&events).is_empty());
    assert!(matches!(&events[..], [Event::Log(m)] if m.contains("$.params.run")));
}

#[test]
fn args_that_do_not_decode_are_not_run_with_path_and_rule() {
    let mut core = core();
    assert_eq!(
        not_run(&core.receive(forecast("c1", "\"three\"").as_bytes())),
        "$.params.args.days: expected an Int (a number), found a string [type]"
    );
    assert_eq!(
        not_run(&core.receive(forecast("c2", "1.5").as_bytes())),
        "$.params.args.days: expected an Int, found 1.5 [not-whole]"
    );
    let missing = call_line("r1", "c3", FORECAST, r#"{"city":"Oslo","days":1}"#);
    assert_eq!(not_run(&core.receive(missing.as_bytes())), "$.params.args.units: missing argument [missing-field]");
    let extra = call_line("r1", "c4", FORECAST, r#"{"city":"Oslo","days":1,"units":"None","x":1}"#);
    assert_eq!(not_run(&core.receive(extra.as_bytes())), "$.params.args.x: not a parameter of the Tool [shape]");
    let history =
        call_line("r1", "c5", HISTORY, r#"{"station":1,"since":"2024-13-01T00:00:00Z","window":"PT1S","counts":[]}"#);
    assert!(not_run(&core.receive(history.as_bytes())).starts_with("$.params.args.since: "));
    let unknown = call_line("r1", "c6", "github.com/acme/weather@1.2.0/weather.flow.nope", "{}");
    assert!(not_run(&core.receive(unknown.as_bytes())).ends_with("[unresolved]"));
    let deep = forecast("c7", &format!("{}1{}", "[".repeat(300), "]".repeat(300)));
    assert!(not_run(&core.receive(deep.as_bytes())).ends_with("[too-deep]"));
    assert_eq!(core.running(), 0);
}

#[test]
fn a_started_call_carries_decoded_args_and_its_reply_is_checked() {
    let mut core = core();
    let call = started(core.receive(forecast("c1", "2e0").as_bytes()));
    assert_eq!(call.key, CallKey::new("r1", "c1"));
    assert_eq!(call.tool, 0);
    assert_eq!(call.args[0], Value::Text("Oslo".into()));
    assert_eq!(call.args[1], Value::Int(2.into()));
    assert_eq!(call.args[2], Value::none());
    let error = parse_str(r#"{"RateLimited":null}"#, &Limits::default()).unwrap();
    let lines = core.finish(&call.key, HandlerResult::FailedJson(error));
    let reply = parse_str(lines[0].trim_end(), &Limits::default()).unwrap();
    // {"RateLimited": null} is not the encoding of a payload-less constructor.
    assert!(member(&reply, &["params", "outcome", "Unknown"]).as_str().unwrap().contains("not of the declared type"));

    let call = started(core.receive(forecast("c2", "1").as_bytes()));
    let lines = core.finish(&call.key, HandlerResult::FailedJson(Json::str("RateLimited")));
    assert_eq!(lines, vec!["{\"jsonrpc\":\"2.0\",\"method\":\"reply\",\"params\":{\"call\":\"c2\",\"outcome\":{\"Failed\":\"RateLimited\"},\"run\":\"r1\"}}\n"]);

    let call = started(core.receive(forecast("c3", "1").as_bytes()));
    let lines = core.finish(&call.key, HandlerResult::Ok(Value::Int(3.into())));
    assert!(lines[0].contains("\"Unknown\":\"the handler's result is not of the declared type: "), "{}", lines[0]);

    let call = started(core.receive(forecast("c4", "1").as_bytes()));
    let lines = core.finish(&call.key, HandlerResult::Error("boom".into()));
    assert!(lines[0].contains("\"Unknown\":\"the handler failed: boom\""));
    // Finishing twice writes nothing.
    assert!(core.finish(&call.key, HandlerResult::Error("again".into())).is_empty());

    let call = started(core.receive(forecast("c5", "1").as_bytes()));
    let lines = core.finish(&call.key, HandlerResult::NotRun("the args did not convert".into()));
    assert!(lines[0].contains("\"outcome\":{\"NotRun\":\"the args did not convert\"}"), "{}", lines[0]);

    let call = started(core.receive(forecast("c6", "1").as_bytes()));
    let lines = core.finish(&call.key, HandlerResult::Unknown("cancelled".into()));
    assert!(lines[0].contains("\"outcome\":{\"Unknown\":\"cancelled\"}"), "{}", lines[0]);
}

#[test]
fn a_pair_seen_again_never_runs_twice() {
    let mut core = core();
    let line = forecast("c1", "1");
    let call = started(core.receive(line.as_bytes()));
    // While it runs: not started again, nothing written now.
    let events = core.receive(line.as_bytes());
    assert!(events.iter().all(|e| matches!(e, Event::Log(_))), "{events:?}");
    let reply = core.finish(&call.key, HandlerResult::FailedJson(Json::str("RateLimited")));
    assert_eq!(reply.len(), 1);
    // Finished: the same line again, even with other args.
    for again in [line.clone(), forecast("c1", "\"bad\"")] {
        let events = core.receive(again.as_bytes());
        let lines: Vec<&String> =
            events.iter().filter_map(|e| if let Event::Write(l) = e { Some(l) } else { None }).collect();
        assert_eq!(lines, vec![&reply[0]]);
        assert!(!events.iter().any(|e| matches!(e, Event::Start(_))));
    }
    // A NotRun is remembered too.
    let bad = forecast("c2", "\"x\"");
    let first = only_write(&core.receive(bad.as_bytes()));
    assert_eq!(only_write(&core.receive(forecast("c2", "1").as_bytes())), first);
}

#[test]
fn the_memory_of_finished_pairs_is_bounded() {
    let mut core = core().with_memory(2);
    for c in ["a", "b", "c"] {
        let call = started(core.receive(forecast(c, "1").as_bytes()));
        core.finish(&call.key, HandlerResult::FailedJson(Json::str("RateLimited")));
    }
    // "a" is the oldest and was forgotten: it runs again. "c" is remembered.
    started(core.receive(forecast("a", "1").as_bytes()));
    assert!(only_write(&core.receive(forecast("c", "1").as_bytes())).to_canonical().contains("RateLimited"));
}

#[test]
fn cancel_reaches_the_running_calls_token() {
    let mut core = core();
    let call = started(core.receive(forecast("c1", "1").as_bytes()));
    assert!(!call.cancel.is_cancelled());
    let events = core.receive(br#"{"jsonrpc":"2.0","method":"cancel","params":{"run":"r1","call":"c1"}}"#);
    assert!(matches!(&events[..], [Event::Cancel(k)] if *k == call.key));
    assert!(call.cancel.is_cancelled());
    // A cancel of a call that is not running changes nothing.
    let events = core.receive(br#"{"jsonrpc":"2.0","method":"cancel","params":{"run":"r1","call":"zz"}}"#);
    assert!(matches!(&events[..], [Event::Log(_)]));
}

fn echo_call(call: &str, schema: Option<&str>, types: Option<&str>, value: &str) -> String {
    let mut params = format!(r#""run":"r","call":"{call}","tool":"{ECHO}","args":{{"value":{value}}}"#);
    if let Some(s) = schema {
        params.push_str(&format!(r#","schema":{s}"#));
    }
    if let Some(t) = types {
        params.push_str(&format!(r#","types":{t}"#));
    }
    format!(r#"{{"jsonrpc":"2.0","method":"call","params":{{{params}}}}}"#)
}

const INT_VIEW: &str = r#"{"bindings":[{"name":"T","type":"Int"}],"params":[{"name":"value","type":"Int"}],"ok":"Int","err":"Never","declarations":{}}"#;

#[test]
fn generic_calls_need_valid_views() {
    let mut core = core();
    let reason = not_run(&core.receive(echo_call("g1", None, Some(INT_VIEW), "1").as_bytes()));
    assert!(reason.starts_with("$.params.schema: ") && reason.ends_with("[missing-field]"), "{reason}");
    let reason = not_run(&core.receive(echo_call("g2", Some(r#"{"type":"integer"}"#), Some("null"), "1").as_bytes()));
    assert!(reason.starts_with("$.params.types: ") && reason.ends_with("[missing-field]"), "{reason}");
    let reason = not_run(&core.receive(echo_call("g3", Some(r#"{"type":"string"}"#), Some(INT_VIEW), "1").as_bytes()));
    assert!(reason.starts_with("$.params.schema: ") && reason.ends_with("[view-mismatch]"), "{reason}");
    let bad_view = INT_VIEW.replace(r#""ok":"Int""#, r#""ok":"Text""#);
    let reason = not_run(&core.receive(echo_call("g4", Some(r#"{"type":"string"}"#), Some(&bad_view), "1").as_bytes()));
    assert!(reason.starts_with("$.params.types") && reason.ends_with("[view-mismatch]"), "{reason}");
    let reason =
        not_run(&core.receive(echo_call("g5", Some(r#"{"type":"integer"}"#), Some(INT_VIEW), "\"one\"").as_bytes()));
    assert!(reason.starts_with("$.params.args.value: ") && reason.ends_with("[type]"), "{reason}");

    // A nongeneric call carrying a view is refused too.
    let line = forecast("g6", "1").replace(r#""args""#, r#""types":{},"args""#);
    assert_eq!(
        not_run(&core.receive(line.as_bytes())),
        format!("$.params.types: a call of the nongeneric Tool {FORECAST} carries no types [shape]")
    );

    let call = started(core.receive(echo_call("g7", Some(r#"{"type":"integer"}"#), Some(INT_VIEW), "10.0").as_bytes()));
    let generic = call.generic.as_ref().unwrap();
    assert_eq!(call.args, vec![Value::Int(10.into())]);
    assert_eq!(generic.args_json, vec![Json::Number(Number::from_i64(10))]);
    assert_eq!(generic.schema.to_canonical(), r#"{"type":"integer"}"#);
    let lines = core.finish(&call.key, HandlerResult::OkJson(generic.args_json[0].clone()));
    assert!(lines[0].contains(r#""outcome":{"Ok":10}"#));
}

#[test]
fn oversized_calls_are_not_run_and_oversized_replies_unknown() {
    let mut core = core().with_limits(Limits { max_bytes: 400, ..Limits::default() });
    let line = forecast("big", &format!("\"{}\"", "x".repeat(500)));
    assert!(not_run(&core.receive(line.as_bytes())).ends_with("[too-large]"));
    let call = started(core.receive(forecast("c1", "1").as_bytes()));
    let lines = core.finish(&call.key, HandlerResult::OkJson(Json::str("y".repeat(500))));
    // Not of the type anyway; a big value of the right type:
    assert!(lines[0].contains("Unknown"));
    let call = started(core.receive(
        echo_call("g", Some(r#"{"type":"string"}"#), Some(&INT_VIEW.replace("Int", "Text")), "\"a\"").as_bytes(),
    ));
    let lines = core.finish(&call.key, HandlerResult::OkJson(Json::str("y".repeat(500))));
    assert!(lines[0].len() <= 401);
    assert!(lines[0].contains("more than the message size limit of 400 [too-large]"), "{}", lines[0]);
}

/// The reply line of `value`, a JSON text the Text/json echo returns.
fn reply_of(core: &mut ServerCore, call: &str, schema: &str, view: &str, value: Json) -> String {
    let call = started(core.receive(echo_call(call, Some(schema), Some(view), "\"a\"").as_bytes()));
    let mut lines = core.finish(&call.key, HandlerResult::OkJson(value));
    assert_eq!(lines.len(), 1);
    lines.pop().unwrap()
}

#[test]
fn a_reply_of_exactly_the_size_limit_is_sent_one_more_byte_is_unknown() {
    let limit = 400;
    let mut core = core().with_limits(Limits { max_bytes: limit, ..Limits::default() });
    let view = INT_VIEW.replace("Int", "Text");
    let schema = r#"{"type":"string"}"#;
    let base = reply_of(&mut core, "size0", schema, &view, Json::str("")).len() - 1;
    // The same call id length, so only the value's length differs.
    let at = reply_of(&mut core, "size1", schema, &view, Json::str("y".repeat(limit - base)));
    assert_eq!(at.len(), limit + 1, "the line is the limit plus its \\n");
    assert!(at.contains(r#""outcome":{"Ok":"yyy"#), "{at}");
    let over = reply_of(&mut core, "size2", schema, &view, Json::str("y".repeat(limit - base + 1)));
    assert!(
        over.contains(
            r#""outcome":{"Unknown":"the handler's reply could not be sent: $: the message would be 401 bytes"#
        ),
        "{over}"
    );
    assert!(over.contains("more than the message size limit of 400 [too-large]"), "{over}");
}

#[test]
fn a_reply_deeper_than_the_limit_counted_from_the_message_is_unknown() {
    let mut core = core();
    let view = r#"{"bindings":[{"name":"T","type":"json.Value"}],"params":[{"name":"value","type":"json.Value"}],"ok":"json.Value","err":"Never","declarations":{}}"#;
    let nested = |n: usize| parse_str(&format!("{}{}", "[".repeat(n), "]".repeat(n)), &Limits::default()).unwrap();
    // The message 1, params 2, outcome 3: the value starts at level 4.
    let fits = reply_of(&mut core, "d125", "{}", view, nested(125));
    assert!(fits.contains(r#""outcome":{"Ok":[[[["#), "{fits}");
    assert_eq!(crate::protocol::outgoing::depth(fits.trim_end().as_bytes()), 128);
    let deep = reply_of(&mut core, "d126", "{}", view, nested(126));
    assert!(
        deep.contains(
            r#""outcome":{"Unknown":"the handler's reply could not be sent: $: the message would nest 129 levels deep"#
        ),
        "{deep}"
    );
    assert!(deep.contains(r#"[too-deep]"},"run":"r"}}"#), "{deep}");
}
