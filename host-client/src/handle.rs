//! A pending call: what [`super::Connection::send`] and
//! [`super::Host::call`] return at once, before the call's reply.
//!
//! The outcome lands in a slot the handle shares with whoever settles the
//! call (the connection's reader, its end handling, or the MCP adapter): one
//! small allocation per call, no channel. The settling side is consumed by
//! its settlement, so a call has one outcome however its end is learned.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use flow_protocol::message::{write_cancel, CallKey};
use flow_protocol::outcome::CallOutcome;

use super::outbox::Outbox;

/// How a call is cancelled: a Tool process is sent `cancel` through its
/// outbox (nothing to allocate per call); an in-process implementation (the
/// MCP adapter) is told directly.
pub(crate) enum Cancel {
    Process(Arc<Outbox>),
    Direct(Box<dyn Fn() + Send>),
}

enum Held {
    /// Not settled yet; true once a thread sleeps waiting for it.
    Open(bool),
    Settled(CallOutcome),
    /// Taken by [`CallHandle::wait`]; nobody can look again.
    Taken,
}

/// Where one call's outcome lands.
pub(crate) struct Slot {
    held: Mutex<Held>,
    settled: Condvar,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The settling side of a call: consumed by its one settlement, so a call
/// cannot be settled twice.
pub(crate) struct Settle(Arc<Slot>);

impl Settle {
    /// Settles the call.
    pub(crate) fn settle(self, outcome: CallOutcome) {
        if let Some(wake) = self.settle_quietly(outcome) {
            wake.wake();
        }
    }

    /// Settles the call without waking who sleeps on it: the [`Wake`]
    /// returned does that, so that a reader can settle every reply it holds
    /// before it hands the core to the threads they wake.
    #[must_use = "a thread may sleep on the call until it is woken"]
    pub(crate) fn settle_quietly(self, outcome: CallOutcome) -> Option<Wake> {
        let mut held = self.0.lock();
        let waited = match *held {
            Held::Open(waited) => waited,
            Held::Settled(_) | Held::Taken => unreachable!("a slot has one settling side"),
        };
        *held = Held::Settled(outcome);
        drop(held);
        // A wake costs a syscall: only when a thread sleeps on the slot.
        waited.then_some(Wake(self.0))
    }
}

/// The threads sleeping on a settled call, to be woken.
pub(crate) struct Wake(Arc<Slot>);

impl Wake {
    pub(crate) fn wake(self) {
        self.0.settled.notify_all();
    }
}

/// A call sent (or answered without sending): its outcome can be waited on,
/// polled, or the call cancelled, from any thread. Handles are independent:
/// one thread can hold many, each settled by the connection as its reply
/// comes, in any order. Dropping a handle does not cancel the call: the call
/// stays open until its reply or its process's end, and that outcome is
/// dropped.
///
/// ```no_run
/// use flow_host::{CallHandle, Host};
/// use flow_protocol::CallKey;
/// # fn demo(host: &Host, args: &flow_core::Json) {
/// let tool = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
/// // 64 calls out at once from this one thread.
/// let handles: Vec<CallHandle> =
///     (0..64).map(|i| host.call(tool, CallKey::new("run-1", format!("call-{i}")), args).expect("args decode")).collect();
/// for handle in handles {
///     if handle.poll().is_none() {
///         // Not answered yet: wait for it (replies may come in any order).
///     }
///     let outcome = handle.wait();
///     println!("{}: {}", outcome.case(), outcome.to_canonical());
/// }
/// # }
/// ```
pub struct CallHandle {
    key: CallKey,
    slot: Arc<Slot>,
    cancel: Option<Cancel>,
}

impl std::fmt::Debug for CallHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallHandle").field("key", &self.key).finish_non_exhaustive()
    }
}

impl CallHandle {
    /// An open call and the side that settles it; `cancel` asks its
    /// implementation to stop work on it.
    pub(crate) fn open(key: CallKey, cancel: Option<Cancel>) -> (CallHandle, Settle) {
        let slot = Arc::new(Slot { held: Mutex::new(Held::Open(false)), settled: Condvar::new() });
        (CallHandle { key, slot: slot.clone(), cancel }, Settle(slot))
    }

    /// Sets how the call is cancelled, once known.
    pub(crate) fn set_cancel(&mut self, cancel: Cancel) {
        self.cancel = Some(cancel);
    }

    /// A call settled before it was sent (refused, or not run).
    pub(crate) fn done(key: CallKey, outcome: CallOutcome) -> CallHandle {
        let (handle, settle) = CallHandle::open(key, None);
        settle.settle(outcome);
        handle
    }

    /// The call's (run, call) pair.
    pub fn key(&self) -> &CallKey {
        &self.key
    }

    /// Lines queued for the call's process and not yet written: written
    /// now, by this thread, which is about to block on the reply anyway.
    fn write_queued(&self) {
        if let Some(Cancel::Process(outbox)) = &self.cancel {
            outbox.flush();
        }
    }

    /// Blocks until the call's outcome is known, and returns it. Lines
    /// queued for its process are written first, by this thread.
    pub fn wait(self) -> CallOutcome {
        let settled = matches!(&*self.slot.lock(), Held::Settled(_));
        if !settled {
            // Not under the slot's lock: the end handling settles calls
            // while it holds the pipe's.
            self.write_queued();
        }
        let mut held = self.slot.lock();
        loop {
            match std::mem::replace(&mut *held, Held::Taken) {
                Held::Settled(outcome) => return outcome,
                Held::Open(_) => {
                    *held = Held::Open(true);
                    held = self.slot.settled.wait(held).unwrap_or_else(|e| e.into_inner());
                }
                Held::Taken => unreachable!("only `wait`, which consumes the handle, takes the outcome"),
            }
        }
    }

    /// The outcome if the call is settled, `None` if it is still open; never
    /// blocks. Asking again returns the same outcome.
    pub fn poll(&self) -> Option<CallOutcome> {
        match &*self.slot.lock() {
            Held::Settled(outcome) => Some(outcome.clone()),
            Held::Open(_) | Held::Taken => None,
        }
    }

    /// Waits up to `timeout`; `None` if the call is still open then. Lines
    /// queued for its process are handed to its writer thread at once
    /// (written there, so that a full pipe cannot outlast the timeout).
    pub fn wait_timeout(&self, timeout: Duration) -> Option<CallOutcome> {
        if let Some(Cancel::Process(outbox)) = &self.cancel {
            outbox.hurry();
        }
        let deadline = Instant::now().checked_add(timeout);
        let mut held = self.slot.lock();
        loop {
            if let Held::Settled(outcome) = &*held {
                return Some(outcome.clone());
            }
            let left = match deadline {
                Some(deadline) => deadline.saturating_duration_since(Instant::now()),
                None => Duration::MAX,
            };
            if left.is_zero() {
                return None;
            }
            *held = Held::Open(true);
            held = self.slot.settled.wait_timeout(held, left).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// Asks the implementation to stop work on the call. It proves nothing:
    /// the call stays open until its reply, or until its process ends, and
    /// is settled as any other call then.
    pub fn cancel(&self) {
        match &self.cancel {
            // A process that takes no more lines has ended or is ending: the
            // call is settled by that end.
            Some(Cancel::Process(outbox)) => {
                outbox.push_line(write_cancel(&self.key).as_bytes());
            }
            Some(Cancel::Direct(cancel)) => cancel(),
            None => {}
        }
    }
}
