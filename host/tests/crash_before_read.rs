//! A process that ends before reading a call makes that call NotRun, and is
//! restarted for the next.
//!
//! In its own test binary on purpose: the fake closes its stdin so that the
//! host's write fails, and while another test thread is between fork and exec
//! its child briefly holds a copy of every pipe end, which would let the write
//! succeed. Cargo runs test binaries one at a time, so here nothing else forks.

mod common;

use common::*;

#[test]
fn a_process_that_ends_before_reading_a_call_makes_it_not_run() {
    let state = scratch("crash-before-state");
    let setup = bind(&fake(&format!("--state {} --close-stdin-on-first-start", quote(state.to_str().unwrap()))), "crash-before");
    assert!(reason(&forecast(&setup, "1", "Oslo"), "NotRun").contains("before the call reached it"));
    // Restarted, and described again, for the next call.
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
    assert_eq!(setup.host.connection(FORECAST).unwrap().starts(), 2);
}
