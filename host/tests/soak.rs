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
