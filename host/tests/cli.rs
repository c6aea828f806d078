//! `flow-host describe`, `call` and `check` against the test Tool, as a person
//! runs them from a clean clone.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const LISTING: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/examples/weather.tools.json");

fn flow_host(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flow-host")).args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A directory with a flow.toml binding weather.flow to the test Tool.
fn manifest_dir(name: &str, table: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("flow-host-cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tool = env!("CARGO_BIN_EXE_flow-test-tool");
    std::fs::write(dir.join("flow.toml"), format!("[tools.\"{table}\"]\ncommand = \"'{tool}'\"\n")).unwrap();
    dir
}

fn dir_arg(dir: &Path) -> &str {
    dir.to_str().unwrap()
}

#[test]
fn describe_prints_identities_and_fingerprints() {
    let output = flow_host(&["describe", "--", env!("CARGO_BIN_EXE_flow-test-tool")]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.starts_with("data 0.1\n"));
    assert!(text.lines().any(|l| l.split_whitespace().collect::<Vec<_>>()
        == [
            "github.com/acme/weather@1.2.0/weather.flow.get_forecast",
            "sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077"
        ]));

    let output = flow_host(&["describe", "--json", "--", env!("CARGO_BIN_EXE_flow-test-tool")]);
    let text = stdout(&output);
    assert!(text.starts_with(r#"{"data":"0.1","tools":[{"fingerprint":"sha256:b4a7dd12"#), "{text}");

    let output = flow_host(&["describe", "--", "/nonexistent/tool"]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn call_prints_the_outcome_and_exits_by_it() {
    let dir = manifest_dir("call", "weather.flow");
    let ok = flow_host(&[
        "call",
        LISTING,
        "get_forecast",
        "--args",
        r#"{"city":"Oslo","days":0,"units":"None"}"#,
        "--manifest",
        dir_arg(&dir),
    ]);
    assert_eq!(
        stdout(&ok),
        "{\"Ok\":{\"city\":\"Oslo\",\"days\":[],\"issued\":\"2024-06-01T06:00:00Z\",\"tags\":[\"test\"]}}\n"
    );
    assert!(ok.status.success());

    let failed = flow_host(&[
        "call",
        LISTING,
        "get_forecast",
        "--args",
        r#"{"city":"Nowhere","days":1,"units":"None"}"#,
        "--manifest",
        dir_arg(&dir),
    ]);
    assert!(stdout(&failed).starts_with("{\"Failed\":{\"UnknownCity\""));
    assert_eq!(failed.status.code(), Some(1));

    let generic = flow_host(&[
        "call",
        LISTING,
        "echo",
        "--type-arg",
        r#"T={"Set":"Text"}"#,
        "--args",
        r#"{"value":["b","a"]}"#,
        "--manifest",
        dir_arg(&dir),
    ]);
    assert_eq!(stdout(&generic), "{\"Ok\":[\"a\",\"b\"]}\n");

    let bad_args = flow_host(&[
        "call",
        LISTING,
        "get_forecast",
        "--args",
        r#"{"city":1,"days":1,"units":"None"}"#,
        "--manifest",
        dir_arg(&dir),
    ]);
    assert_eq!(bad_args.status.code(), Some(2));
    assert!(stdout(&bad_args).starts_with(r#"{"NotRun":"$.args.city: "#), "{}", stdout(&bad_args));
    assert!(String::from_utf8_lossy(&bad_args.stderr).contains("$.args.city: "));
}

#[test]
fn check_lists_what_is_not_bound() {
    let dir = manifest_dir("check", "weather.flow");
    let ok = flow_host(&["check", LISTING, "--manifest", dir_arg(&dir)]);
    assert!(ok.status.success(), "{}", stdout(&ok));

    // The manifest binds another file: every Tool is unbound, and says why.
    let dir = manifest_dir("check-other", "other.flow");
    let refused = flow_host(&["check", LISTING, "--manifest", dir_arg(&dir)]);
    assert_eq!(refused.status.code(), Some(1));
    let text = stdout(&refused);
    assert_eq!(text.lines().count(), 4);
    assert!(
        text.lines().all(|l| l.contains(": unbound: ") && l.contains("has no [tools.\"weather.flow\"] table")),
        "{text}"
    );

    // A repository's Tools need the repository's manifest: a usage error,
    // naming the flag.
    let refused = flow_host(&["check", LISTING]);
    assert_eq!(refused.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("pass --manifest DIR"));
}
