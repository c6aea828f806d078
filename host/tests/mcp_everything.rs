//! The MCP adapter against `@modelcontextprotocol/server-everything` (npm),
//! which speaks only the handshake era: `server/discover` is refused and the
//! adapter falls back to `initialize`. `tests/mcp/everything.tools.json`
//! declares four of its tools.

mod mcp_servers;

use std::process::Command;

use flow_mcp::version::Era;
use flow_protocol::{CallKey, CallOutcome};
use mcp_servers::*;

const LISTING: &str = "everything.tools.json";
const REPO: &str = "github.com/acme/mcp-everything@0.1.0/everything.flow";

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
fn the_handshake_era_decodes_structured_content_and_refuses_plain_text() {
    let setup = bind(&listing(LISTING), &everything());
    let era = setup.host.mcp_adapter(&tool("echo")).unwrap().connection().era();
    assert!(matches!(&era, Some(Era::Handshake(v)) if v == "2025-11-25"), "{era:?}");
    assert!(setup.logged("server/discover answered error -32601"));

    match call(&setup, "get-structured-content", "1", r#"{"location":"Chicago"}"#) {
        CallOutcome::Ok(weather) => {
            let text = weather.to_canonical();
            assert!(
                text.starts_with(r#"{"conditions":""#)
                    && text.contains(r#","humidity":"#)
                    && text.contains(r#","temperature":"#),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Text that is not JSON cannot be read as any declared type.
    let why = bad_reply(call(&setup, "echo", "2", r#"{"message":"hi"}"#));
    assert_eq!(
        why,
        r#"$.result.content[0].text: no structuredContent, and the one text block is not JSON: invalid JSON at byte 0: expected a JSON value [syntax]: "Echo: hi""#
    );
    let why = bad_reply(call(&setup, "get-sum", "3", r#"{"a":1,"b":2.5}"#));
    assert!(why.ends_with(r#""The sum of 1 and 2.5 is 3.5.""#), "{why}");
}

#[test]
fn a_cancelled_long_operation_is_unknown_and_the_server_serves_on() {
    let setup = bind(&listing(LISTING), &everything());
    let long = setup
        .host
        .call(
            &tool("trigger-long-running-operation"),
            CallKey::new("run-1", "long"),
            &json(r#"{"duration":{"Some":600},"steps":{"Some":2}}"#),
        )
        .unwrap();
    long.cancel();
    match long.wait() {
        CallOutcome::Unknown(why) => assert!(why.starts_with("cancelled: "), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(call(&setup, "get-structured-content", "after", r#"{"location":"New York"}"#).is_ok());
    assert_eq!(setup.host.mcp_adapter(&tool("echo")).unwrap().connection().starts(), 1);
}

#[test]
fn the_adapter_process_serves_server_everything() {
    let listing_path = repo().join("tests/mcp").join(LISTING);
    let mut args = vec![
        "describe".to_owned(),
        "--".to_owned(),
        env!("CARGO_BIN_EXE_flow-host").to_owned(),
        "mcp-adapter".to_owned(),
    ];
    args.push(listing_path.to_str().unwrap().to_owned());
    args.push("--".to_owned());
    args.extend(everything_words());
    let described = Command::new(env!("CARGO_BIN_EXE_flow-host")).args(&args).output().unwrap();
    let text = String::from_utf8(described.stdout).unwrap();
    let tools: Vec<&str> = text.lines().skip(2).map(|l| l.split_whitespace().next().unwrap()).collect();
    let expected: Vec<String> = ["echo", "get-structured-content", "get-sum", "trigger-long-running-operation"]
        .iter()
        .map(|n| tool(n))
        .collect();
    assert_eq!(tools, expected, "{}", String::from_utf8_lossy(&described.stderr));

    let adapter = format!(
        "{} mcp-adapter {} -- {}",
        quote(env!("CARGO_BIN_EXE_flow-host")),
        quote(listing_path.to_str().unwrap()),
        everything()
    );
    let dir =
        manifest("everything-command", &format!("[tools.\"everything.flow\"]\ncommand = {}\n", toml_string(&adapter)));
    let echo = Command::new(env!("CARGO_BIN_EXE_flow-host"))
        .args([
            "call",
            listing_path.to_str().unwrap(),
            "echo",
            "--args",
            r#"{"message":"hi"}"#,
            "--manifest",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8(echo.stdout)
        .unwrap()
        .starts_with("{\"Unknown\":\"BadReply: $.result.content[0].text: no structuredContent"));
}
