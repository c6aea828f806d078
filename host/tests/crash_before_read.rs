//! A process that ends before reading a call makes that call NotRun, and is
//! restarted for the next; the one that closed its stdin but runs on is
//! killed once the stop grace has run out.
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
    let command = fake(&format!("--state {} --close-stdin-on-first-start", quote(state.to_str().unwrap())));
    let setup = bind_with_grace(&command, "crash-before", std::time::Duration::from_millis(200));
    let first = fake_pid(&state, 1);
    assert!(reason(&forecast(&setup, "1", "Oslo"), "NotRun").contains("before the call reached it"));
    // Restarted, and described again, for the next call.
    assert_forecast(&forecast(&setup, "2", "Bergen"), "Bergen");
    assert_eq!(setup.host.connection(FORECAST).unwrap().starts(), 2);
    // The first sleeps on after closing its stdin: killed after the grace,
    // and gone by the time the host's drop returns.
    let Setup { host, log } = setup;
    drop(host);
    assert!(fake_gone(first), "process {first} outlived its host");
    assert!(log.lock().unwrap().iter().any(|l| l.contains("could not write a call to it")), "{log:?}");
    assert!(log.lock().unwrap().iter().any(|l| l.contains("did not exit within the stop grace of 200ms")), "{log:?}");
}
