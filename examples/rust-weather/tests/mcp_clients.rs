//! The Rust weather Tool served to MCP clients (`rust-weather --mcp`), driven
//! by the official clients: the Python SDK's `Client` in both eras (`auto`
//! probes `server/discover` and stays in 2026-07-28; `legacy` does the
//! `initialize` handshake) and the TypeScript SDK's `Client` with
//! `StdioClientTransport` (the handshake era). Each lists the tools and calls
//! every weather Tool, a refusal, the declared error and a cancelled call,
//! through `tests/mcp/clients/` scripts that report what the SDK made of each
//! answer; a recorder between client and Tool keeps the lines both ways.
//!
//! The clients are installed by `make mcp-servers`; a test that finds one
//! missing fails naming it. Nothing here times anything: the cancelled call
//! waits for its cancel, and the client's timeout only decides when to send it.

use std::path::{Path, PathBuf};
use std::process::Command;

use flow_core::json::{parse_str, Json};
use flow_core::Limits;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn installed(path: PathBuf, what: &str) -> String {
    assert!(path.exists(), "{} is missing: {what} is installed by `make mcp-servers` (run it from the repository root)", path.display());
    path.to_str().unwrap().to_owned()
}

fn python() -> String {
    installed(repo().join(".venv-mcp/bin/python"), "the MCP Python SDK's venv")
}

fn json(text: &str) -> Json {
    parse_str(text, &Limits::default()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The calls every client makes of the Rust weather Tool, in order, each
/// with what it must get back (`expect`, which the client scripts ignore):
/// `ok` (the structured content, which the one text block holds too),
/// `failed` (an `isError` result whose text is this JSON, with no structured
/// content) or `text` (an `isError` result with this text; a `...` at its end
/// matches any rest). `cancel` waits for its cancel; `then` comes after it.
/// Another language's weather Tool is driven by a plan of its own: the
/// inputs that fail or wait are its implementation's.
const RUST_PLAN: &str = r#"{
  "calls": [
    {"name": "get_forecast", "arguments": {"city": "Oslo", "days": 2},
     "expect": {"ok": {"city": "Oslo", "days": [
        {"date": "2026-12-01", "high_c": 4, "low_c": -1, "sky": "Clear"},
        {"date": "2026-12-02", "high_c": 5, "low_c": -1, "rain_mm": 0.25, "sky": {"Cloudy": 41}}],
        "issued": "2026-11-30T06:00:00Z", "source": "rust-weather", "tags": ["metric", "sample"]}}},
    {"name": "get_forecast", "arguments": {"city": "Oslo", "days": 1, "units": "Imperial"},
     "expect": {"ok": {"city": "Oslo", "days": [{"date": "2026-12-01", "high_c": 39.2, "low_c": 30.2, "sky": "Clear"}],
        "issued": "2026-11-30T06:00:00Z", "source": "rust-weather", "tags": ["imperial", "sample"]}}},
    {"name": "get_forecast", "arguments": {"city": "Nowhere", "days": 1},
     "expect": {"failed": {"UnknownCity": {"query": "Nowhere", "suggestions": ["Oslo"]}}}},
    {"name": "get_forecast", "arguments": {"city": "Oslo", "days": "two"},
     "expect": {"text": "NotRun: $.params.arguments.days: expected an Int (a number), found a string [type]"}},
    {"name": "get_forecast", "arguments": {"city": "Oslo", "days": 1, "units": {"Some": "Metric"}},
     "expect": {"text": "NotRun: $.params.arguments.units: ..."}},
    {"name": "list_stations", "arguments": {"region": {"name": "north", "children": []}, "cursor": "1"},
     "expect": {"ok": {"items": [
        {"id": 1, "position": [59.91, 10.75], "raw": {"children": [], "region": "north"}, "readings": {"pressure_hpa": 1013.25}},
        {"id": 2, "position": [59.91, 10.75], "raw": {"children": [], "region": "north"}, "readings": {"pressure_hpa": 1013.25}}]}}},
    {"name": "station_history",
     "arguments": {"station": 7, "since": "2026-01-01T01:00:00+01:00", "window": "PT0.5S", "counts": [[1, 2], [3, 4]]},
     "expect": {"ok": {"result": [["2026-01-01T00:00:00Z", 13], ["2026-01-01T00:00:00.5Z", 13.1], ["2026-01-01T00:00:01Z", 13.2]]}}},
    {"name": "echo", "arguments": {"value": {"b": [1, 2.50], "a": null}},
     "expect": {"ok": {"result": {"a": null, "b": [1, 2.5]}}}},
    {"name": "get_forcast", "arguments": {},
     "expect": {"text": "NotRun: $.params.name: no tool is named \"get_forcast\" (the tools are: get_forecast, list_stations, station_history, echo) [unresolved]"}},
    {"name": "get_forecast", "arguments": {"city": "panic", "days": 1},
     "expect": {"text": "Unknown: the handler failed: it panicked: asked to panic"}}
  ],
  "cancel": {"name": "get_forecast", "arguments": {"city": "wait-for-cancel", "days": 1}},
  "then": {"name": "echo", "arguments": {"value": "after the cancel"}, "expect": {"ok": {"result": "after the cancel"}}}
}"#;

/// A Tool process, and the plan its clients follow.
struct Served {
    name: &'static str,
    command: Vec<String>,
    plan: &'static str,
}

fn rust_weather() -> Served {
    Served { name: "rust", command: vec![env!("CARGO_BIN_EXE_rust-weather").to_owned(), "--mcp".to_owned()], plan: RUST_PLAN }
}

/// What a client saw, and the lines that passed between it and the Tool.
struct Run {
    plan: Json,
    report: Json,
    sent: Vec<Json>,
    received: Vec<Json>,
    status: String,
}

/// Runs a client script (`program`, `args`, the plan, then `-- CMD...`)
/// against `served` behind the recorder.
fn run(client: &str, served: &Served, program: &str, args: &[&str]) -> Run {
    let dir = std::env::temp_dir().join(format!("flow-mcp-{client}-{}-{}", served.name, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let recorder = repo().join("tests/mcp/clients/record.py");
    let output = Command::new(program)
        .args(args)
        .args([served.plan, "--"])
        .args([python().as_str(), recorder.to_str().unwrap(), dir.to_str().unwrap(), "--"])
        .args(&served.command)
        .current_dir(repo())
        .output()
        .unwrap_or_else(|e| panic!("{program} cannot be started: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{program} {args:?} failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let lines = |file: &str| -> Vec<Json> {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        text.lines().map(json).collect()
    };
    let run = Run {
        plan: json(served.plan),
        report: json(stdout.trim()),
        sent: lines("in"),
        received: lines("out"),
        status: std::fs::read_to_string(dir.join("status")).unwrap_or_default().trim().to_owned(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    run
}

fn python_client(mode: &str, served: &Served) -> Run {
    let script = repo().join("tests/mcp/clients/python_client.py");
    run(&format!("python-{mode}"), served, &python(), &[script.to_str().unwrap(), mode])
}

fn ts_client(served: &Served) -> Run {
    installed(repo().join("tests/mcp/node_modules/@modelcontextprotocol/sdk/package.json"), "the MCP TypeScript SDK");
    let script = repo().join("tests/mcp/clients/ts_client.mjs");
    run("ts", served, "node", &[script.to_str().unwrap()])
}

fn at<'a>(json: &'a Json, path: &[&str]) -> Option<&'a Json> {
    path.iter().try_fold(json, |j, key| j.as_object()?.get(key))
}

fn member<'a>(json: &'a Json, path: &[&str]) -> &'a Json {
    at(json, path).unwrap_or_else(|| panic!("no {path:?} in {}", json.to_canonical()))
}

fn is_error(result: &Json) -> bool {
    at(result, &["isError"]) == Some(&Json::Bool(true))
}

/// The one text block of a result.
fn text(result: &Json) -> &str {
    let content = member(result, &["content"]).as_array().unwrap();
    assert_eq!(content.len(), 1, "{}", result.to_canonical());
    member(&content[0], &["text"]).as_str().unwrap()
}

/// A result is what its plan step expects.
fn check_result(step: &Json, result: &Json) {
    let expect = member(step, &["expect"]).as_object().unwrap();
    let context = || format!("{} gave {}", step.to_canonical(), result.to_canonical());
    if let Some(value) = expect.get("ok") {
        assert!(!is_error(result), "{}", context());
        assert!(at(result, &["structuredContent"]) == Some(value), "{}", context());
        assert!(&json(text(result)) == value, "{}", context());
    } else if let Some(value) = expect.get("failed") {
        assert!(is_error(result), "{}", context());
        assert!(&json(text(result)) == value, "{}", context());
        assert!(at(result, &["structuredContent"]).is_none(), "{}", context());
    } else if let Some(Json::String(expected)) = expect.get("text") {
        assert!(is_error(result), "{}", context());
        match expected.strip_suffix("...") {
            Some(prefix) => assert!(text(result).starts_with(prefix), "{}", context()),
            None => assert_eq!(text(result), expected, "{}", context()),
        }
    } else {
        panic!("a plan step expects ok, failed or text: {}", step.to_canonical());
    }
}

/// What every client must have seen, whatever its era.
fn check_report(run: &Run) {
    let tools = member(&run.report, &["tools"]).as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| member(t, &["name"]).as_str().unwrap()).collect();
    assert_eq!(names, ["get_forecast", "list_stations", "station_history", "echo"]);
    let forecast = &tools[0];
    assert_eq!(member(forecast, &["description"]), &Json::str("Forecast for a city."));
    // units is an Option: it may be left out.
    assert_eq!(member(forecast, &["inputSchema", "required"]), &json(r#"["city","days"]"#));
    assert_eq!(member(forecast, &["outputSchema", "type"]), &Json::str("object"));
    assert_eq!(member(&tools[3], &["outputSchema"]), &json(r#"{"type":"object","properties":{"result":{}},"required":["result"]}"#));

    let steps = member(&run.plan, &["calls"]).as_array().unwrap();
    let results = member(&run.report, &["calls"]).as_array().unwrap();
    assert_eq!(steps.len(), results.len());
    for (step, result) in steps.iter().zip(results) {
        check_result(step, result);
    }
    let cancel = member(&run.report, &["cancel", "raised"]).as_str().unwrap();
    assert!(cancel.to_lowercase().contains("timed out"), "{cancel}");
    check_result(member(&run.plan, &["then"]), member(&run.report, &["then"]));
}

/// The cancel went out with the waiting call's id, nothing answered that
/// id, and the Tool ended by itself when its input ended: it waits for its
/// running calls first, so the cancel reached the waiting one.
fn check_cancel(run: &Run) {
    let arguments = member(&run.plan, &["cancel", "arguments"]);
    let waiting = run.sent.iter().find(|l| at(l, &["params", "arguments"]) == Some(arguments)).expect("the waiting call was sent");
    let id = member(waiting, &["id"]);
    let cancels: Vec<&Json> = run.sent.iter().filter(|l| at(l, &["method"]) == Some(&Json::str("notifications/cancelled"))).collect();
    assert_eq!(cancels.len(), 1);
    assert_eq!(member(cancels[0], &["params", "requestId"]), id);
    assert!(run.received.iter().all(|l| at(l, &["id"]) != Some(id)), "a response to the cancelled request {}", id.to_canonical());
    assert_eq!(run.status, "0", "the Tool did not end by itself");
}

/// Every result line the Tool wrote, for the requests the client sent.
fn results(run: &Run) -> Vec<&Json> {
    run.received.iter().filter_map(|l| at(l, &["result"])).collect()
}

#[test]
fn the_python_sdk_client_in_the_2026_era() {
    let run = python_client("auto", &rust_weather());
    assert_eq!(member(&run.report, &["protocolVersion"]), &Json::str("2026-07-28"));
    assert_eq!(member(&run.sent[0], &["method"]), &Json::str("server/discover"));
    // No handshake, and every result of the era says it is complete.
    assert!(run.sent.iter().all(|l| at(l, &["method"]) != Some(&Json::str("initialize"))));
    assert!(results(&run).iter().all(|r| at(r, &["resultType"]) == Some(&Json::str("complete"))));
    check_report(&run);
    check_cancel(&run);
}

#[test]
fn the_python_sdk_client_in_the_handshake_era() {
    let run = python_client("legacy", &rust_weather());
    assert_eq!(member(&run.report, &["protocolVersion"]), &Json::str("2025-11-25"));
    assert_eq!(member(&run.sent[0], &["method"]), &Json::str("initialize"));
    assert_eq!(member(&run.sent[1], &["method"]), &Json::str("notifications/initialized"));
    assert!(results(&run).iter().all(|r| at(r, &["resultType"]).is_none()));
    check_report(&run);
    check_cancel(&run);
}

#[test]
fn the_typescript_sdk_client_in_the_handshake_era() {
    let run = ts_client(&rust_weather());
    assert_eq!(member(&run.sent[0], &["method"]), &Json::str("initialize"));
    let version = member(&run.sent[0], &["params", "protocolVersion"]);
    assert_eq!(member(&run.received[0], &["result", "protocolVersion"]), version);
    check_report(&run);
    check_cancel(&run);
}

/// The other direction's client: a Flow host binding the served Tool through
/// its own MCP adapter (`mcp = "rust-weather --mcp"`) reads back what the
/// Flow protocol answers, Option arguments and the declared error included.
/// A success that is no object comes back wrapped, as from any MCP server, so
/// a declaration of the plain List is BadReply.
#[test]
fn the_flow_mcp_adapter_reads_back_what_the_tool_serves() {
    use flow_core::host::{Binding, Host, HostOptions, Resolver};
    use flow_core::manifest::Runner;
    use flow_core::protocol::{CallKey, CallOutcome};
    use flow_core::types::parse::listing_from_text;

    let listing = listing_from_text(include_bytes!("../../../tests/examples/weather.tools.json"), &Limits::default()).unwrap();
    let command = format!("'{}' --mcp", env!("CARGO_BIN_EXE_rust-weather").replace('\'', r"'\''"));
    let mut resolver = Resolver::default();
    for tool in &listing.tools {
        let binding = Binding { runner: Runner::Mcp(command.clone()), dir: repo(), origin: "test override".into() };
        resolver.overrides.insert(tool.tool.clone(), binding);
    }
    let options = HostOptions { quiet_stderr: true, log: std::sync::Arc::new(|_| {}), ..HostOptions::default() };
    let host = Host::bind(&listing, &resolver, options).unwrap_or_else(|r| panic!("{r:#?}"));
    let call = |tool: &str, id: &str, args: &str| -> CallOutcome {
        let identity = format!("github.com/acme/weather@1.2.0/weather.flow.{tool}");
        host.call(&identity, CallKey::new("run", id), &json(args)).unwrap().wait()
    };
    let outcome = call("get_forecast", "1", r#"{"city":"Oslo","days":1,"units":{"Some":"Imperial"}}"#);
    assert_eq!(
        outcome.to_canonical(),
        r#"{"Ok":{"city":"Oslo","days":[{"date":"2026-12-01","high_c":39.2,"low_c":30.2,"sky":"Clear"}],"issued":"2026-11-30T06:00:00Z","source":"rust-weather","tags":["imperial","sample"]}}"#
    );
    let failed = call("get_forecast", "2", r#"{"city":"Nowhere","days":1,"units":"None"}"#);
    assert_eq!(failed.to_canonical(), r#"{"Failed":{"UnknownCity":{"query":"Nowhere","suggestions":["Oslo"]}}}"#);
    let page = call("list_stations", "3", r#"{"region":{"name":"north","children":[]},"cursor":"None"}"#);
    assert!(page.to_canonical().ends_with(r#""next":"2"}}"#), "{}", page.to_canonical());
    match call("station_history", "4", r#"{"station":1,"since":"2026-01-01T00:00:00Z","window":"PT1S","counts":[]}"#) {
        CallOutcome::BadReply(why) => assert!(why == "$.result.structuredContent: expected an array, found an object [type]", "{why}"),
        other => panic!("{other:?}"),
    }
}
