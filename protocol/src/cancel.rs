//! Cancellation of a running call. `cancel` "is a request to stop work on a
//! call. It proves nothing" (`host-boundary.md`): the token only tells the
//! handler; what the handler does about it, and what it replies, is its own.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

type Callback = Box<dyn FnOnce() + Send>;

#[derive(Default)]
struct State {
    cancelled: bool,
    callbacks: Vec<Callback>,
}

#[derive(Default)]
struct Inner {
    state: Mutex<State>,
    changed: Condvar,
}

/// A shared flag that the server sets when a `cancel` for the call arrives.
/// Clones share one flag.
#[derive(Clone, Default)]
pub struct CancelToken {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken").field("cancelled", &self.is_cancelled()).finish()
    }
}

fn lock(inner: &Inner) -> std::sync::MutexGuard<'_, State> {
    // A panicking callback runs outside the lock, so poisoning means only that
    // some thread panicked elsewhere; the flag is still meaningful.
    inner.state.lock().unwrap_or_else(|e| e.into_inner())
}

impl CancelToken {
    /// A token not yet cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Whether the call has been cancelled.
    pub fn is_cancelled(&self) -> bool {
        lock(&self.inner).cancelled
    }

    /// Runs `callback` once when the call is cancelled: now, on this thread, if
    /// it already is; else on the thread that cancels it, which in a server is
    /// the one reading input (with the server core locked): keep it short, and
    /// do not call back into the server from it.
    pub fn on_cancel(&self, callback: impl FnOnce() + Send + 'static) {
        let mut state = lock(&self.inner);
        if state.cancelled {
            drop(state);
            callback();
        } else {
            state.callbacks.push(Box::new(callback));
        }
    }

    /// Sets the flag and runs the callbacks. Later calls do nothing.
    pub fn cancel(&self) {
        let callbacks = {
            let mut state = lock(&self.inner);
            if state.cancelled {
                return;
            }
            state.cancelled = true;
            std::mem::take(&mut state.callbacks)
        };
        self.inner.changed.notify_all();
        for callback in callbacks {
            callback();
        }
    }

    /// Sleeps up to `duration`, waking early on cancellation. Returns whether
    /// the call is cancelled.
    pub fn sleep(&self, duration: Duration) -> bool {
        let state = lock(&self.inner);
        let (state, _) =
            self.inner.changed.wait_timeout_while(state, duration, |s| !s.cancelled).unwrap_or_else(|e| e.into_inner());
        state.cancelled
    }

    /// Blocks until the call is cancelled.
    pub fn wait(&self) {
        let state = lock(&self.inner);
        let _state = self.inner.changed.wait_while(state, |s| !s.cancelled).unwrap_or_else(|e| e.into_inner());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn callbacks_run_once_before_or_after() {
        let token = CancelToken::new();
        let count = Arc::new(AtomicUsize::new(0));
        let c = count.clone();
        token.on_cancel(move || {
            c.fetch_add(1, Ordering::SeqCst);
        });
        assert!(!token.is_cancelled());
        token.clone().cancel();
        token.cancel();
        assert!(token.is_cancelled());
        let c = count.clone();
        token.on_cancel(move || {
            c.fetch_add(10, Ordering::SeqCst);
        });
        assert_eq!(count.load(Ordering::SeqCst), 11);
        assert!(token.sleep(Duration::from_secs(3600)));
    }

    #[test]
    fn wait_returns_when_another_thread_cancels() {
        let token = CancelToken::new();
        let other = token.clone();
        let t = std::thread::spawn(move || other.cancel());
        token.wait();
        t.join().unwrap();
        assert!(token.is_cancelled());
    }
}
