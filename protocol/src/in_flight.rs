//! The bound on calls in flight for a driver whose handlers run elsewhere (the
//! Python and Node runtimes, whose event loops run the author's code).
//!
//! The reader never stops reading for it: a call that would pass the bound
//! ([`InFlight::max`] calls, or [`InFlight::max_bytes`] of their lines) is
//! answered NotRun at once, naming the bound, instead of started. So a
//! cancel, or any other control message, is never stuck behind calls the
//! reader will not take, and what the runtime holds stays bounded whatever
//! the host sends. Only a host that stops reading replies stops the reader
//! (its writes block), so the pipe pushes back then.
//!
//! Counted by the core itself ([`super::ServerCore::running`] and
//! [`super::ServerCore::running_bytes`]: started, not finished), so no path
//! that ends a call can forget to give its place back.

use std::sync::{Mutex, MutexGuard};

use super::framing::Frame;
use super::front::Front;
use super::server::{Event, HandlerResult};

/// How many calls a binding's runtime holds at once by default: started and
/// not yet replied to, whether running, waiting for the event loop, or with
/// a reply waiting to be written.
pub const DEFAULT_IN_FLIGHT: usize = 1024;

/// How many bytes of call lines a binding's runtime holds at once by
/// default (one call alone is always taken, up to the line limit).
pub const DEFAULT_IN_FLIGHT_BYTES: usize = 64 << 20;

/// The bound, shared by a driver's reader and whoever finishes calls.
pub struct InFlight {
    max: usize,
    max_bytes: usize,
}

impl InFlight {
    /// A bound of `max` calls at once (at least one), and
    /// [`DEFAULT_IN_FLIGHT_BYTES`] of their lines.
    pub fn new(max: usize) -> InFlight {
        InFlight { max: max.max(1), max_bytes: DEFAULT_IN_FLIGHT_BYTES }
    }

    /// The same bound with `max_bytes` of call lines at most.
    pub fn with_bytes(self, max_bytes: usize) -> InFlight {
        InFlight { max_bytes, ..self }
    }

    /// The most calls allowed at once.
    pub fn max(&self) -> usize {
        self.max
    }

    /// The most bytes of call lines allowed at once.
    pub fn max_bytes(&self) -> usize {
        self.max_bytes
    }

    /// Why a call past the bound was not run: the reason of its NotRun.
    pub fn refusal(&self) -> String {
        let bytes = bound_text(self.max_bytes);
        format!(
            "the Tool is at its bound of calls in flight ({} calls, or {bytes} of call lines, started and not yet \
             replied to), so it did not start this one",
            self.max
        )
    }

    /// Hands `frame` to the core and returns what to do; a call it starts
    /// past the bound is ended NotRun at once ([`InFlight::refusal`]), its
    /// reply in place of its start. Never waits.
    pub fn receive<F: Front + ?Sized>(&self, core: &Mutex<Box<F>>, frame: Frame) -> Vec<Event> {
        let mut core = lock(core);
        let mut events = core.receive_frame(frame);
        for event in &mut events {
            if let Event::Start(call) = event {
                let running = core.core();
                // The call just started counts: past the bound it is refused,
                // unless it is alone (one call of any size up to the line
                // limit is always taken).
                let over =
                    running.running() > self.max || (running.running() > 1 && running.running_bytes() > self.max_bytes);
                if over {
                    let key = call.key.clone();
                    let lines = core.finish(&key, HandlerResult::NotRun(self.refusal()));
                    *event = Event::Write(lines.concat());
                }
            }
        }
        events
    }
}

/// A byte bound as a NotRun reason states it: whole MiB where it is one, else bytes.
pub fn bound_text(bytes: usize) -> String {
    if bytes % (1 << 20) == 0 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ServerCore;
    use flow_core::types::parse::listing_from_text;
    use flow_core::Limits;

    const WEATHER: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");
    const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";

    fn call(n: usize, city: &str) -> Frame {
        Frame::Line(
            format!(
                "{{\"jsonrpc\":\"2.0\",\"method\":\"call\",\"params\":{{\"args\":{{\"city\":\"{city}\",\"days\":1,\"units\":\"None\"}},\"call\":\"c{n}\",\"run\":\"r\",\"tool\":\"{FORECAST}\"}}}}"
            )
            .into_bytes(),
        )
    }

    fn core() -> Mutex<Box<dyn Front>> {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        Mutex::new(Box::new(ServerCore::from_listing(&listing).unwrap()))
    }

    #[test]
    fn past_the_bound_a_call_is_answered_not_run_at_once_and_a_cancel_still_reaches_its_call() {
        let core = core();
        let bound = InFlight::new(3);
        let mut started = Vec::new();
        for n in 0..5 {
            for event in bound.receive(&core, call(n, "Oslo")) {
                match event {
                    Event::Start(call) => started.push(call),
                    Event::Write(line) if n >= 3 => {
                        assert!(line.contains(&format!("\"call\":\"c{n}\"")), "{line}");
                        assert!(
                            line.contains("{\"NotRun\":\"the Tool is at its bound of calls in flight (3 calls"),
                            "{line}"
                        );
                    }
                    other => panic!("call {n}: {other:?}"),
                }
            }
        }
        assert_eq!(started.len(), 3);
        // The reader read on: a cancel of a running call reaches its token.
        let cancel = Frame::Line(br#"{"jsonrpc":"2.0","method":"cancel","params":{"run":"r","call":"c1"}}"#.to_vec());
        let events = bound.receive(&core, cancel);
        assert!(matches!(&events[..], [Event::Cancel(_)]), "{events:?}");
        assert!(started[1].cancel.is_cancelled());
        // A finished call gives its place back.
        lock(&core).finish(&started[0].key, HandlerResult::NotRun("done".into()));
        assert!(matches!(&bound.receive(&core, call(9, "Oslo"))[..], [Event::Start(_)]));
    }

    #[test]
    fn past_the_byte_bound_a_call_is_not_run_but_one_alone_always_runs() {
        let core = core();
        let bound = InFlight::new(100).with_bytes(300);
        let long = "x".repeat(400);
        assert!(matches!(&bound.receive(&core, call(0, &long))[..], [Event::Start(_)]), "one call alone runs");
        let events = bound.receive(&core, call(1, "Oslo"));
        assert!(matches!(&events[..], [Event::Write(line)] if line.contains("300 bytes of call lines")), "{events:?}");
        assert_eq!(lock(&core).core().running(), 1);
    }
}
