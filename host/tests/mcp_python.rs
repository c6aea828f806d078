//! The MCP adapter against a server written with the official Python SDK
//! (`tests/mcp/python_server.py`), which serves the 2026-07-28 era: in
//! process through the host, and as `flow-host mcp-adapter`.

mod mcp_servers;

use std::process::Command;

use flow_core::manifest::Runner;
use flow_host::{Binding, Host, RefusalKind, Resolver};
use flow_mcp::version::Era;
use flow_protocol::{CallKey, CallOutcome};
use mcp_servers::*;

const LISTING: &str = "python-server.tools.json";
const REPO: &str = "github.com/acme/mcp-test@0.1.0/server.flow";

fn tool(name: &str) -> String {
    format!("{REPO}.{name}")
}

fn call(setup: &Setup, name: &str, id: &str, args: &str) -> CallOutcome {
    setup.host.call(&tool(name), CallKey::new("run-1", id), &json(args)).unwrap().wait()
}

fn bad_reply(outcome: CallOutcome) -> String {
    match outcome {
        CallOutcome::BadReply(why) => why,
        other => panic!("expected BadReply, got {other:?}"),
    }
}

#[test]
fn the_modern_era_serves_structured_results_and_option_arguments() {
    let setup = bind(&listing(LISTING), &python_server());
    let adapter = setup.host.mcp_adapter(&tool("add")).unwrap();
    assert_eq!(adapter.connection().era(), Some(Era::Modern));
    assert!(setup.logged("server/discover: speaking 2026-07-28"));
    // The server's stderr is a log.
    assert!(setup.logged("stderr: flow-adapter-test: serving on stdio"));

    assert_eq!(call(&setup, "add", "1", r#"{"a":2,"b":40}"#).to_canonical(), r#"{"Ok":{"terms":[2,40],"total":42}}"#);
    // None is an argument left out, so the server's default applies; Some is the value.
    assert_eq!(
        call(&setup, "greet", "2", r#"{"name":"Ada","greeting":"None"}"#).to_canonical(),
        r#"{"Ok":{"text":"Hello, Ada!"}}"#
    );
    assert_eq!(
        call(&setup, "greet", "3", r#"{"name":"Ada","greeting":{"Some":"Hi"}}"#).to_canonical(),
        r#"{"Ok":{"text":"Hi, Ada!"}}"#
    );
    assert_eq!(
        call(&setup, "divide", "4", r#"{"a":7,"b":2}"#).to_canonical(),
        r#"{"Ok":{"quotient":3,"remainder":1}}"#
    );
}

#[test]
fn an_error_result_is_the_declared_error_and_what_cannot_be_mapped_is_bad_reply() {
    let setup = bind(&listing(LISTING), &python_server());
    assert_eq!(
        call(&setup, "divide", "1", r#"{"a":7,"b":0}"#).to_canonical(),
        r#"{"Failed":{"DivisionByZero":{"dividend":7}}}"#
    );
    // The SDK answers a ToolError with an isError text that is not JSON.
    let why = bad_reply(call(&setup, "divide", "2", r#"{"a":7,"b":-1}"#));
    assert!(
        why.starts_with("$.result.content[0].text: no structuredContent, and the one text block is not JSON"),
        "{why}"
    );
    assert!(why.contains("negative divisors are not supported"), "{why}");
    // pydantic writes None as null: not an Option<Text> field's encoding.
    assert_eq!(
        bad_reply(call(&setup, "note", "3", "{}")),
        "$.result.structuredContent.text: expected a string, found null [type]"
    );
}

#[test]
fn a_cancel_reaches_the_server_and_the_call_is_unknown() {
    let setup = bind(&listing(LISTING), &python_server());
    let slow = setup.host.call(&tool("slow"), CallKey::new("run-1", "slow-1"), &json("{}")).unwrap();
    // Wait until the tool runs, so the cancel stops running work.
    assert_eq!(call(&setup, "slow_started", "1", "{}").to_canonical(), r#"{"Ok":{"started":true}}"#);
    slow.cancel();
    match slow.wait() {
        CallOutcome::Unknown(why) => {
            assert!(why.starts_with("cancelled: the MCP server was sent notifications/cancelled"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(call(&setup, "was_cancelled", "2", "{}").to_canonical(), r#"{"Ok":{"cancelled":true}}"#);
    // The id is free again for another run.
    let again =
        setup.host.call(&tool("add"), CallKey::new("run-2", "slow-1"), &json(r#"{"a":1,"b":1}"#)).unwrap().wait();
    assert!(again.is_ok(), "{again:?}");
}

#[test]
fn a_server_that_ends_mid_call_is_unknown_and_started_again() {
    let setup = bind(&listing(LISTING), &python_server());
    let pid = |id: &str| call(&setup, "pid", id, "{}").to_canonical();
    let first = pid("1");
    match call(&setup, "crash", "2", "{}") {
        CallOutcome::Unknown(why) => {
            assert!(why.contains("ended") && why.contains("after the call reached it"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    let second = pid("3");
    assert!(second.starts_with(r#"{"Ok":{"pid":"#), "{second}");
    assert_ne!(first, second);
    assert_eq!(setup.host.mcp_adapter(&tool("pid")).unwrap().connection().starts(), 2);
}

#[test]
fn a_declaration_the_server_offers_no_tool_for_is_unbound() {
    let mut listing = listing(LISTING);
    let mut vanished = listing.tool(&tool("pid")).unwrap().clone();
    vanished.tool = tool("vanished");
    listing.tools.push(vanished);
    let refusals = match try_bind(&listing, &python_server()) {
        Ok(_) => panic!("bound a tool the server does not offer"),
        Err(refusals) => refusals,
    };
    assert_eq!(refusals.len(), 1, "{refusals:#?}");
    assert_eq!(refusals[0].tool, tool("vanished"));
    assert_eq!(refusals[0].kind, RefusalKind::Unbound);
    assert!(
        refusals[0].reason.contains("offers no tool named \"vanished\" (it offers: add, crash, divide,"),
        "{}",
        refusals[0].reason
    );
}

fn flow_host(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_flow-host")).args(args).current_dir(repo()).output().unwrap()
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn flow_host_binds_mcp_in_flow_toml_and_serves_the_adapter_as_a_command() {
    let listing_path = repo().join("tests/mcp").join(LISTING);
    let listing_arg = listing_path.to_str().unwrap();
    let dir = manifest("python", &format!("[tools.\"server.flow\"]\nmcp = {}\n", toml_string(&python_server())));
    let check = flow_host(&["check", listing_arg, "--manifest", dir.to_str().unwrap()]);
    assert_eq!(stdout(&check), "ok: 9 Tools bound and fitting\n");
    let add =
        flow_host(&["call", listing_arg, "add", "--args", r#"{"a":1,"b":2}"#, "--manifest", dir.to_str().unwrap()]);
    assert_eq!(stdout(&add), "{\"Ok\":{\"terms\":[1,2],\"total\":3}}\n");
    let note = flow_host(&["call", listing_arg, "note", "--args", "{}", "--manifest", dir.to_str().unwrap()]);
    assert_eq!(
        stdout(&note),
        "{\"BadReply\":\"$.result.structuredContent.text: expected a string, found null [type]\"}\n"
    );
    assert_eq!(note.status.code(), Some(4));

    // The adapter as a process, bound as a command: the same outcomes, and
    // BadReply, which a reply cannot carry, as Unknown with its reason.
    let adapter =
        format!("{} mcp-adapter {} -- {}", quote(env!("CARGO_BIN_EXE_flow-host")), quote(listing_arg), python_server());
    let dir = manifest("python-command", &format!("[tools.\"server.flow\"]\ncommand = {}\n", toml_string(&adapter)));
    let add =
        flow_host(&["call", listing_arg, "add", "--args", r#"{"a":1,"b":2}"#, "--manifest", dir.to_str().unwrap()]);
    assert_eq!(stdout(&add), "{\"Ok\":{\"terms\":[1,2],\"total\":3}}\n");
    let divide =
        flow_host(&["call", listing_arg, "divide", "--args", r#"{"a":1,"b":0}"#, "--manifest", dir.to_str().unwrap()]);
    assert_eq!(stdout(&divide), "{\"Failed\":{\"DivisionByZero\":{\"dividend\":1}}}\n");
    let note = flow_host(&["call", listing_arg, "note", "--args", "{}", "--manifest", dir.to_str().unwrap()]);
    assert_eq!(
        stdout(&note),
        "{\"Unknown\":\"BadReply: $.result.structuredContent.text: expected a string, found null [type]\"}\n"
    );
}

#[test]
fn the_adapter_process_describes_only_what_the_server_offers() {
    let mut listing = listing_with_vanished();
    listing.push('\n');
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-mcp-extra.tools.json");
    std::fs::write(&path, listing).unwrap();
    let server = python_server_words();
    let mut args = vec!["describe", "--", env!("CARGO_BIN_EXE_flow-host"), "mcp-adapter", path.to_str().unwrap(), "--"];
    args.extend(server.iter().map(String::as_str));
    let described = flow_host(&args);
    let text = stdout(&described);
    assert!(described.status.success(), "{text}{}", String::from_utf8_lossy(&described.stderr));
    let tools: Vec<&str> = text.lines().skip(2).map(|l| l.split_whitespace().next().unwrap()).collect();
    let expected: Vec<String> =
        ["add", "crash", "divide", "greet", "note", "pid", "slow", "slow_started", "was_cancelled"]
            .iter()
            .map(|n| tool(n))
            .collect();
    assert_eq!(tools, expected);
    assert!(String::from_utf8_lossy(&described.stderr)
        .contains(&format!("{} is unbound: the MCP server offers no tool named \"vanished\"", tool("vanished"))));
}

/// The listing's text with one more declaration, `vanished`, that the
/// server does not offer.
fn listing_with_vanished() -> String {
    let text = std::fs::read_to_string(repo().join("tests/mcp").join(LISTING)).unwrap();
    let entry =
        format!(r#"{{"tool":"{}","doc":null,"generic":[],"params":[],"ok":"Int","err":"Never"}},"#, tool("vanished"));
    text.replacen("\"tools\": [", &format!("\"tools\": [{entry}"), 1)
}

#[test]
fn the_adapter_process_cancels_and_restarts_like_the_library() {
    let listing_path = repo().join("tests/mcp").join(LISTING);
    let adapter = format!(
        "{} mcp-adapter {} -- {}",
        quote(env!("CARGO_BIN_EXE_flow-host")),
        quote(listing_path.to_str().unwrap()),
        python_server()
    );
    let listing = listing(LISTING);
    let mut resolver = Resolver::default();
    for decl in &listing.tools {
        let binding = Binding { runner: Runner::Command(adapter.clone()), dir: repo(), origin: "test override".into() };
        resolver.overrides.insert(decl.tool.clone(), binding);
    }
    let (options, log) = options();
    let setup = Setup { host: Host::bind(&listing, &resolver, options).unwrap_or_else(|r| panic!("{r:#?}")), log };
    let slow = setup.host.call(&tool("slow"), CallKey::new("run-1", "slow"), &json("{}")).unwrap();
    assert_eq!(call(&setup, "slow_started", "1", "{}").to_canonical(), r#"{"Ok":{"started":true}}"#);
    slow.cancel();
    assert!(matches!(slow.wait(), CallOutcome::Unknown(why) if why.starts_with("cancelled: ")));
    assert_eq!(call(&setup, "was_cancelled", "2", "{}").to_canonical(), r#"{"Ok":{"cancelled":true}}"#);
    // The MCP server ends inside the adapter process, which lives on and
    // starts it again: the Flow side sees no process end.
    assert!(
        matches!(call(&setup, "crash", "3", "{}"), CallOutcome::Unknown(why) if why.contains("after the call reached it"))
    );
    assert!(call(&setup, "pid", "4", "{}").is_ok());
    assert_eq!(setup.host.connection(&tool("pid")).unwrap().starts(), 1);
}
