//! The fault soak's short form against the test Tool (flow-test-tool through
//! flow-chaos): a few thousand calls with kills, duplicated lines and delayed
//! replies, every outcome checked by flow-soak against the chaos log. `make
//! test` also runs it against the Rust, Python and TypeScript weather Tools
//! (`make soak-run`); `make soak` is the long run (docs/testing.md, "The fault soak").
//!
//! Nothing is timed: flow-soak's only clocks are deadlock guards of minutes.

use std::process::Command;

#[test]
fn every_call_ends_once_as_prescribed_under_chaos() {
    let work = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-soak-test");
    let out = Command::new(env!("CARGO_BIN_EXE_flow-soak"))
        .args(["--calls", "3000", "--kills", "10", "--work"])
        .arg(&work)
        .arg("test")
        .output()
        .expect("flow-soak runs");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "flow-soak failed:\n{report}");
    assert!(report.contains("every call ended once, as prescribed"), "{report}");
    // The chaos happened: processes were killed and restarted.
    assert!(!report.contains(" 0 kills"), "{report}");
}

/// A host that stops reading for a while (flow-chaos stops reading the Tool's
/// replies): the Tool's bounds push back, and every call still ends once.
#[test]
fn every_call_ends_once_when_the_host_stops_reading_for_a_while() {
    let work = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-soak-stall");
    let out = Command::new(env!("CARGO_BIN_EXE_flow-soak"))
        .args(["--calls", "3000", "--kills", "2", "--stalls", "4", "--stall-ms", "200", "--seed", "7", "--work"])
        .arg(&work)
        .arg("test")
        .output()
        .expect("flow-soak runs");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "flow-soak failed:\n{report}");
    assert!(report.contains("every call ended once, as prescribed"), "{report}");
    assert!(!report.contains(" 0 stalls of the reader"), "{report}");
}

/// The soak's checks can fail: flow-chaos's `--swap-replies` writes pairs of
/// replies with each other's outcomes and logs them as if it had not, which
/// is what a host that misattributed replies would look like from here. A
/// reply drawn for a swap waits for its partner, so with 64 calls out the
/// lie is told whatever the timing; the seed fixes which replies are drawn.
#[test]
fn replies_given_to_the_wrong_calls_are_caught() {
    let work = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-soak-lie");
    let out = Command::new(env!("CARGO_BIN_EXE_flow-soak"))
        .args(["--calls", "500", "--kills", "0", "--swap-replies", "0.2", "--seed", "1", "--work"])
        .arg(&work)
        .arg("test")
        .output()
        .expect("flow-soak runs");
    let _ = std::fs::remove_dir_all(&work);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{report}");
    assert!(report.contains("the host's outcome is not the reply written for it"), "{report}");
    assert!(report.contains("not what its args call for"), "{report}");
}

/// A kill at every chance still spares the first process until its describe
/// answer is out: the host binds through it, and a bind that fails would end
/// a soak before its first call (CI once drew such a kill at random).
#[test]
fn the_first_process_answers_describe_before_any_kill() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("flow-chaos-first");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("chaos.log");
    let mut chaos = Command::new(env!("CARGO_BIN_EXE_flow-chaos"))
        .args(["--seed", "1", "--log", log.to_str().unwrap(), "--kill", "1", "--"])
        .arg(env!("CARGO_BIN_EXE_flow-test-tool"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = chaos.stdin.take().unwrap();
    stdin.write_all(b"{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"describe\",\"params\":{}}\n").unwrap();
    stdin.flush().unwrap();
    let mut answer = String::new();
    BufReader::new(chaos.stdout.take().unwrap()).read_line(&mut answer).unwrap();
    assert!(answer.contains("\"result\""), "describe answered: {answer:?}");
    // Armed now: the next chance kills it.
    drop(stdin);
    let status = chaos.wait().unwrap();
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(written.lines().any(|l| l.starts_with("kill 1 ")), "{written}\n{status}");
    std::fs::remove_dir_all(&dir).unwrap();
}
