//! The fault soak's short form against the test Tool (flow-test-tool through
//! flow-chaos): a few thousand calls with kills, duplicated lines and delayed
//! replies, every outcome checked by flow-soak against the chaos log. `make
//! test` also runs it against the Rust, Python and TypeScript weather Tools
//! (`make soak-run`); `make soak` is the long run (README, "Hardening").
//!
//! Nothing is timed: flow-soak's only clocks are deadlock guards of minutes.

use std::process::Command;

#[test]
fn every_call_ends_once_as_prescribed_under_chaos() {
    let work = std::env::temp_dir().join(format!("flow-soak-test-{}", std::process::id()));
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

/// The soak's checks can fail: flow-chaos's `--swap-replies` writes pairs of
/// replies with each other's outcomes and logs them as if it had not, which
/// is what a host that misattributed replies would look like from here.
#[test]
fn replies_given_to_the_wrong_calls_are_caught() {
    let work = std::env::temp_dir().join(format!("flow-soak-lie-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_flow-soak"))
        .args(["--calls", "500", "--kills", "0", "--swap-replies", "0.2", "--work"])
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
