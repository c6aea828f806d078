//! `flow-host call` for scripts: every outcome printed as one line of JSON on
//! stdout, and an exit status per outcome (0 Ok, 1 Failed, 2 NotRun,
//! 3 Unknown, 4 BadReply); 64 and nothing on stdout for a usage or
//! configuration error. The Tool is flow-fake-tool, which misbehaves by call id.

use std::path::PathBuf;
use std::process::{Command, Output};

const LISTING: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/examples/weather.tools.json");
const ARGS: &str = r#"{"city":"Oslo","days":0,"units":"None"}"#;

/// A directory whose flow.toml binds weather.flow to flow-fake-tool with `flags`.
fn manifest_dir(name: &str, flags: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("flow-host-exit-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tool = env!("CARGO_BIN_EXE_flow-fake-tool");
    std::fs::write(dir.join("flow.toml"), format!("[tools.\"weather.flow\"]\ncommand = \"'{tool}' {flags}\"\n"))
        .unwrap();
    dir
}

fn call(dir: &std::path::Path, extra: &[&str]) -> Output {
    let mut args = vec!["call", LISTING, "get_forecast", "--manifest", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    Command::new(env!("CARGO_BIN_EXE_flow-host")).args(&args).output().unwrap()
}

/// The exit status and stdout of a call.
fn outcome(output: &Output) -> (Option<i32>, String) {
    (output.status.code(), String::from_utf8(output.stdout.clone()).unwrap())
}

#[test]
fn each_outcome_has_its_exit_status() {
    let dir = manifest_dir("each", "");
    let (code, out) = outcome(&call(&dir, &["--args", ARGS]));
    assert_eq!((code, out.starts_with(r#"{"Ok":{"city":"Oslo""#)), (Some(0), true), "{out}");

    let (code, out) = outcome(&call(&dir, &["--args", r#"{"city":"Nowhere","days":1,"units":"None"}"#]));
    assert_eq!((code, out.starts_with(r#"{"Failed":{"UnknownCity""#)), (Some(1), true), "{out}");

    // The process ends after reading the call: it may have run.
    let (code, out) = outcome(&call(&dir, &["--args", ARGS, "--call", "crash-after-read-1"]));
    assert_eq!((code, out.starts_with(r#"{"Unknown":"#)), (Some(3), true), "{out}");

    // {"Ok":42} is no Forecast: BadReply, printed as itself.
    let (code, out) = outcome(&call(&dir, &["--args", ARGS, "--call", "badvalue-1"]));
    assert_eq!((code, out.starts_with(r#"{"BadReply":"#)), (Some(4), true), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_call_refused_before_it_was_sent_is_not_run() {
    let dir = manifest_dir("notrun", "");
    let (code, out) = outcome(&call(&dir, &["--args", r#"{"city":"Oslo","days":"two","units":"None"}"#]));
    assert_eq!(code, Some(2));
    assert!(out.starts_with(r#"{"NotRun":"$.args.days: "#) && out.ends_with("}\n"), "{out}");

    let (code, out) = outcome(&call(&dir, &["--args", "{not json"]));
    assert_eq!((code, out.starts_with(r#"{"NotRun":"--args: "#)), (Some(2), true), "{out}");

    let output = Command::new(env!("CARGO_BIN_EXE_flow-host"))
        .args(["call", LISTING, "get_forcast", "--args", "{}", "--manifest", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let (code, out) = outcome(&output);
    assert_eq!(code, Some(2));
    assert!(out.starts_with(r#"{"NotRun":"no Tool get_forcast in "#), "{out}");

    // A generic Tool called without its type argument.
    let output = Command::new(env!("CARGO_BIN_EXE_flow-host"))
        .args(["call", LISTING, "echo", "--args", r#"{"value":1}"#, "--manifest", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let (code, out) = outcome(&output);
    assert_eq!((code, out.as_str()), (Some(2), "{\"NotRun\":\"the Tool is generic: give --type-arg T=TERM\"}\n"));

    // A type argument the shell stripped of its quotes, and one by name: the fix is said.
    let echo = |type_arg: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_flow-host"))
            .args([
                "call",
                LISTING,
                "echo",
                "--args",
                r#"{"value":1}"#,
                "--type-arg",
                type_arg,
                "--manifest",
                dir.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        outcome(&output)
    };
    let (code, out) = echo("T=Int");
    assert_eq!(code, Some(2));
    assert!(out.contains("the term is not JSON") && out.ends_with(concat!(r#"; write T='\"Int\"'"}"#, "\n")), "{out}");
    let (code, out) = echo(r#"T="Day""#);
    assert_eq!(code, Some(2));
    assert!(out.contains(r#"write {\"Named\":{\"declaration\":\"2\",\"args\":[]}}"#), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn only_the_tool_called_must_be_bound() {
    // The process serves list_stations with another fingerprint: `check`
    // refuses the listing, but a call to get_forecast reaches only get_forecast.
    let dir = manifest_dir("reach", "--bad-fingerprint list_stations");
    let (code, out) = outcome(&call(&dir, &["--args", ARGS]));
    assert_eq!((code, out.starts_with(r#"{"Ok":"#)), (Some(0), true), "{out}");

    let list = Command::new(env!("CARGO_BIN_EXE_flow-host"))
        .args([
            "call",
            LISTING,
            "list_stations",
            "--args",
            r#"{"region":{"name":"x"},"cursor":"None"}"#,
            "--manifest",
            dir.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let (code, out) = outcome(&list);
    assert_eq!(code, Some(2));
    assert!(out.starts_with(r#"{"NotRun":"not bound: "#) && out.contains("fingerprint mismatch"), "{out}");

    let check = Command::new(env!("CARGO_BIN_EXE_flow-host"))
        .args(["check", LISTING, "--manifest", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn usage_and_configuration_errors_exit_64_and_print_no_outcome() {
    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_flow-host")).args(args).output().unwrap();
        (output.status.code(), String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap())
    };
    // No --manifest for a repository's Tool: the message names the flag.
    let (code, out, err) = run(&["call", LISTING, "get_forecast", "--args", ARGS]);
    assert_eq!((code, out.as_str()), (Some(64), ""));
    assert!(err.contains("pass --manifest DIR"), "{err}");

    let (code, out, err) = run(&["call", LISTING, "get_forecast", "--args", ARGS, "--manifest", "/nonexistent/dir"]);
    assert_eq!((code, out.as_str()), (Some(64), ""));
    assert!(err.starts_with("flow-host: --manifest /nonexistent/dir: no flow.toml there"), "{err}");

    // A flow.toml that is not TOML, for call and check alike.
    let broken = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-host-exit-broken");
    std::fs::create_dir_all(&broken).unwrap();
    std::fs::write(broken.join("flow.toml"), "[tools.\"weather.flow\"\n").unwrap();
    let (code, out, err) =
        run(&["call", LISTING, "get_forecast", "--args", ARGS, "--manifest", broken.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (Some(64), ""), "{err}");
    assert!(err.contains(": configuration: "), "{err}");
    let (code, out, _) = run(&["check", LISTING, "--manifest", broken.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (Some(64), ""));
    std::fs::remove_dir_all(broken).unwrap();

    let (code, out, _) = run(&["call", "/nonexistent/listing.json", "get_forecast", "--args", ARGS]);
    assert_eq!((code, out.as_str()), (Some(64), ""));

    // A flag that does not exist, a missing --args.
    let (code, out, _) = run(&["call", LISTING, "get_forecast", "--argz", ARGS]);
    assert_eq!((code, out.as_str()), (Some(64), ""));
    let (code, _, _) = run(&["call", LISTING, "get_forecast"]);
    assert_eq!(code, Some(64));

    // --help documents the statuses, and succeeds.
    let (code, out, _) = run(&["call", "--help"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("Exit status: 0 Ok, 1 Failed, 2 NotRun, 3 Unknown, 4 BadReply"), "{out}");
    assert!(out.contains("64 for a usage or configuration error"), "{out}");
}
