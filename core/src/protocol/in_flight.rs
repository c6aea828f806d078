//! The bound on calls in flight for a driver whose handlers run elsewhere (the
//! Python and Node runtimes, whose event loops run the author's code): the
//! reader takes no further line while [`InFlight::max`] calls are started and
//! not finished, so a host that stops reading, or handlers that never end,
//! stop the reader instead of growing queues, and the pipe pushes back.
//!
//! Counted by the core itself ([`super::ServerCore::running`]: started, not
//! finished), so no path that ends a call can forget to give its place back.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

use super::front::Front;

/// How many calls a binding's runtime holds at once by default: started and
/// not yet replied to, whether running, waiting for the event loop, or with
/// a reply waiting to be written.
pub const DEFAULT_IN_FLIGHT: usize = 1024;

/// The bound, shared by a driver's reader and whoever finishes calls.
pub struct InFlight {
    room: Condvar,
    /// The reader sleeps on `room`. A notify is a futex syscall whether or
    /// not anyone sleeps, so `finished` skips it unless the reader does.
    waiting: AtomicBool,
    max: usize,
}

impl InFlight {
    /// A bound of `max` calls at once (at least one).
    pub fn new(max: usize) -> InFlight {
        InFlight { room: Condvar::new(), waiting: AtomicBool::new(false), max: max.max(1) }
    }

    /// The most calls allowed at once.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Takes the core's lock once fewer than `max` calls are in flight: how
    /// the reader locks the core before handing it a line.
    pub fn admit<'a, F: Front + ?Sized>(&self, core: &'a Mutex<Box<F>>) -> MutexGuard<'a, Box<F>> {
        let mut guard = core.lock().unwrap_or_else(|e| e.into_inner());
        while guard.core().running() >= self.max {
            // Set under the core's lock: a finisher, which takes that lock
            // to finish its call, reads it after the reader went to sleep.
            self.waiting.store(true, Ordering::SeqCst);
            guard = self.room.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
        self.waiting.store(false, Ordering::SeqCst);
        guard
    }

    /// Says a call has finished (call after [`Front::finish`], once the
    /// core's lock is released).
    pub fn finished(&self) {
        if self.waiting.load(Ordering::SeqCst) {
            self.room.notify_one();
        }
    }
}
