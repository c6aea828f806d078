//! Stopping Tool processes: closing a process's stdin asks it to finish its
//! calls and exit; one that has not within the stop grace is killed and
//! reaped, and the calls still out to it are Unknown (host-boundary.md: "A
//! call that was out to it when it ended is Unknown if it reached the
//! process"). Dropping the host does the same and returns once its processes
//! are gone.
//!
//! Short graces keep these fast; the only clock asserted on is a generous
//! bound for what must happen eventually. The tests take turns (`serial`):
//! one counts this process's threads, which the others would start.

mod common;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::*;
use flow_host::{Connection, HostOptions, ProcessSpec};
use flow_protocol::CallKey;

/// What must happen eventually happens within this.
const GENEROUS: Duration = Duration::from_secs(60);
/// Long enough for nothing here to be killed by it.
const LONG_GRACE: Duration = Duration::from_secs(60);
const SHORT_GRACE: Duration = Duration::from_millis(200);

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn fake_with_state(name: &str, flags: &str) -> (String, std::path::PathBuf) {
    let state = scratch(&format!("{name}-state"));
    (fake(&format!("--state {} {flags}", quote(state.to_str().unwrap()))), state)
}

#[test]
fn a_process_that_ignores_the_end_of_its_input_is_killed_after_the_grace() {
    let _serial = serial();
    let (command, state) = fake_with_state("ignore-eof", "--ignore-eof");
    let setup = bind_with_grace(&command, "ignore-eof", SHORT_GRACE);
    let pid = fake_pid(&state, 1);
    // Held until "never" answers: out to the process when it is stopped.
    let held = setup.host.call(FORECAST, CallKey::new("r", "hold-until=never"), &forecast_args("Oslo")).unwrap();
    let connection = setup.host.connection(FORECAST).unwrap();
    connection.stop();
    let outcome = held.wait_timeout(GENEROUS).expect("settled once the grace has run out");
    let reason = reason(&outcome, "Unknown");
    assert!(reason.contains("after the call reached it") && reason.contains("signal: 9"), "{reason}");
    assert!(
        setup.logged("did not exit within the stop grace of 200ms after its stdin was closed: killing it"),
        "{:?}",
        setup.log
    );
    // Reaped before its calls were settled.
    assert!(fake_gone(pid), "process {pid} is still there");
    // The next call starts another process.
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
    assert_eq!(connection.starts(), 2);
}

#[test]
fn a_process_that_finishes_its_calls_within_the_grace_keeps_their_replies() {
    let _serial = serial();
    let (command, state) = fake_with_state("finish", "--answer-held-at-eof");
    let Setup { host, log } = bind_with_grace(&command, "finish", LONG_GRACE);
    let pid = fake_pid(&state, 1);
    // Answered only once its input has ended, that is after the stop.
    let held = host.call(FORECAST, CallKey::new("r", "hold-until=never"), &forecast_args("Oslo")).unwrap();
    host.connection(FORECAST).unwrap().stop();
    assert_forecast(&held.wait_timeout(GENEROUS).expect("answered at the end of its input"), "Oslo");
    drop(host);
    assert!(fake_gone(pid), "process {pid} is still there after the host was dropped");
    let log = log.lock().unwrap();
    assert!(!log.iter().any(|l| l.contains("killing it") || l.contains("call(s) out")), "{log:?}");
}

#[test]
fn a_process_stuck_in_a_handler_is_killed_after_the_grace() {
    let _serial = serial();
    // The test Tool waits for running calls at the end of its input, and
    // this one only returns when cancelled.
    let setup = bind_with_grace(&test_tool(), "stuck", SHORT_GRACE);
    let stuck = setup.host.call(FORECAST, CallKey::new("r", "stuck"), &forecast_args("wait-for-cancel")).unwrap();
    setup.host.connection(FORECAST).unwrap().stop();
    let reason = reason(&stuck.wait_timeout(GENEROUS).expect("settled once the grace has run out"), "Unknown");
    assert!(reason.contains("after the call reached it"), "{reason}");
    assert!(setup.logged("did not exit within the stop grace of 200ms"), "{:?}", setup.log);
}

#[test]
fn dropping_the_host_ends_a_process_that_ignores_the_end_of_its_input() {
    let _serial = serial();
    let (command, state) = fake_with_state("drop-host", "--ignore-eof");
    let Setup { host, log } = bind_with_grace(&command, "drop-host", SHORT_GRACE);
    let pid = fake_pid(&state, 1);
    let held = host.call(FORECAST, CallKey::new("r", "hold-until=never"), &forecast_args("Oslo")).unwrap();
    drop(host);
    // The drop returned once the process was gone, its calls settled.
    assert!(fake_gone(pid), "process {pid} outlived its host");
    let reason = reason(&held.wait_timeout(Duration::ZERO).expect("settled by the time the drop returned"), "Unknown");
    assert!(reason.contains("after the call reached it"), "{reason}");
    assert!(log.lock().unwrap().iter().any(|l| l.contains("did not exit within the stop grace of 200ms")), "{:?}", log);
}

#[test]
fn dropping_the_last_clone_of_a_connection_ends_its_process() {
    let _serial = serial();
    let state = scratch("drop-connection-state");
    let spec = ProcessSpec {
        program: env!("CARGO_BIN_EXE_flow-fake-tool").to_owned(),
        args: vec!["--state".to_owned(), state.to_str().unwrap().to_owned(), "--ignore-eof".to_owned()],
        dir: state.clone(),
        env: Vec::new(),
    };
    let (options, _) = options();
    let connection = Connection::new(spec, HostOptions { stop_grace: SHORT_GRACE, ..options });
    connection.describe().unwrap();
    let pid = fake_pid(&state, 1);
    let clone = connection.clone();
    drop(connection);
    assert!(!fake_gone(pid), "a clone still holds it");
    drop(clone);
    assert!(fake_gone(pid), "process {pid} outlived its connection");
}

/// Every thread a connection starts (a reader per process, a watchdog per
/// stop) ends with what it watches: none is left once the host is gone.
#[test]
fn stopping_leaves_no_thread_behind() {
    let _serial = serial();
    let (command, state) = fake_with_state("threads", "--ignore-eof");
    let setup = bind_with_grace(&command, "threads", SHORT_GRACE);
    let connection = setup.host.connection(FORECAST).unwrap();
    for round in 1..=4 {
        let held = setup
            .host
            .call(FORECAST, CallKey::new("r", format!("hold-until=never-{round}")), &forecast_args("Oslo"))
            .unwrap();
        connection.stop();
        assert_eq!(held.wait_timeout(GENEROUS).expect("settled").case(), "Unknown");
    }
    let pids: Vec<u32> = (1..=connection.starts()).map(|start| fake_pid(&state, start)).collect();
    drop(setup);
    assert!(pids.iter().all(|&pid| fake_gone(pid)), "{pids:?}");
    let started = Instant::now();
    loop {
        let left = host_threads();
        if left.is_empty() {
            break;
        }
        assert!(started.elapsed() < GENEROUS, "threads left: {left:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// This process's threads that a connection started, by name.
fn host_threads() -> Vec<String> {
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc is readable");
    tasks
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|name| name.trim_end().to_owned())
        .filter(|name| name.starts_with("flow-host"))
        .collect()
}
