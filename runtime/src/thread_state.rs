//! Whether a thread of this process is blocked, or how long it has run on a
//! CPU, as Linux tells it in `/proc`: what lets the Rust runtime's standby
//! tell a leader whose handler runs long (blocked in a wait, or computing)
//! from one that was only descheduled on a loaded machine (runnable, waiting
//! for a CPU), and the Python runtime's pool tell a blocked worker from a
//! computing one.
//!
//! Elsewhere, or when `/proc` cannot be read, nothing is known: the standby
//! goes by wall time alone, and the pool counts the thread as blocked.

use std::time::Duration;

/// A thread of this process, by its kernel id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreadId(i32);

/// What a thread is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// Asleep in the kernel: waiting on a lock, a timer, a pipe, a socket.
    Blocked,
    /// Running or waiting for a CPU.
    Runnable {
        /// Its time on a CPU so far.
        ran: Duration,
    },
}

#[cfg(target_os = "linux")]
thread_local! {
    // The system call, not glibc's gettid wrapper: that arrived in glibc
    // 2.30, and the released binaries run on glibc 2.17 (docs/install.md).
    // SAFETY: gettid takes nothing and cannot fail; a thread id fits an i32.
    static CURRENT: ThreadId = ThreadId(unsafe { libc::syscall(libc::SYS_gettid) } as i32);
}

/// The calling thread (its id is asked of the kernel once per thread).
#[cfg(target_os = "linux")]
pub fn current() -> Option<ThreadId> {
    CURRENT.try_with(|id| *id).ok()
}

/// The calling thread: unknown off Linux.
#[cfg(not(target_os = "linux"))]
pub fn current() -> Option<ThreadId> {
    None
}

/// What `thread` is doing now; `None` when `/proc` does not say.
pub fn activity(thread: ThreadId) -> Option<Activity> {
    if !is_runnable(thread)? {
        return Some(Activity::Blocked);
    }
    let schedstat = std::fs::read_to_string(format!("{}/schedstat", task_dir(thread))).ok()?;
    Some(Activity::Runnable { ran: ran(&schedstat)? })
}

/// Whether `thread` is running or waiting for a CPU (not blocked), without
/// its time on a CPU; `None` when `/proc` does not say.
pub fn is_runnable(thread: ThreadId) -> Option<bool> {
    let stat = std::fs::read_to_string(format!("{}/stat", task_dir(thread))).ok()?;
    runnable(&stat)
}

fn task_dir(thread: ThreadId) -> String {
    format!("/proc/self/task/{}", thread.0)
}

/// Whether a `stat` line's state is R (running or runnable); `None` when the
/// line has no state.
fn runnable(stat: &str) -> Option<bool> {
    // The name, in parentheses, may hold anything: the state follows the last `)`.
    let state = stat[stat.rfind(')')? + 1..].split_ascii_whitespace().next()?;
    Some(state == "R")
}

/// The time on a CPU from a `schedstat` line (nanoseconds run, waited, and
/// timeslices).
fn ran(schedstat: &str) -> Option<Duration> {
    Some(Duration::from_nanos(schedstat.split_ascii_whitespace().next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc};

    #[test]
    fn the_proc_lines_are_read_as_the_kernel_writes_them() {
        assert_eq!(runnable("4242 (flow-tool handler) R 1 2 3"), Some(true));
        assert_eq!(runnable("4242 (a) S) R) S 1 2 3"), Some(false));
        assert_eq!(runnable("4242 (x) D 1"), Some(false));
        assert_eq!(runnable("no name here"), None);
        assert_eq!(ran("1864210 5000 3\n"), Some(Duration::from_nanos(1_864_210)));
        assert_eq!(ran(""), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_waiting_thread_is_blocked_and_a_spinning_one_runs() {
        let (id_tx, id_rx) = mpsc::channel();
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let waiting = std::thread::spawn(move || {
            id_tx.send(current().unwrap()).unwrap();
            go_rx.recv().unwrap();
        });
        let id = id_rx.recv().unwrap();
        // Blocked once it is in its wait; give it time to get there.
        let blocked = (0..200).any(|_| {
            std::thread::sleep(Duration::from_millis(5));
            activity(id) == Some(Activity::Blocked)
        });
        go_tx.send(()).unwrap();
        waiting.join().unwrap();
        assert!(blocked);

        let stop = Arc::new(AtomicBool::new(false));
        let (id_tx, id_rx) = mpsc::channel();
        let spin = stop.clone();
        let spinning = std::thread::spawn(move || {
            id_tx.send(current().unwrap()).unwrap();
            while !spin.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        });
        let id = id_rx.recv().unwrap();
        let ran_at = || match activity(id) {
            Some(Activity::Runnable { ran }) => Some(ran),
            _ => None,
        };
        // Runnable with its CPU time rising (sampled until both reads land
        // while it runs, which a loaded machine may delay).
        let rising = (0..200).any(|_| {
            let first = ran_at();
            std::thread::sleep(Duration::from_millis(5));
            matches!((first, ran_at()), (Some(a), Some(b)) if b > a)
        });
        stop.store(true, Ordering::Relaxed);
        spinning.join().unwrap();
        assert!(rising);
        assert_ne!(current(), Some(id));
    }
}
