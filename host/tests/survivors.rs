//! No child outlives its parent: every Tool process and MCP server is started
//! in a process group of its own, tied to its parent's life, and ended with
//! its whole group (flow-core's `process` module). Killed with SIGKILL, an
//! MCP adapter or a host leaves nothing running: not the server or Tool, not
//! what it started (here a shell's `sleep`, as `npx` starts node). Stopped,
//! a process gets the grace after its stdin closes, then is killed; either
//! way its group goes with it, and its calls end as host-boundary.md says.
//!
//! Survivors are found by a mark in the environment, which every descendant
//! inherits, scanned in /proc. The only clock is a generous bound on what
//! must happen eventually.
#![cfg(target_os = "linux")]

mod mcp_servers;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use flow_host::{Connection, HostOptions, ProcessSpec};
use flow_protocol::server::CallTypes;
use flow_protocol::{CallKey, CallOutcome};
use mcp_servers::{python_server_words, quote, repo};

const MARK: &str = "FLOW_SURVIVOR_MARK";
/// What must happen eventually happens within this.
const GENEROUS: Duration = Duration::from_secs(60);
const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";

fn mark(test: &str) -> String {
    format!("{}-{test}", std::process::id())
}

/// The live processes carrying `mark` in their environment, with their
/// command lines (zombies have none: they are not running).
fn marked(mark: &str) -> Vec<(u32, String)> {
    let needle = format!("{MARK}={mark}\0").into_bytes();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else { continue };
        if environ.windows(needle.len()).any(|w| w == needle.as_slice()) {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            found.push((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ").trim().to_owned()));
        }
    }
    found
}

/// Waits until every process in `wanted` (a command-line fragment each) runs
/// with `mark`; what runs then.
fn running(mark: &str, wanted: &[&str]) -> Vec<(u32, String)> {
    let deadline = Instant::now() + GENEROUS;
    loop {
        let now = marked(mark);
        if wanted.iter().all(|w| now.iter().any(|(_, c)| c.contains(w))) {
            return now;
        }
        assert!(Instant::now() < deadline, "never ran all of {wanted:?}: {now:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until nothing runs with `mark`; what still runs if something does.
fn survivors(mark: &str) -> Vec<(u32, String)> {
    let deadline = Instant::now() + GENEROUS;
    loop {
        let now = marked(mark);
        if now.is_empty() || Instant::now() >= deadline {
            return now;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `words` run by a shell that first starts a grandchild (`sleep 300`).
fn with_grandchild(words: &[String]) -> Vec<String> {
    let exec = words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ");
    vec!["sh".to_owned(), "-c".to_owned(), format!("sleep 300 & exec {exec}")]
}

fn sigkill(mut child: Child) {
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(9), "{status}");
}

#[test]
fn a_sigkilled_adapter_leaves_no_mcp_server_nor_what_it_started() {
    let mark = mark("adapter");
    let listing = repo().join("tests/mcp/python-server.tools.json");
    let mut adapter = Command::new(env!("CARGO_BIN_EXE_flow-host"))
        .arg("mcp-adapter")
        .arg(&listing)
        .arg("--")
        .args(with_grandchild(&python_server_words()))
        .env(MARK, &mark)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The adapter answers describe once the server has listed its tools.
    let mut stdin = adapter.stdin.take().unwrap();
    let mut stdout = BufReader::new(adapter.stdout.take().unwrap());
    stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"describe\"}\n").unwrap();
    let mut answer = String::new();
    stdout.read_line(&mut answer).unwrap();
    assert!(answer.starts_with("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":"), "{answer}");
    let before = running(&mark, &["mcp-adapter", "python_server.py", "sleep 300"]);

    sigkill(adapter);
    let left = survivors(&mark);
    assert!(left.is_empty(), "still running after the adapter was killed: {left:?} (of {before:?})");
}

#[test]
fn a_sigkilled_host_leaves_no_tool_nor_what_it_started() {
    let mark = mark("host");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-survivors-host");
    std::fs::create_dir_all(&dir).unwrap();
    let tool = with_grandchild(&[env!("CARGO_BIN_EXE_flow-test-tool").to_owned()]);
    let command = tool.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ");
    let toml_string = format!("\"{}\"", command.replace('\\', "\\\\").replace('"', "\\\""));
    std::fs::write(dir.join("flow.toml"), format!("[tools.\"weather.flow\"]\ncommand = {toml_string}\n")).unwrap();
    // A call that runs until cancelled: the host waits on it.
    let host = Command::new(env!("CARGO_BIN_EXE_flow-host"))
        .args(["call"])
        .arg(repo().join("tests/examples/weather.tools.json"))
        .args(["get_forecast", "--args", r#"{"city":"wait-for-cancel","days":1,"units":"None"}"#, "--manifest"])
        .arg(&dir)
        .env(MARK, &mark)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let before = running(&mark, &["flow-host call", "flow-test-tool", "sleep 300"]);

    sigkill(host);
    let left = survivors(&mark);
    assert!(left.is_empty(), "still running after the host was killed: {left:?} (of {before:?})");
}

/// A connection to flow-test-tool (or `--ignore-eof` flow-fake-tool) behind
/// a shell that starts a grandchild, marked, with `grace`.
fn connection(mark: &str, tool: Vec<String>, grace: Duration) -> Connection {
    let mut words = with_grandchild(&tool).into_iter();
    let mut spec = ProcessSpec::new(words.next().unwrap(), words.collect(), std::env::temp_dir());
    spec.env.push((MARK.to_owned(), mark.to_owned()));
    let options =
        HostOptions { stop_grace: grace, log: Arc::new(|_| {}), quiet_stderr: true, ..HostOptions::default() };
    Connection::new(spec, options)
}

fn forecast_call(connection: &Connection, id: &str, city: &str) -> flow_host::CallHandle {
    let listing = flow_core::types::parse::listing_from_text(
        include_bytes!("../../tests/examples/weather.tools.json"),
        &Default::default(),
    )
    .unwrap();
    let tool = listing.tools.iter().find(|t| t.tool == FORECAST).unwrap();
    let types = Arc::new(CallTypes::compile(&listing.declarations, &tool.params, &tool.ok, &tool.err).unwrap());
    let key = CallKey::new("run-1", id);
    let args =
        flow_core::json::parse_str(&format!(r#"{{"city":"{city}","days":1,"units":"None"}}"#), &Default::default())
            .unwrap();
    let line = flow_protocol::message::write_call(&key, FORECAST, &args.to_canonical(), None);
    connection.send(key, line, types, |_| Ok(()))
}

#[test]
fn a_tool_that_exits_within_the_grace_ends_as_it_chose_and_its_group_goes_with_it() {
    let mark = mark("grace-kept");
    // A grace longer than the wait for survivors: only the Tool's own exit
    // can end the group in time.
    let connection = connection(&mark, vec![env!("CARGO_BIN_EXE_flow-test-tool").to_owned()], 10 * GENEROUS);
    connection.describe().unwrap();
    running(&mark, &["flow-test-tool", "sleep 300"]);
    // A call in flight when stdin closes is finished, not cut short.
    let slow_but_done = forecast_call(&connection, "1", "Oslo");
    connection.stop();
    let outcome = slow_but_done.wait_timeout(GENEROUS).expect("settled");
    assert_eq!(outcome.case(), "Ok", "{outcome:?}");
    // flow-test-tool exits at the end of its input, long before the grace:
    // its group is killed at its end, so the shell's sleep does not linger.
    let left = survivors(&mark);
    assert!(left.is_empty(), "{left:?}");
    drop(connection);
}

#[test]
fn a_tool_that_outlives_the_grace_is_killed_with_its_group_and_its_calls_are_unknown() {
    let mark = mark("grace-over");
    let state = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-survivors-ignore-eof");
    std::fs::create_dir_all(&state).unwrap();
    let fake = vec![
        env!("CARGO_BIN_EXE_flow-fake-tool").to_owned(),
        "--state".to_owned(),
        state.to_str().unwrap().to_owned(),
        "--ignore-eof".to_owned(),
    ];
    let connection = connection(&mark, fake, Duration::from_millis(200));
    connection.describe().unwrap();
    running(&mark, &["flow-fake-tool", "sleep 300"]);
    let never_answered = forecast_call(&connection, "hold-until=never", "Oslo");
    connection.stop();
    let outcome = never_answered.wait_timeout(GENEROUS).expect("settled once the grace ran out");
    match outcome {
        CallOutcome::Unknown(why) => {
            assert_eq!(why, "the Tool process ended (signal: 9 (SIGKILL)) after the call reached it")
        }
        other => panic!("expected Unknown, got {other:?}"),
    }
    let left = survivors(&mark);
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_tool_that_crashes_while_what_it_started_holds_its_output_is_unknown_at_once_and_started_again() {
    let mark = mark("crash");
    let state = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-survivors-crash");
    std::fs::create_dir_all(&state).unwrap();
    let fake =
        vec![env!("CARGO_BIN_EXE_flow-fake-tool").to_owned(), "--state".to_owned(), state.to_str().unwrap().to_owned()];
    // The grace is never reached: the crash alone must settle the call.
    let connection = connection(&mark, fake, 10 * GENEROUS);
    connection.describe().unwrap();
    running(&mark, &["flow-fake-tool", "sleep 300"]);
    let crashed = forecast_call(&connection, "crash-after-read-1", "Oslo");
    let outcome = crashed.wait_timeout(GENEROUS).expect("settled by the crash, not the grace");
    // host-boundary.md: a call out to a process that ended is Unknown if it
    // reached the process; the reason carries the Tool's own exit status.
    match outcome {
        CallOutcome::Unknown(why) => {
            assert_eq!(why, "the Tool process ended (exit status: 3) after the call reached it")
        }
        other => panic!("expected Unknown, got {other:?}"),
    }
    // Started again for the next call ("A process that ends is started again").
    let next = forecast_call(&connection, "after-the-crash", "Oslo").wait_timeout(GENEROUS).expect("answered");
    assert_eq!(next.case(), "Ok", "{next:?}");
    assert_eq!(connection.starts(), 2);
    drop(connection);
    let left = survivors(&mark);
    assert!(left.is_empty(), "{left:?}");
}
