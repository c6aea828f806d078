//! Stopping MCP servers, as Tool processes are stopped (stop.rs): closing a
//! server's stdin asks it to exit; one that has not within the stop grace is
//! killed and reaped, and each call still out to it is settled as at any end
//! (Unknown if it reached the server). A failed write retires the server the
//! same way, so it can still answer what it read. Dropping the last handle to
//! a server (an adapter or connection outside a host, or the host) returns
//! once it is gone.
//!
//! Against `flow-fake-mcp`. Short graces keep these fast; the only clock
//! asserted on is a generous bound for what must happen eventually. The tests
//! take turns (`serial`): one counts this process's threads, which the others
//! would start, and two close a server's stdin, which a child forked meanwhile
//! would hold open for a moment, letting the write that must fail succeed.

mod common;
mod mcp_servers;

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{fake_pid, process_gone, scratch};
use flow_core::json::Object;
use flow_host::{Host, HostOptions, ProcessSpec};
use flow_mcp::adapter::McpAdapter;
use flow_mcp::client::{CallEnd, McpConnection, McpOptions};
use flow_mcp::session::Answer;
use flow_protocol::{CallKey, CallOutcome};
use mcp_servers::{json, quote, Setup};

/// What must happen eventually happens within this.
const GENEROUS: Duration = Duration::from_secs(60);
/// Long enough for nothing here to be killed by it.
const LONG_GRACE: Duration = Duration::from_secs(60);
const SHORT_GRACE: Duration = Duration::from_millis(200);

const FAKE: &str = env!("CARGO_BIN_EXE_flow-fake-mcp");
const REPO: &str = "example.com/fake-mcp@0.1.0/fake.flow";

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn gone(pid: u32) -> bool {
    process_gone(pid, "flow-fake-mcp")
}

fn eventually(what: &str, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < GENEROUS, "not within {GENEROUS:?}: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The fake, keeping its pids in `state`, with `flags`.
fn spec(state: &Path, flags: &[&str]) -> ProcessSpec {
    let mut args = vec!["--state".to_owned(), state.to_str().unwrap().to_owned()];
    args.extend(flags.iter().map(|f| (*f).to_owned()));
    ProcessSpec::new(FAKE, args, state)
}

type Log = Arc<Mutex<Vec<String>>>;

fn logged(log: &Log, needle: &str) -> bool {
    log.lock().unwrap().iter().any(|l| l.contains(needle))
}

/// Client options with `grace`, and the log they write to.
fn options(grace: Duration) -> (McpOptions, Log) {
    let (host, log) = mcp_servers::options();
    (McpOptions { stop_grace: grace, ..McpOptions::from(&host) }, log)
}

/// A connection outside any host to the fake with `flags`, started.
fn connect(name: &str, flags: &[&str], grace: Duration) -> (McpConnection, PathBuf, Log) {
    let state = scratch(&format!("mcp-{name}"));
    let (options, log) = options(grace);
    let connection = McpConnection::new(spec(&state, flags), options);
    connection.tools().expect("the fake lists its tools");
    (connection, state, log)
}

/// Calls `tool` with no arguments; its end arrives on the receiver.
fn call(connection: &McpConnection, id: &str, tool: &str) -> Receiver<CallEnd> {
    let (tx, rx) = mpsc::channel();
    connection.call(id, tool, Object::new(), move |end| {
        let _ = tx.send(end);
    });
    rx
}

fn end(call: &Receiver<CallEnd>) -> CallEnd {
    call.recv_timeout(GENEROUS).expect("the call is settled")
}

/// The `n` the fake answered with.
fn answered(end: CallEnd) -> String {
    match end {
        CallEnd::Answered(Answer::Result(result)) => {
            result.as_object().and_then(|o| o.get("structuredContent")).expect("structured").to_canonical()
        }
        other => panic!("expected an answer, got {other:?}"),
    }
}

fn unknown(end: CallEnd) -> String {
    match end {
        CallEnd::Unknown(why) => why,
        other => panic!("expected Unknown, got {other:?}"),
    }
}

/// A `silent` call that has reached the server: the fake reads in order, so
/// once the `ok` sent after it is answered, it has read the first.
fn held(connection: &McpConnection, id: &str) -> Receiver<CallEnd> {
    let held = call(connection, id, "silent");
    assert_eq!(answered(end(&call(connection, &format!("{id}-ok"), "ok"))), r#"{"n":1}"#);
    held
}

/// Every fake tool bound through a host to the fake with `flags`.
fn bind(name: &str, flags: &str, grace: Duration) -> (Setup, PathBuf) {
    let state = scratch(&format!("mcp-{name}"));
    let command = format!("{} --state {} {flags}", quote(FAKE), quote(state.to_str().unwrap()));
    let listing = mcp_servers::listing("fake.tools.json");
    let (options, log) = mcp_servers::options();
    let host =
        Host::bind(&listing, &mcp_servers::resolver(&listing, &command), HostOptions { stop_grace: grace, ..options })
            .unwrap_or_else(|r| panic!("{r:#?}"));
    (Setup { host, log }, state)
}

fn tool(name: &str) -> String {
    format!("{REPO}.{name}")
}

/// A `silent` call through the host that has reached the server.
fn held_through(setup: &Setup, id: &str) -> flow_host::CallHandle {
    let held = setup.host.call(&tool("silent"), CallKey::new("r", id), &json("{}")).unwrap();
    let ok = setup.host.call(&tool("ok"), CallKey::new("r", format!("{id}-ok")), &json("{}")).unwrap().wait();
    assert_eq!(ok.to_canonical(), r#"{"Ok":{"n":1}}"#);
    held
}

fn unknown_outcome(outcome: Option<CallOutcome>) -> String {
    match outcome.expect("settled") {
        CallOutcome::Unknown(why) => why,
        other => panic!("expected Unknown, got {other:?}"),
    }
}

#[test]
fn a_server_that_ignores_the_end_of_its_input_is_killed_after_the_grace() {
    let _serial = serial();
    let (setup, state) = bind("ignore-eof", "--ignore-eof", SHORT_GRACE);
    let pid = fake_pid(&state, 1);
    let held = held_through(&setup, "held");
    let connection = setup.host.mcp_adapter(&tool("silent")).unwrap().connection();
    connection.stop();
    let reason = unknown_outcome(held.wait_timeout(GENEROUS));
    assert!(reason.contains("after the call reached it") && reason.contains("signal: 9"), "{reason}");
    assert!(
        setup.logged("did not exit within the stop grace of 200ms after its stdin was closed: killing it"),
        "{:?}",
        setup.log
    );
    // Reaped before its calls were settled.
    assert!(gone(pid), "process {pid} is still there");
    // The next call starts another server.
    let ok = setup.host.call(&tool("ok"), CallKey::new("r", "next"), &json("{}")).unwrap().wait();
    assert_eq!(ok.to_canonical(), r#"{"Ok":{"n":1}}"#);
    assert_eq!(connection.starts(), 2);
}

#[test]
fn a_server_that_answers_at_the_end_of_its_input_keeps_its_answer() {
    let _serial = serial();
    let (connection, state, log) = connect("answer-at-eof", &[], LONG_GRACE);
    let pid = fake_pid(&state, 1);
    let held = call(&connection, "held", "held");
    assert_eq!(answered(end(&call(&connection, "ok", "ok"))), r#"{"n":1}"#);
    connection.stop();
    assert_eq!(answered(end(&held)), r#"{"n":3}"#);
    drop(connection);
    assert!(gone(pid), "process {pid} is still there after its connection was dropped");
    let log = log.lock().unwrap();
    assert!(!log.iter().any(|l| l.contains("killing it") || l.contains("call(s) out")), "{log:?}");
}

#[test]
fn dropping_the_last_clone_of_an_adapter_outside_a_host_ends_its_server() {
    let _serial = serial();
    let state = scratch("mcp-drop-adapter");
    let (options, log) = options(SHORT_GRACE);
    let adapter = McpAdapter::new(spec(&state, &["--ignore-eof"]), options);
    adapter.connection().tools().expect("the fake lists its tools");
    let pid = fake_pid(&state, 1);
    let held = held(adapter.connection(), "held");
    let clone = adapter.clone();
    drop(adapter);
    assert!(!gone(pid), "a clone still holds it");
    drop(clone);
    // The drop returned once the server was gone, its call settled.
    assert!(gone(pid), "process {pid} outlived its adapter");
    let reason = unknown(held.try_recv().expect("settled by the time the drop returned"));
    assert!(reason.contains("after the call reached it"), "{reason}");
    assert!(logged(&log, "did not exit within the stop grace of 200ms"), "{log:?}");
}

#[test]
fn dropping_the_host_ends_a_server_that_ignores_the_end_of_its_input() {
    let _serial = serial();
    let (setup, state) = bind("drop-host", "--ignore-eof", SHORT_GRACE);
    let pid = fake_pid(&state, 1);
    // A call handle holds its adapter, to cancel through it: the host's drop
    // must not rely on dropping the last one.
    let held = held_through(&setup, "held");
    let Setup { host, log } = setup;
    drop(host);
    assert!(gone(pid), "process {pid} outlived its host");
    let reason = unknown_outcome(held.wait_timeout(Duration::ZERO));
    assert!(reason.contains("after the call reached it"), "{reason}");
    assert!(logged(&log, "did not exit within the stop grace of 200ms"), "{log:?}");
}

/// Closes the fake's stdin through a `close-stdin` call, then makes the next
/// write fail: that call is NotRun, and the server is retired. Returns the
/// `close-stdin` call, still out.
fn fail_a_write(connection: &McpConnection, state: &Path, log: &Log) -> Receiver<CallEnd> {
    let closer = call(connection, "closer", "close-stdin");
    eventually("the fake closes its stdin", || state.join("stdin-closed").exists());
    match end(&call(connection, "after", "ok")) {
        CallEnd::NotRun(why) => assert!(why.contains("before the call reached it"), "{why}"),
        other => panic!("expected NotRun, got {other:?}"),
    }
    assert!(logged(log, "could not write to the server"), "{log:?}");
    closer
}

#[test]
fn a_failed_write_gives_the_server_the_grace() {
    let _serial = serial();
    let (connection, state, log) = connect("failed-write", &[], LONG_GRACE);
    let first = fake_pid(&state, 1);
    let closer = fail_a_write(&connection, &state, &log);
    // Not killed: it still answers the call it read, then exits.
    std::fs::write(state.join("answer"), "").unwrap();
    assert_eq!(answered(end(&closer)), r#"{"n":4}"#);
    eventually("the retired server is reaped", || gone(first));
    // The next call starts another server.
    assert_eq!(answered(end(&call(&connection, "next", "ok"))), r#"{"n":1}"#);
    assert_eq!(connection.starts(), 2);
    let second = fake_pid(&state, 2);
    drop(connection);
    assert!(gone(second), "process {second} outlived its connection");
    assert!(!logged(&log, "killing it"), "{log:?}");
}

#[test]
fn a_server_whose_write_failed_and_that_runs_on_is_killed_after_the_grace() {
    let _serial = serial();
    let (connection, state, log) = connect("failed-write-runs-on", &["--ignore-eof"], SHORT_GRACE);
    let pid = fake_pid(&state, 1);
    // The fake never answers, and does not exit at the end of its input.
    let closer = fail_a_write(&connection, &state, &log);
    let reason = unknown(end(&closer));
    assert!(reason.contains("after the call reached it") && reason.contains("signal: 9"), "{reason}");
    assert!(logged(&log, "did not exit within the stop grace of 200ms"), "{log:?}");
    assert!(gone(pid), "process {pid} is still there");
}

/// Every thread a connection starts (a reader, a writer and a stderr reader
/// per server, a watchdog per stop) ends with what it serves or watches:
/// none is left once the connection is gone.
#[test]
fn stopping_leaves_no_thread_behind() {
    let _serial = serial();
    let (connection, state, _log) = connect("threads", &["--ignore-eof"], SHORT_GRACE);
    for round in 1..=4 {
        let held = held(&connection, &format!("held-{round}"));
        connection.stop();
        unknown(end(&held));
        connection.tools().expect("started again");
    }
    let pids: Vec<u32> = (1..=connection.starts()).map(|start| fake_pid(&state, start)).collect();
    drop(connection);
    assert!(pids.iter().all(|&pid| gone(pid)), "{pids:?}");
    let started = Instant::now();
    loop {
        let left = client_threads();
        if left.is_empty() {
            break;
        }
        assert!(started.elapsed() < GENEROUS, "threads left: {left:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// This process's threads that an MCP connection started, by name.
fn client_threads() -> Vec<String> {
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc is readable");
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|name| name.trim_end().to_owned())
        .filter(|name| name.starts_with("mcp "))
        .collect()
}
