//! Retiring a child process, shared by Tool processes
//! (the host client's connections) and MCP servers (the MCP client). A retired process is out of
//! service and its stdin is closed, its cue to finish and exit; a watchdog
//! thread gives it the stop grace, then has it killed. The connection's own
//! end handling kills, reaps and settles calls; this keeps count of the
//! retired processes not yet ended, so that dropping the last handle can
//! wait for them.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The stop grace Tool processes and MCP servers get by default: long enough
/// to write the replies of calls that were finishing, short enough that a
/// child that ignores the end of its input does not hold its host up long.
pub const DEFAULT_STOP_GRACE: Duration = Duration::from_secs(5);

/// The generations of one connection's processes that were retired and
/// have not ended yet. Its lock is taken last, after any of the
/// connection's own.
#[derive(Default)]
pub struct Retiring {
    generations: Mutex<Vec<u64>>,
    ended: Condvar,
}

impl Retiring {
    fn lock(&self) -> MutexGuard<'_, Vec<u64>> {
        self.generations.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks `generation` retired. Call it under a lock that the process's
    /// end handling takes before it calls [`Retiring::ended`], having seen
    /// the process not yet ended, so that the mark is never left behind.
    pub fn add(&self, generation: u64) {
        self.lock().push(generation);
    }

    /// `generation` has ended and its end has been handled (reaped, calls
    /// settled). Nothing happens if it was never retired.
    pub fn ended(&self, generation: u64) {
        self.lock().retain(|g| *g != generation);
        self.ended.notify_all();
    }

    /// Blocks until every retired process has ended: each has a watchdog
    /// that ends it within the grace.
    pub fn wait_all(&self) {
        drop(self.ended.wait_while(self.lock(), |g| !g.is_empty()).unwrap_or_else(|e| e.into_inner()));
    }

    /// Waits up to `grace` for `generation` to end; whether it still runs.
    fn outlives(&self, generation: u64, grace: Duration) -> bool {
        let retired = |g: &mut Vec<u64>| g.contains(&generation);
        let (mut generations, _) =
            self.ended.wait_timeout_while(self.lock(), grace, retired).unwrap_or_else(|e| e.into_inner());
        retired(&mut generations)
    }
}

/// Gives the retired process `generation` (marked by [`Retiring::add`])
/// `grace` to exit, on a thread named `thread_name` that lives at most that
/// long. If it has not exited, calls `kill` with why: `kill` logs that, then
/// kills and reaps the process and settles its calls as for any process end,
/// which reports it [`Retiring::ended`]. If no thread can be started, nothing
/// would end the process, so `kill` runs at once.
pub fn watch<K>(retiring: &Arc<Retiring>, generation: u64, grace: Duration, thread_name: String, kill: K)
where
    K: Fn(&str) + Clone + Send + 'static,
{
    let (watched, killer) = (retiring.clone(), kill.clone());
    let spawned = std::thread::Builder::new().name(thread_name).spawn(move || {
        if watched.outlives(generation, grace) {
            killer(&format!(
                "it did not exit within the stop grace of {grace:?} after its stdin was closed: killing it"
            ));
        }
    });
    if let Err(e) = spawned {
        kill(&format!("could not start a thread to wait for it to exit ({e}): killing it"));
    }
}

/// What the last handle of a connection ends: the process it runs, stopped
/// as by its `stop`, and every process it retired before.
pub trait Retire {
    /// Stops the running process as the connection's `stop` does.
    fn stop(self: &Arc<Self>);
    /// The count of processes this connection retired and not yet saw end.
    fn retiring(&self) -> &Retiring;
}

/// Held by every clone of a connection and by nothing else, so its drop is
/// the last clone's: it stops the running process and waits until every
/// retired one has ended (each within the stop grace), so that no child
/// outlives its connection.
pub struct LastHandle<T: Retire>(pub Arc<T>);

impl<T: Retire> Drop for LastHandle<T> {
    fn drop(&mut self) {
        self.0.stop();
        self.0.retiring().wait_all();
    }
}
