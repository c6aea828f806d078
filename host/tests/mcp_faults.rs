//! The MCP adapter against a hostile server (`flow-fake-mcp`): junk between
//! answers, pings, answers too large or unreadable, error responses, calls
//! never answered, a server that exits, tools in pages, a probe nobody
//! answers. No line from the server stops the adapter; each call still gets
//! an outcome.

mod mcp_servers;

use std::time::Duration;

use flow_core::manifest::Runner;
use flow_core::Limits;
use flow_host::{Binding, Host, HostOptions, ProcessSpec, RefusalKind, Resolver};
use flow_mcp::adapter::McpAdapter;
use flow_mcp::client::McpOptions;
use flow_mcp::version::Era;
use flow_protocol::{CallKey, CallOutcome};
use mcp_servers::{json, listing, options, quote, repo, Setup};

const REPO: &str = "example.com/fake-mcp@0.1.0/fake.flow";

fn tool(name: &str) -> String {
    format!("{REPO}.{name}")
}

fn fake(flags: &str) -> String {
    format!("{} {flags}", quote(env!("CARGO_BIN_EXE_flow-fake-mcp")))
}

/// Every fake tool bound to `fake(flags)`, with a 64 KiB line limit.
fn bind(flags: &str) -> Result<Setup, Vec<flow_host::Refusal>> {
    let listing = listing("fake.tools.json");
    let mut resolver = Resolver::default();
    for decl in &listing.tools {
        let binding = Binding { runner: Runner::Mcp(fake(flags)), dir: repo(), origin: "test override".into() };
        resolver.overrides.insert(decl.tool.clone(), binding);
    }
    let (options, log) = options();
    let options = HostOptions { limits: Limits { max_bytes: 64 * 1024, ..Limits::default() }, ..options };
    Host::bind(&listing, &resolver, options).map(|host| Setup { host, log })
}

fn call(setup: &Setup, name: &str, id: &str) -> CallOutcome {
    setup.host.call(&tool(name), CallKey::new("r", id), &json("{}")).unwrap().wait()
}

fn bad_reply(outcome: CallOutcome) -> String {
    match outcome {
        CallOutcome::BadReply(why) => why,
        other => panic!("expected BadReply, got {other:?}"),
    }
}

#[test]
fn every_call_gets_an_outcome_whatever_the_server_writes() {
    let setup = bind("--modern --pages 3 --big 100000").unwrap_or_else(|r| panic!("{r:#?}"));
    let adapter = setup.host.mcp_adapter(&tool("ok")).unwrap();
    assert_eq!(adapter.connection().era(), Some(Era::Modern));
    // Ten tools over three pages, the eight declared all bound.
    assert_eq!(adapter.connection().tools().unwrap().len(), 10);

    assert_eq!(call(&setup, "ok", "1").to_canonical(), r#"{"Ok":{"n":1}}"#);
    // The server's ping was answered before it answered the call.
    assert_eq!(call(&setup, "ping-first", "2").to_canonical(), r#"{"Ok":{"n":2}}"#);
    let why = bad_reply(call(&setup, "big", "3"));
    assert!(why.contains("more than the message size limit of 65536 [too-large]"), "{why}");
    assert!(bad_reply(call(&setup, "dupe", "4")).contains("[duplicate-key]"));
    assert_eq!(
        bad_reply(call(&setup, "error", "5")),
        "the MCP server answered error -32603: the fake broke, not a result"
    );
    assert!(bad_reply(call(&setup, "needs-input", "6"))
        .contains("\"input_required\": the call waits for input the adapter cannot give"));

    let silent = setup.host.call(&tool("silent"), CallKey::new("r", "7"), &json("{}")).unwrap();
    silent.cancel();
    assert!(matches!(silent.wait(), CallOutcome::Unknown(why) if why.starts_with("cancelled")));

    match call(&setup, "exit", "8") {
        CallOutcome::Unknown(why) => assert!(why.contains("after the call reached it"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(call(&setup, "ok", "9").to_canonical(), r#"{"Ok":{"n":1}}"#);
    assert_eq!(adapter.connection().starts(), 2);
    assert!(setup.logged("dropped a line: not a readable JSON text"));
    assert!(setup.logged("server log (warning): fake log line"));
    assert!(setup.logged("dropped a response to id \"nobody-asked\", which is not open"));
    assert!(setup.logged("stderr: flow-fake-mcp: started"));
}

#[test]
fn a_probe_nobody_answers_falls_back_to_the_handshake() {
    let spec = ProcessSpec::new(env!("CARGO_BIN_EXE_flow-fake-mcp"), vec!["--silent-probe".to_owned()], repo());
    let (host, _log) = options();
    let options = McpOptions { probe_timeout: Duration::from_millis(100), ..McpOptions::from(&host) };
    let adapter = McpAdapter::new(spec, options);
    assert_eq!(adapter.connection().tools().unwrap().len(), 10);
    assert_eq!(adapter.connection().era(), Some(Era::Handshake("2025-06-18".to_owned())));
}

#[test]
fn a_server_that_cannot_start_or_list_is_unavailable() {
    let refusals = bind("--fail-list").err().expect("refused");
    assert_eq!(refusals.len(), 8);
    let why = "tools/list answered error -32000: no tools today";
    assert!(refusals.iter().all(|r| r.kind == RefusalKind::Unavailable && r.reason.contains(why)), "{refusals:#?}");
    let listing = listing("fake.tools.json");
    let resolver = mcp_servers::resolver(&listing, "/nonexistent/mcp-server");
    let refusals = Host::bind(&listing, &resolver, options().0).err().expect("refused");
    assert!(
        refusals.iter().all(|r| r.kind == RefusalKind::Unavailable && r.reason.contains("could not start")),
        "{refusals:#?}"
    );
}
