//! The MCP front, line by line, with the weather listing: both eras, every
//! method, refusals, cancels, and lines no client should send.

use super::*;
use crate::json::parse_str;
use crate::protocol::{CancelToken, StartedCall};
use crate::types::parse::listing_from_text;
use crate::value::Value;

const WEATHER: &[u8] = include_bytes!("../../../tests/examples/weather.tools.json");

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
    let r =
        one(&feed(&mut handshake, &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}"#)));
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
    let _ = feed(&mut modern, &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#));
    let r = one(&feed(
        &mut modern,
        r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    ));
    assert_eq!(error_code(&r), UNSUPPORTED_PROTOCOL_VERSION);
    assert_eq!(get(&r, &["error", "data"]).to_canonical(), r#"{"requested":"2025-11-25","supported":["2026-07-28"]}"#);
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
        Value::some(Value::Enum(crate::value::EnumValue {
            index: 1,
            name: "Imperial".into(),
            payload: crate::value::EnumPayload::None
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
    assert_eq!(generic.view.bindings, [("T".to_owned(), crate::types::Term::Prim(crate::types::Prim::JsonValue))]);
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
    let second = one(&feed(&mut front, r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"3"}}"#));
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
    let r = one(&front.finish(&call.key, HandlerResult::OkJson(big)).into_iter().map(Event::Write).collect::<Vec<_>>());
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
