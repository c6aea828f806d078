//! The threads that run plain (`def`) handlers: a pool that starts with one
//! worker and grows only when its workers are blocked.
//!
//! Under the GIL, one thread running handlers back to back is the fastest a
//! Tool whose handlers compute can go: every other thread woken per call is a
//! futex wake and a GIL hand-off. So:
//!
//! - the reader queues each started call and wakes a worker only when none is
//!   awake; a worker takes the GIL once and keeps it while calls wait,
//!   building each call's args, running its handler and encoding its reply
//!   without letting go;
//! - replies gather in the [`Outbox`](super::outbox::Outbox): the worker
//!   writes them (without the GIL) when no call waits, every
//!   [`BATCH_LINES`] replies, and before it runs the last call queued (which
//!   may block);
//! - a supervisor thread watches the queue while calls wait: when none was
//!   taken for [`GROW_AFTER`], no worker is runnable and one is blocked in
//!   a handler (a sleep, I/O, waiting for a cancel), it wakes an idle worker or
//!   starts a new one, up to `max_workers`; it also writes replies that have
//!   waited as long. A worker that is runnable is computing, or waiting for a
//!   core on a loaded machine: another would only wait for the GIL, so the
//!   pool grows for it only after [`GROW_BESIDE_RUNNING`] (so that calls
//!   still interleave with a handler that computes for long). Nor does a
//!   worker blocked outside a handler count (writing to a host that does not
//!   read, or waiting for the reader's lock): another could only wait beside it.
//!
//! So a call waits for a blocked handler at most about [`GROW_AFTER`] while
//! the pool can grow, and workers are never stopped until the pool is.
//! Whether a thread is runnable is read from `/proc` (Linux, through
//! `flow_runtime::thread_state`); without it, every stalled worker
//! counts as blocked.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use flow_protocol::server::HandlerResult;
use flow_protocol::StartedCall;
use flow_runtime::thread_state::{self, ThreadId};
use pyo3::prelude::*;

use super::outbox::{self, Outbox};
use super::{lock, Shared};

/// How long the queue may make no progress before the pool adds a worker.
pub(super) const GROW_AFTER: Duration = Duration::from_millis(5);

/// How long the queue may make no progress, while a worker is runnable,
/// before the pool adds a worker anyway.
pub(super) const GROW_BESIDE_RUNNING: Duration = Duration::from_millis(100);

/// How long a worker out of calls looks for the next one (yielding its core
/// meanwhile) before it sleeps: with cores free the next call of a busy host
/// is a few microseconds away, and a sleep and a wake-up per call cost more.
pub(super) const SPIN: Duration = Duration::from_micros(50);

/// Looks that found no call in a row before workers stop looking (then they
/// look once every [`PROBE_EVERY`] times they run out of calls): a host with
/// one call out is not made to pay [`SPIN`] per call.
const SPIN_CREDIT: u32 = 8;
const PROBE_EVERY: u32 = 16;

/// A worker writes its replies once this many wait, even while calls queue.
pub(super) const BATCH_LINES: usize = 16;

struct State {
    queue: VecDeque<Box<StartedCall>>,
    /// Workers started and not ended.
    workers: usize,
    /// Workers waiting for a wake-up; `workers - idle` are awake.
    idle: usize,
    /// Wake-ups given and not yet taken by a worker.
    wakeups: usize,
    /// Calls taken from the queue so far: what the supervisor watches.
    taken: u64,
    /// The supervisor is watching the queue (not waiting to be told).
    supervising: bool,
    stopping: bool,
    handles: Vec<JoinHandle<()>>,
    /// Each worker's kernel thread id (where it is known) and whether it is
    /// running a call.
    watched: Vec<(Option<ThreadId>, Arc<AtomicBool>)>,
}

/// The pool (see the module doc).
pub(super) struct Pool {
    state: Mutex<State>,
    work: Condvar,
    supervise: Condvar,
    max_workers: usize,
    shared: Arc<Shared>,
    /// `run(call, args)`: runs one handler and replies through its `Call`.
    run: Py<PyAny>,
    supervisor: Mutex<Option<JoinHandle<()>>>,
    /// The queue's length, for a worker looking for a call without the lock.
    queued: AtomicUsize,
    /// Looks for a call that may still fail before workers stop looking.
    spin_credit: AtomicU32,
    /// Times a worker ran out of calls (to probe every [`PROBE_EVERY`]).
    ran_out: AtomicU32,
}

impl Pool {
    /// A pool with its first worker and its supervisor running.
    pub(super) fn start(shared: Arc<Shared>, run: Py<PyAny>, max_workers: usize) -> std::io::Result<Arc<Pool>> {
        let pool = Arc::new(Pool {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                workers: 0,
                idle: 0,
                wakeups: 0,
                taken: 0,
                supervising: false,
                stopping: false,
                handles: Vec::new(),
                watched: Vec::new(),
            }),
            work: Condvar::new(),
            supervise: Condvar::new(),
            max_workers: max_workers.max(1),
            shared,
            run,
            supervisor: Mutex::new(None),
            queued: AtomicUsize::new(0),
            spin_credit: AtomicU32::new(SPIN_CREDIT),
            ran_out: AtomicU32::new(0),
        });
        {
            let mut state = lock(&pool.state);
            pool.add_worker(&mut state)?;
        }
        let watched = pool.clone();
        let supervisor = std::thread::Builder::new().name("flow-tool-pool".into()).spawn(move || supervise(watched))?;
        *lock(&pool.supervisor) = Some(supervisor);
        Ok(pool)
    }

    fn add_worker(self: &Arc<Pool>, state: &mut MutexGuard<'_, State>) -> std::io::Result<()> {
        let pool = self.clone();
        let handle =
            std::thread::Builder::new().name(format!("flow-tool-{}", state.workers)).spawn(move || work(pool))?;
        state.workers += 1;
        state.handles.push(handle);
        Ok(())
    }

    fn wake_one(&self, state: &mut State) {
        state.idle -= 1;
        state.wakeups += 1;
        self.work.notify_one();
    }

    /// Queues a started call (the reader, without the GIL).
    pub(super) fn push(&self, started: Box<StartedCall>) {
        let mut state = lock(&self.state);
        state.queue.push_back(started);
        self.queued.store(state.queue.len(), Ordering::Relaxed);
        if state.workers == state.idle && state.idle > 0 {
            self.wake_one(&mut state);
        } else if !state.supervising {
            // It waits for an awake worker: the supervisor sees that it is taken.
            state.supervising = true;
            self.supervise.notify_one();
        }
    }

    /// Takes the queued call `key` off the queue, if it is still there: a
    /// cancel that came before any worker took it.
    pub(super) fn unqueue(&self, key: &flow_protocol::CallKey) -> Option<Box<StartedCall>> {
        let mut state = lock(&self.state);
        let at = state.queue.iter().position(|call| call.key == *key)?;
        let call = state.queue.remove(at);
        self.queued.store(state.queue.len(), Ordering::Relaxed);
        call
    }

    /// The next queued call, and whether the queue is empty after it.
    fn take_now(&self) -> Option<(Box<StartedCall>, bool)> {
        let mut state = lock(&self.state);
        let started = state.queue.pop_front()?;
        self.queued.store(state.queue.len(), Ordering::Relaxed);
        state.taken += 1;
        Some((started, state.queue.is_empty()))
    }

    /// The next queued call, waiting (without the GIL) for one; None once
    /// the pool stops and the queue is empty.
    fn wait_take(&self) -> Option<Box<StartedCall>> {
        let mut state = lock(&self.state);
        let mut looked = false;
        loop {
            if let Some(started) = state.queue.pop_front() {
                self.queued.store(state.queue.len(), Ordering::Relaxed);
                state.taken += 1;
                return Some(started);
            }
            if state.stopping {
                return None;
            }
            if !looked {
                looked = true;
                drop(state);
                self.look_for_a_call();
                state = lock(&self.state);
                continue;
            }
            state.idle += 1;
            while state.wakeups == 0 && !state.stopping {
                state = self.work.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.wakeups > 0 {
                state.wakeups -= 1; // whoever woke us counted us awake
            } else {
                state.idle -= 1;
            }
        }
    }

    /// Looks for a queued call for up to [`SPIN`], yielding the core between
    /// looks, while looking has been finding calls (see [`SPIN_CREDIT`]).
    fn look_for_a_call(&self) {
        let credit = self.spin_credit.load(Ordering::Relaxed);
        if credit == 0 && self.ran_out.fetch_add(1, Ordering::Relaxed) % PROBE_EVERY != 0 {
            return;
        }
        let start = std::time::Instant::now();
        loop {
            if self.queued.load(Ordering::Relaxed) > 0 {
                self.spin_credit.store(SPIN_CREDIT, Ordering::Relaxed);
                return;
            }
            if start.elapsed() >= SPIN {
                self.spin_credit.store(credit.saturating_sub(1), Ordering::Relaxed);
                return;
            }
            std::thread::yield_now();
        }
    }

    /// Runs every queued call, then ends the workers and the supervisor and
    /// writes what is left. Call without the GIL.
    pub(super) fn stop(&self) {
        {
            let mut state = lock(&self.state);
            state.stopping = true;
            self.work.notify_all();
            self.supervise.notify_all();
        }
        // The supervisor may still add workers for the last calls: end it first.
        if let Some(supervisor) = lock(&self.supervisor).take() {
            let _ = supervisor.join();
        }
        let handles = std::mem::take(&mut lock(&self.state).handles);
        for handle in handles {
            let _ = handle.join();
        }
        self.shared.outbox.flush();
    }
}

/// A worker: holds the GIL while calls wait (see the module doc).
fn work(pool: Arc<Pool>) {
    outbox::mark_worker();
    let in_call = Arc::new(AtomicBool::new(false));
    lock(&pool.state).watched.push((thread_state::current(), in_call.clone()));
    let outbox = &pool.shared.outbox;
    Python::attach(|py| {
        let run = pool.run.bind(py);
        loop {
            let started = match pool.take_now() {
                Some((started, last)) => {
                    // The last call queued may block: what is ready goes out first.
                    if last && outbox.waiting().0 > 0 {
                        py.detach(|| outbox.flush());
                    }
                    started
                }
                None => match py.detach(|| {
                    outbox.flush();
                    pool.wait_take()
                }) {
                    Some(started) => started,
                    None => break,
                },
            };
            in_call.store(true, Ordering::Relaxed);
            run_one(py, &pool.shared, run, *started);
            in_call.store(false, Ordering::Relaxed);
            if outbox.waiting().0 >= BATCH_LINES {
                py.detach(|| outbox.flush());
            }
        }
    });
}

fn run_one(py: Python<'_>, shared: &Arc<Shared>, run: &Bound<'_, PyAny>, started: StartedCall) {
    let key = started.key.clone();
    match super::call::start(py, shared, started) {
        Ok((call, args)) => {
            // `run` catches what the handler raises; an error here is the runtime's.
            if let Err(e) = run.call1((call, args)) {
                e.print(py);
                shared.finish(&key, HandlerResult::Error(format!("the runtime could not start the handler: {e}")));
            }
        }
        Err(e) => {
            shared.finish(&key, HandlerResult::Error(format!("the runtime could not convert the args: {e}")));
        }
    }
}

/// The supervisor: while calls wait, checks every [`GROW_AFTER`] that one was
/// taken, and adds a worker when none was.
fn supervise(pool: Arc<Pool>) {
    let outbox = &pool.shared.outbox;
    let beside_running = (GROW_BESIDE_RUNNING.as_millis() / GROW_AFTER.as_millis()) as u32;
    // Ticks in a row in which no queued call was taken.
    let mut stalled = 0u32;
    let mut state = lock(&pool.state);
    loop {
        if state.queue.is_empty() {
            if state.stopping {
                return;
            }
            state.supervising = false;
            state = pool.supervise.wait(state).unwrap_or_else(|e| e.into_inner());
            continue;
        }
        state.supervising = true;
        let taken = state.taken;
        state = pool.supervise.wait_timeout(state, GROW_AFTER).unwrap_or_else(|e| e.into_inner()).0;
        if state.queue.is_empty() || state.taken != taken {
            stalled = 0;
        } else {
            stalled += 1;
            if stalled < beside_running {
                let watched = state.watched.clone();
                drop(state);
                let running =
                    watched.iter().any(|(thread, _)| thread.and_then(thread_state::is_runnable) == Some(true));
                let in_call = watched.iter().any(|(_, in_call)| in_call.load(Ordering::Relaxed));
                state = lock(&pool.state);
                if running || !in_call || state.queue.is_empty() || state.taken != taken {
                    drop(state);
                    flush_stale(outbox);
                    state = lock(&pool.state);
                    continue;
                }
            }
            stalled = 0;
            if state.idle > 0 {
                pool.wake_one(&mut state);
            } else if state.workers < pool.max_workers {
                if let Err(e) = pool.add_worker(&mut state) {
                    // The calls wait for a worker already running.
                    eprintln!("flow tool: cannot start another handler thread: {e}");
                }
            }
        }
        drop(state);
        flush_stale(outbox);
        state = lock(&pool.state);
    }
}

/// Writes replies left behind a handler that blocks.
fn flush_stale(outbox: &Outbox) {
    if let (lines, Some(since)) = outbox.waiting() {
        if lines > 0 && since.elapsed() >= GROW_AFTER {
            outbox.flush();
        }
    }
}
