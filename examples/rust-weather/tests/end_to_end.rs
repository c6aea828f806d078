//! The Rust weather Tool as a host runs it: the `rust-weather` binary, bound
//! through a flow.toml by fingerprint and called through flow-core's host
//! client. One case per outcome the spec names, plus cancellation, a re-sent
//! call and a generic call with its view. Nothing here times anything: the
//! cancelled call waits for its cancel, not for a clock.

use std::path::PathBuf;
use std::sync::Arc;

use flow_core::json::{parse_str, Json};
use flow_core::types::parse::{listing_from_text, term_from_json};
use flow_core::types::{Listing, Term};
use flow_core::Limits;
use flow_host::{Host, HostOptions, Resolver};
use flow_protocol::message::write_call;
use flow_protocol::{CallKey, CallOutcome, CallTypes};

const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
const STATIONS: &str = "github.com/acme/weather@1.2.0/weather.flow.list_stations";
const HISTORY: &str = "github.com/acme/weather@1.2.0/weather.flow.station_history";
const ECHO: &str = "github.com/acme/weather@1.2.0/weather.flow.echo";

fn listing() -> Listing {
    listing_from_text(include_bytes!("../../../tests/examples/weather.tools.json"), &Limits::default()).unwrap()
}

fn json(text: &str) -> Json {
    parse_str(text, &Limits::default()).unwrap()
}

/// A Tool repository whose flow.toml runs the binary, bound by fingerprint.
fn bind(name: &str) -> Host {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("rust-weather-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let binary = env!("CARGO_BIN_EXE_rust-weather").replace('\'', r"'\''");
    std::fs::write(dir.join("flow.toml"), format!("[tools.\"weather.flow\"]\ncommand = \"'{binary}'\"\n")).unwrap();
    let resolver = Resolver { manifest_dir: Some(PathBuf::from(&dir)), ..Resolver::default() };
    let options = HostOptions { quiet_stderr: true, log: Arc::new(|_| {}), ..HostOptions::default() };
    Host::bind(&listing(), &resolver, options).unwrap_or_else(|refusals| panic!("not bound: {refusals:?}"))
}

fn forecast(host: &Host, call: &str, city: &str) -> CallOutcome {
    let args = Json::object([("city", Json::str(city)), ("days", json("2")), ("units", Json::str("None"))]);
    host.call(FORECAST, CallKey::new("run", call), &args).unwrap().wait()
}

fn reason(outcome: &CallOutcome, case: &str) -> String {
    assert_eq!(outcome.case(), case, "{}", outcome.to_canonical());
    outcome.reason().unwrap().to_owned()
}

#[test]
fn ok_and_failed_replies_are_the_declared_types() {
    let host = bind("ok");
    assert_eq!(
        forecast(&host, "1", "Oslo").to_canonical(),
        concat!(
            r#"{"Ok":{"city":"Oslo","days":["#,
            r#"{"date":"2026-12-01","high_c":4,"low_c":-1,"sky":"Clear"},"#,
            r#"{"date":"2026-12-02","high_c":5,"low_c":-1,"rain_mm":0.25,"sky":{"Cloudy":41}}],"#,
            r#""issued":"2026-11-30T06:00:00Z","source":"rust-weather","tags":["metric","sample"]}}"#
        )
    );
    assert_eq!(
        forecast(&host, "2", "Nowhere").to_canonical(),
        r#"{"Failed":{"UnknownCity":{"query":"Nowhere","suggestions":["Oslo"]}}}"#
    );
    let too_many =
        Json::object([("city", Json::str("Oslo")), ("days", json("1e30")), ("units", json(r#"{"Some":"Imperial"}"#))]);
    let outcome = host.call(FORECAST, CallKey::new("run", "3"), &too_many).unwrap().wait();
    assert_eq!(outcome.to_canonical(), r#"{"Failed":{"Unavailable":"PT3600S"}}"#);

    let region = json(r#"{"region":{"name":"north","children":[{"name":"fjords","children":[]}]},"cursor":"None"}"#);
    let stations = host.call(STATIONS, CallKey::new("run", "4"), &region).unwrap().wait();
    assert_eq!(
        stations.to_canonical(),
        concat!(
            r#"{"Ok":{"items":["#,
            r#"{"id":0,"photo":"iVBORw==","position":[59.91,10.75],"raw":{"children":[],"region":"north"},"readings":{"pressure_hpa":1013.25}},"#,
            r#"{"id":1,"position":[59.91,10.75],"raw":{"children":[],"region":"north"},"readings":{"pressure_hpa":1013.25}}"#,
            r#"],"next":"2"}}"#
        )
    );
    let history = json(r#"{"station":7,"since":"2026-11-30T07:00:00+01:00","window":"PT0.5S","counts":[[2,3],[1,4]]}"#);
    let readings = host.call(HISTORY, CallKey::new("run", "5"), &history).unwrap().wait();
    assert_eq!(
        readings.to_canonical(),
        r#"{"Ok":[["2026-11-30T06:00:00Z",14],["2026-11-30T06:00:00.5Z",14.1],["2026-11-30T06:00:01Z",14.2]]}"#
    );
}

#[test]
fn args_that_do_not_decode_and_tools_not_served_are_not_run() {
    let host = bind("not-run");
    // The host client refuses such args before sending; a raw line on the
    // same connection shows what the Tool itself answers.
    let listing = listing();
    let decl = listing.tool(FORECAST).unwrap();
    let types = Arc::new(CallTypes::compile(&listing.declarations, &decl.params, &decl.ok, &decl.err).unwrap());
    let connection = host.connection(FORECAST).unwrap();
    let send = |call: &str, tool: &str, args: &str| {
        let key = CallKey::new("raw", call);
        connection.send(key.clone(), write_call(&key, tool, args, None), types.clone(), |_| Ok(())).wait()
    };
    let why = reason(&send("1", FORECAST, r#"{"city":"Oslo","days":"two","units":"None"}"#), "NotRun");
    assert!(why.contains("$.params.args.days: expected an Int (a number), found a string [type]"), "{why}");
    let why = reason(&send("2", FORECAST, r#"{"city":"Oslo","days":1}"#), "NotRun");
    assert!(why.contains("$.params.args.units: missing argument"), "{why}");
    let why = reason(&send("3", "github.com/acme/weather@1.2.0/weather.flow.nothing", "{}"), "NotRun");
    assert!(why.contains("serves no Tool"), "{why}");
    // The process goes on serving.
    assert!(forecast(&host, "4", "Oslo").is_ok());
}

#[test]
fn a_panic_is_unknown_and_the_process_goes_on() {
    let host = bind("panic");
    let why = reason(&forecast(&host, "1", "panic"), "Unknown");
    assert!(why.contains("panicked: asked to panic"), "{why}");
    assert!(forecast(&host, "2", "Oslo").is_ok());
    assert_eq!(host.connection(FORECAST).unwrap().starts(), 1, "the panic did not end the process");
}

#[test]
fn a_cancel_reaches_the_method() {
    let host = bind("cancel");
    let args =
        Json::object([("city", Json::str("wait-for-cancel")), ("days", json("1")), ("units", Json::str("None"))]);
    let waiting = host.call(FORECAST, CallKey::new("run", "held"), &args).unwrap();
    // The held call blocks no other call.
    assert!(forecast(&host, "other", "Bergen").is_ok());
    waiting.cancel();
    assert_eq!(waiting.wait().to_canonical(), r#"{"Failed":"RateLimited"}"#);
}

#[test]
fn a_call_sent_again_is_answered_without_running_twice() {
    let host = bind("again");
    let first = forecast(&host, "same", "count").to_canonical();
    assert!(first.contains(r#""city":"run 1""#), "{first}");
    // The same (run, call) pair: the same reply, and the method did not run.
    assert_eq!(forecast(&host, "same", "count").to_canonical(), first);
    let next = forecast(&host, "new", "count").to_canonical();
    assert!(next.contains(r#""city":"run 2""#), "{next}");
}

fn term(text: &str) -> Term {
    term_from_json(&json(text)).unwrap()
}

#[test]
fn a_generic_call_carries_its_view_and_echoes_at_its_type() {
    let host = bind("generic");
    let echo = |call: &str, value: &str, t: &str| {
        let args = Json::object([("value", json(value))]);
        host.call_with(ECHO, CallKey::new("run", call), &args, &[term(t)]).unwrap().wait().to_canonical()
    };
    assert_eq!(echo("1", "12345678901234567890123", r#""Int""#), r#"{"Ok":12345678901234567890123}"#);
    assert_eq!(echo("2", "[3, 1, 2]", r#"{"Set":"Int"}"#), r#"{"Ok":[1,2,3]}"#);
    assert_eq!(echo("3", r#""2026-11-30T07:00:00+01:00""#, r#""Instant""#), r#"{"Ok":"2026-11-30T06:00:00Z"}"#);
    let page = r#"{"Named":{"declaration":"5","args":[{"Named":{"declaration":"6","args":[]}}]}}"#;
    let value = r#"{"items":[{"id":1,"position":[1.50,2],"readings":{"b":1,"a":2},"raw":{"x":[null]},"extra":true}],"next":"n"}"#;
    assert_eq!(
        echo("4", value, page),
        r#"{"Ok":{"items":[{"id":1,"position":[1.5,2],"raw":{"x":[null]},"readings":{"a":2,"b":1}}],"next":"n"}}"#
    );
    // Option in a generic record field follows the substituted type.
    let page_of_option = r#"{"Named":{"declaration":"5","args":[{"Option":"Int"}]}}"#;
    assert_eq!(
        echo("5", r#"{"items":["None",{"Some":4}]}"#, page_of_option),
        r#"{"Ok":{"items":["None",{"Some":4}]}}"#
    );
}

/// The Tool decodes its args into its Rust types itself; a call whose args
/// do not decode gets, byte for byte, the NotRun reply the server core's own
/// decoding of args into values gives it.
#[test]
fn args_refused_by_the_rust_types_are_answered_as_the_core_answers_them() {
    use std::io::Write;
    use std::process::{Command, Stdio};

    let region = r#"{"name":"North","children":[]}"#;
    let cases: Vec<(&str, String)> = vec![
        (FORECAST, r#"{"city":"Oslo","days":"two","units":"None"}"#.into()),
        (FORECAST, r#"{"city":"Oslo","days":1}"#.into()),
        (FORECAST, r#"{"days":1,"units":"None"}"#.into()),
        (FORECAST, r#"{"city":"Oslo","days":1.5,"units":"None"}"#.into()),
        (FORECAST, r#"{"city":7,"days":1,"units":"None"}"#.into()),
        (FORECAST, r#"{"city":"Oslo","days":1,"units":"Metric"}"#.into()),
        (FORECAST, r#"{"city":"Oslo","days":1,"units":{"Some":"Kelvin"}}"#.into()),
        (FORECAST, r#"{"city":"Oslo","days":1,"units":{"Some":{"Metric":null}}}"#.into()),
        (FORECAST, r#"{"city":"Oslo","days":1,"units":{"Some":"Metric","x":1}}"#.into()),
        (FORECAST, r#"{"city":"Oslo","days":1,"units":"None","extra":true}"#.into()),
        (FORECAST, r#"{"city":"Oslo","days":"x","units":"None","extra":true}"#.into()),
        (FORECAST, r#"{"city":"Oslo","units":"None","extra":true}"#.into()),
        (STATIONS, r#"{"region":{"children":[]},"cursor":"None"}"#.into()),
        (
            STATIONS,
            format!(r#"{{"region":{{"name":"N","children":[{region},{{"name":1,"children":[]}}]}},"cursor":"None"}}"#),
        ),
        (STATIONS, format!(r#"{{"region":{region},"cursor":{{"Some":null}}}}"#)),
        (STATIONS, format!(r#"{{"region":{region},"cursor":"None","more":[]}}"#)),
        (HISTORY, r#"{"station":1,"since":"2024-13-01T00:00:00Z","window":"PT1H","counts":[]}"#.into()),
        (HISTORY, r#"{"station":1,"since":"2024-01-01T00:00:00Z","window":"1 hour","counts":[]}"#.into()),
        (HISTORY, r#"{"station":1,"since":"2024-01-01T00:00:00Z","window":"PT1H","counts":[[1,2],[1,3]]}"#.into()),
        (HISTORY, r#"{"station":1,"since":"2024-01-01T00:00:00Z","window":"PT1H","counts":[[1,2,3]]}"#.into()),
        (HISTORY, r#"{"station":1,"since":"2024-01-01T00:00:00Z","window":"PT1H","counts":{"1":2}}"#.into()),
    ];
    let lines: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, (tool, args))| write_call(&CallKey::new("r", i.to_string()), tool, args, None))
        .collect();

    let mut core = flow_protocol::ServerCore::from_listing(&listing()).unwrap();
    let mut expected = std::collections::BTreeMap::new();
    for (i, line) in lines.iter().enumerate() {
        let events = core.receive(line.trim_end().as_bytes());
        let written: Vec<String> = events
            .into_iter()
            .filter_map(|e| match e {
                flow_protocol::Event::Write(line) => Some(line),
                _ => None,
            })
            .collect();
        assert_eq!(written.len(), 1, "case {i}: the core answers at once, NotRun");
        assert!(written[0].contains("\"NotRun\""), "case {i}: {}", written[0]);
        expected.insert(i.to_string(), written[0].clone());
    }

    let mut child = Command::new(env!("CARGO_BIN_EXE_rust-weather"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(lines.concat().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let mut answered = std::collections::BTreeMap::new();
    for line in String::from_utf8(output.stdout).unwrap().split_inclusive('\n') {
        let reply = json(line.trim_end());
        let call =
            reply.as_object().and_then(|o| o.get("params")).and_then(|p| p.as_object()).and_then(|p| p.get("call"));
        answered.insert(call.and_then(Json::as_str).unwrap().to_owned(), line.to_owned());
    }
    assert_eq!(answered, expected);
}
