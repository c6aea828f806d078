//! The host client's call handles: many calls out from one thread, replies
//! in any order, a Tool dying with calls out, cancellation, handles dropped
//! unread. Ordering is forced by the fake's held replies, never by sleeps.

mod common;

use common::*;
use flow_host::CallHandle;
use flow_protocol::CallKey;

fn call(setup: &Setup, id: &str, city: &str) -> CallHandle {
    setup.host.call(FORECAST, CallKey::new("r", id), &forecast_args(city)).unwrap()
}

#[test]
fn one_thread_keeps_many_calls_out_and_each_gets_its_own_reply() {
    let setup = bind(&test_tool(), "pipeline-many");
    // Every call is sent before any is waited on.
    let handles: Vec<_> = (0..500).map(|i| call(&setup, &format!("m{i}"), &format!("city{i}"))).collect();
    for (i, handle) in handles.into_iter().enumerate() {
        assert_eq!(handle.key(), &CallKey::new("r", format!("m{i}")));
        assert_forecast(&handle.wait(), &format!("city{i}"));
    }
    // A closed loop from one thread: 64 out, a new call as each one settles.
    let mut out = std::collections::VecDeque::new();
    for i in 0..1000 {
        if out.len() == 64 {
            let (city, handle): (String, CallHandle) = out.pop_front().unwrap();
            assert_forecast(&handle.wait(), &city);
        }
        let city = format!("loop{i}");
        out.push_back((city.clone(), call(&setup, &format!("l{i}"), &city)));
    }
    for (city, handle) in out {
        assert_forecast(&handle.wait(), &city);
    }
    assert_eq!(setup.host.connection(FORECAST).unwrap().starts(), 1);
    assert!(!setup.logged("not open"), "every reply found its call");
}

#[test]
fn replies_in_another_order_than_the_calls_settle_their_own_handles() {
    let setup = bind(&fake(""), "pipeline-order");
    // The first call's reply is held until the third is answered, the
    // second's until the first is: replies come third, first, second.
    let first = call(&setup, "hold-until=third", "Oslo");
    let second = call(&setup, "hold-until=hold-until=third", "Bergen");
    assert_eq!(first.poll(), None, "held: nothing can have settled it");
    let third = call(&setup, "third", "Tromso");
    assert_forecast(&first.wait(), "Oslo");
    assert_forecast(&second.wait(), "Bergen");
    // Answered before the first was released.
    let answered = third.poll().expect("settled before the reply it released");
    assert_forecast(&answered, "Tromso");
    assert_eq!(third.poll(), Some(answered.clone()), "polling again gives the same outcome");
    assert_eq!(third.wait(), answered);
}

#[test]
fn calls_out_when_the_tool_dies_are_each_settled_once_as_unknown() {
    let setup = bind(&fake(""), "pipeline-dies");
    let held: Vec<_> = (0..40).map(|i| call(&setup, &format!("hold-until=never-{i}"), "Oslo")).collect();
    // It exits as soon as it reads this call: every held call had reached it.
    let crash = call(&setup, "crash-after-read-1", "Oslo");
    let crashed = reason(&crash.wait(), "Unknown");
    assert!(crashed.contains("after the call reached it"), "{crashed}");
    for handle in held {
        let first = handle.wait_timeout(GENEROUS).expect("settled by the end of its process");
        assert!(reason(&first, "Unknown").contains("exit status: 3"), "{first:?}");
        // Settled once: asking again gives the same outcome, not a second one.
        assert_eq!(handle.poll(), Some(first.clone()));
        assert_eq!(handle.wait(), first);
    }
    // The next call starts another process.
    assert_forecast(&call(&setup, "after", "Bergen").wait(), "Bergen");
    assert_eq!(setup.host.connection(FORECAST).unwrap().starts(), 2);
}

#[test]
fn a_cancelled_call_out_among_others_ends_on_its_own_and_the_rest_are_answered() {
    let setup = bind(&test_tool(), "pipeline-cancel");
    let before: Vec<_> = (0..30).map(|i| call(&setup, &format!("b{i}"), &format!("before{i}"))).collect();
    let blocked = call(&setup, "blocked", "wait-for-cancel");
    let after: Vec<_> = (0..30).map(|i| call(&setup, &format!("a{i}"), &format!("after{i}"))).collect();
    for (i, handle) in before.into_iter().enumerate() {
        assert_forecast(&handle.wait(), &format!("before{i}"));
    }
    for (i, handle) in after.into_iter().enumerate() {
        assert_forecast(&handle.wait(), &format!("after{i}"));
    }
    // Only its cancel ends it: still open once every other call is answered.
    assert_eq!(blocked.poll(), None);
    blocked.cancel();
    assert_eq!(blocked.wait().to_canonical(), r#"{"Failed":"RateLimited"}"#);
}

#[test]
fn a_cancel_proves_nothing_and_the_call_stays_open_until_its_process_ends() {
    let setup = bind(&fake(""), "pipeline-cancel-unanswered");
    // The fake ignores cancels: the call is open until its process ends.
    let held = call(&setup, "hold-until=never", "Oslo");
    held.cancel();
    held.cancel();
    assert_forecast(&call(&setup, "other", "Bergen").wait(), "Bergen");
    assert_eq!(held.poll(), None, "a cancel settles nothing");
    setup.host.connection(FORECAST).unwrap().kill();
    let reason = reason(&held.wait_timeout(GENEROUS).expect("settled by the kill"), "Unknown");
    assert!(reason.contains("after the call reached it"), "{reason}");
    // A cancel after the process ended goes nowhere and changes nothing.
    held.cancel();
    assert_eq!(held.poll().map(|o| o.case()), Some("Unknown"));
}

#[test]
fn handles_dropped_unread_leave_their_calls_to_be_answered() {
    let setup = bind(&fake(""), "pipeline-dropped");
    for i in 0..100 {
        drop(call(&setup, &format!("d{i}"), "Oslo"));
    }
    // Dropped while held, then released: its reply still finds the call open.
    drop(call(&setup, "hold-until=release", "Oslo"));
    assert_forecast(&call(&setup, "release", "Bergen").wait(), "Bergen");
    // Replies come in order: by now every dropped call has had its reply.
    assert_forecast(&call(&setup, "last", "Tromso").wait(), "Tromso");
    assert!(!setup.logged("not open"), "no reply was taken for a stray: {:?}", setup.log.lock().unwrap());
    // Their pairs are free again: each call was settled and forgotten.
    assert_forecast(&call(&setup, "d0", "Oslo").wait(), "Oslo");
    // A dropped call out when its process dies is settled with nobody to tell.
    drop(call(&setup, "hold-until=never", "Oslo"));
    setup.host.connection(FORECAST).unwrap().kill();
    assert_forecast(&call(&setup, "after-kill", "Bergen").wait(), "Bergen");
}

const GENEROUS: std::time::Duration = std::time::Duration::from_secs(30);

#[test]
fn calls_whose_caller_never_waits_are_still_written_and_answered() {
    let setup = bind(&test_tool(), "pipeline-never-waits");
    // Only polled: no thread blocks on a handle, so the process's writer
    // thread, not a waiting caller, writes these lines.
    let handles: Vec<_> = (0..200).map(|i| call(&setup, &format!("p{i}"), &format!("polled{i}"))).collect();
    let deadline = std::time::Instant::now() + GENEROUS;
    for (i, handle) in handles.iter().enumerate() {
        let outcome = loop {
            if let Some(outcome) = handle.poll() {
                break outcome;
            }
            assert!(std::time::Instant::now() < deadline, "call {i} was never answered");
            std::thread::yield_now();
        };
        assert_forecast(&outcome, &format!("polled{i}"));
    }
    // A burst sent while the writer lingers after that write, then one wait.
    let burst: Vec<_> = (0..100).map(|i| call(&setup, &format!("w{i}"), &format!("burst{i}"))).collect();
    for (i, handle) in burst.into_iter().enumerate().rev() {
        assert_forecast(&handle.wait(), &format!("burst{i}"));
    }
}

/// A small seeded generator, so a failing mix can be replayed.
struct Mix(u64);

impl Mix {
    fn below(&mut self, n: usize) -> usize {
        // xorshift64
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn a_seeded_mix_of_waits_polls_and_cancels_settles_every_call_once() {
    let setup = bind(&test_tool(), "pipeline-mix");
    for seed in [1u64, 0x9e37_79b9_7f4a_7c15, 42] {
        let mut mix = Mix(seed);
        // (city, handle, what a poll saw, cancelled): a blocked call's city
        // is "wait-for-cancel", answered only once it is cancelled.
        type Out = (String, CallHandle, Option<flow_protocol::CallOutcome>, bool);
        let mut out: std::collections::VecDeque<Out> = Default::default();
        let check = |city: &str, cancelled: bool, outcome: &flow_protocol::CallOutcome| {
            // A cancel that found the call still waiting for a thread: it
            // never ran.
            let waiting = outcome.case() == "NotRun"
                && outcome.reason().is_some_and(|r| r.starts_with("cancelled before it started"));
            if cancelled && waiting {
                return;
            }
            if city == "wait-for-cancel" {
                assert_eq!(outcome.to_canonical(), r#"{"Failed":"RateLimited"}"#, "seed {seed}");
            } else {
                assert_forecast(outcome, city);
            }
        };
        for i in 0..1500 {
            match mix.below(10) {
                // Calls come most often, so runs of them pass a chunk unwritten.
                0..=5 if out.len() < 96 => {
                    let city = if mix.below(20) == 0 { "wait-for-cancel".to_owned() } else { format!("mix{i}") };
                    let handle = call(&setup, &format!("s{seed}-{i}"), &city);
                    out.push_back((city, handle, None, false));
                }
                6 if !out.is_empty() => {
                    let at = mix.below(out.len());
                    let (city, handle, seen, cancelled) = &mut out[at];
                    if let Some(now) = handle.poll() {
                        check(city, *cancelled, &now);
                        assert!(seen.as_ref().is_none_or(|s| *s == now), "seed {seed}: a poll changed its outcome");
                        *seen = Some(now);
                    }
                }
                7 if !out.is_empty() => {
                    // A cancel of an answered call changes nothing; one of a
                    // call still waiting for a thread makes it NotRun.
                    let at = mix.below(out.len());
                    out[at].1.cancel();
                    out[at].3 = true;
                }
                _ => {
                    let Some((city, handle, seen, cancelled)) = out.pop_front() else { continue };
                    if city == "wait-for-cancel" {
                        handle.cancel();
                    }
                    let outcome = handle.wait();
                    check(&city, cancelled || city == "wait-for-cancel", &outcome);
                    assert!(seen.is_none_or(|s| s == outcome), "seed {seed}: wait differs from a poll");
                }
            }
        }
        for (city, handle, seen, cancelled) in out {
            if city == "wait-for-cancel" {
                handle.cancel();
            }
            let outcome = handle.wait();
            check(&city, cancelled || city == "wait-for-cancel", &outcome);
            assert!(seen.is_none_or(|s| s == outcome), "seed {seed}: wait differs from a poll");
        }
    }
    assert_eq!(setup.host.connection(FORECAST).unwrap().starts(), 1, "no process ended under the mix");
    assert!(!setup.logged("not open"), "every reply found its call, once");
}
