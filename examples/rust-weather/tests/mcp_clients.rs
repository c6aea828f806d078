//! The Rust weather Tool served to MCP clients (`rust-weather --mcp`), driven
//! by the official clients through `tests/mcp/clients/drive.py` with the
//! plan `tests/mcp/clients/plans/rust-weather.json`: the Python SDK's
//! `Client` in both eras (`auto` probes `server/discover` and stays in
//! 2026-07-28; `legacy` does the `initialize` handshake) and the TypeScript
//! SDK's `Client` with `StdioClientTransport` (the handshake era). Each lists
//! the tools and calls every weather Tool, Option arguments left out and
//! given, a refusal, the declared error, an unknown tool, a panic and a
//! cancelled call; the harness checks each result, the era and the lines
//! both ways (see drive.py). Then a Flow host reads the served Tool back
//! through its own MCP adapter.
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
    assert!(
        path.exists(),
        "{} is missing: {what} is installed by `make mcp-servers` (run it from the repository root)",
        path.display()
    );
    path.to_str().unwrap().to_owned()
}

fn json(text: &str) -> Json {
    parse_str(text, &Limits::default()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// Runs the harness with `client` against `rust-weather --mcp`.
fn drive(client: &str) {
    let python = installed(repo().join(".venv-mcp/bin/python"), "the MCP Python SDK's venv");
    installed(repo().join("tests/mcp/node_modules/@modelcontextprotocol/sdk/package.json"), "the MCP TypeScript SDK");
    let output = Command::new(python)
        .arg(repo().join("tests/mcp/clients/drive.py"))
        .args([client, "tests/mcp/clients/plans/rust-weather.json", "--", env!("CARGO_BIN_EXE_rust-weather"), "--mcp"])
        .current_dir(repo())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.starts_with(&format!("ok: {client} rust-weather.json")), "{stdout}");
}

#[test]
fn the_python_sdk_client_in_the_2026_era() {
    drive("python-auto");
}

#[test]
fn the_python_sdk_client_in_the_handshake_era() {
    drive("python-legacy");
}

#[test]
fn the_typescript_sdk_client_in_the_handshake_era() {
    drive("typescript");
}

/// The other direction's client: a Flow host binding the served Tool through
/// its own MCP adapter (`mcp = "rust-weather --mcp"`) reads back what the
/// Flow protocol answers, Option arguments and the declared error included.
/// A success that is no object comes back wrapped, as from any MCP server, so
/// a declaration of the plain List is BadReply.
#[test]
fn the_flow_mcp_adapter_reads_back_what_the_tool_serves() {
    use flow_core::manifest::Runner;
    use flow_core::types::parse::listing_from_text;
    use flow_host::{Binding, Host, HostOptions, Resolver};
    use flow_protocol::{CallKey, CallOutcome};

    let listing =
        listing_from_text(include_bytes!("../../../tests/examples/weather.tools.json"), &Limits::default()).unwrap();
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
        CallOutcome::BadReply(why) => {
            assert!(why == "$.result.structuredContent: expected an array, found an object [type]", "{why}")
        }
        other => panic!("{other:?}"),
    }
}
