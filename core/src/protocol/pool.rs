//! A fixed pool of threads that run handlers, fed by a bounded queue: how the
//! stdio driver runs calls without a thread per call and without unbounded
//! work in flight.
//!
//! - At most [`PoolBounds::workers`] threads, started as calls need them and
//!   kept: a slow handler holds one thread, and the next call gets another
//!   while any is left.
//! - At most [`PoolBounds::queue`] calls wait for a thread; past that,
//!   [`Pool::submit`] blocks, so the reader stops reading and the pipe pushes
//!   back on the host.
//! - A thread that cannot be started is no failure while another runs: the
//!   call waits for it. With no thread at all, [`Pool::submit`] hands the
//!   call back, and the driver answers it NotRun (its code never ran).
//! - Waking is frugal, as in work-stealing schedulers: a call queued while a
//!   thread is looking for work wakes nobody; a thread that takes a call
//!   while more wait makes sure another looks (waking or starting one), so a
//!   queued call never waits behind a slow handler while a thread is left;
//!   a thread that ends a call takes the next without sleeping. Under load
//!   the threads run call after call with few wakes.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

/// The pool's sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolBounds {
    /// Threads that run handlers: how many calls run at once.
    pub workers: usize,
    /// Calls waiting for a thread before the reader waits too.
    pub queue: usize,
}

impl Default for PoolBounds {
    fn default() -> PoolBounds {
        PoolBounds { workers: 64, queue: 1024 }
    }
}

struct State<J> {
    jobs: VecDeque<J>,
    /// Threads started and not ended.
    workers: usize,
    /// Threads asleep, not yet told to wake.
    idle: usize,
    /// Threads awake and not running a job (just started, told to wake, or
    /// looking for the next job).
    searching: usize,
    /// Wakes sent and not yet taken: a sleeper leaves its wait only with one
    /// (or at close), so a spurious wakeup changes no count.
    wakes: usize,
    closed: bool,
    submitter_waiting: bool,
}

struct Shared<J> {
    state: Mutex<State<J>>,
    /// Sleepers wait here for work.
    work: Condvar,
    /// The submitter waits here for room in the queue.
    room: Condvar,
    bounds: PoolBounds,
    run: Box<dyn Fn(J) + Send + Sync>,
    threads: Mutex<Vec<JoinHandle<()>>>,
    name: String,
}

/// The pool: `run` is called with each job on one of its threads.
pub struct Pool<J: Send + 'static> {
    shared: Arc<Shared<J>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<J: Send + 'static> Shared<J> {
    /// Wakes one sleeper, if any; false when none sleeps.
    fn wake_one(&self, st: &mut State<J>) -> bool {
        if st.idle == 0 {
            return false;
        }
        st.idle -= 1;
        st.searching += 1;
        st.wakes += 1;
        self.work.notify_one();
        true
    }

    /// Makes sure a queued job has a thread looking for it: none is needed
    /// while one searches; else a sleeper is woken, or (while threads are
    /// left) one is started. Returns true when one must be started, counted
    /// already; the caller starts it with [`Shared::spawn`] outside the lock.
    fn need_searcher(&self, st: &mut State<J>) -> bool {
        if st.jobs.is_empty() || st.searching > 0 || self.wake_one(st) || st.workers >= self.bounds.workers {
            return false;
        }
        st.workers += 1;
        st.searching += 1;
        true
    }

    /// Starts a thread counted by [`Shared::need_searcher`]. `Err` hands back
    /// the queued jobs when no thread runs at all.
    fn spawn(self: &Arc<Self>) -> Result<(), (Vec<J>, String)> {
        let shared = self.clone();
        match std::thread::Builder::new().name(self.name.clone()).spawn(move || work(&shared)) {
            Ok(thread) => {
                let mut threads = lock(&self.threads);
                threads.retain(|t| !t.is_finished());
                threads.push(thread);
                Ok(())
            }
            Err(e) => {
                let mut st = lock(&self.state);
                st.workers -= 1;
                st.searching -= 1;
                if st.workers == 0 {
                    let jobs = st.jobs.drain(..).collect();
                    return Err((jobs, format!("no thread could be started to run it: {e}")));
                }
                // Another thread will take it: it only waits longer.
                eprintln!("flow tool: could not start another handler thread ({e}); {} run calls", st.workers);
                Ok(())
            }
        }
    }
}

impl<J: Send + 'static> Pool<J> {
    /// A pool of no threads yet; `name` names its threads.
    pub fn new(bounds: PoolBounds, name: &str, run: impl Fn(J) + Send + Sync + 'static) -> Pool<J> {
        let bounds = PoolBounds { workers: bounds.workers.max(1), queue: bounds.queue.max(1) };
        let state = State {
            jobs: VecDeque::new(),
            workers: 0,
            idle: 0,
            searching: 0,
            wakes: 0,
            closed: false,
            submitter_waiting: false,
        };
        let shared = Arc::new(Shared {
            state: Mutex::new(state),
            work: Condvar::new(),
            room: Condvar::new(),
            bounds,
            run: Box::new(run),
            threads: Mutex::new(Vec::new()),
            name: name.to_owned(),
        });
        Pool { shared }
    }

    /// Queues a job, waiting while the queue is full. `Err` hands back the
    /// jobs that cannot run because no thread could be started, with why.
    pub fn submit(&mut self, job: J) -> Result<(), (Vec<J>, String)> {
        let spawn = {
            let mut st = lock(&self.shared.state);
            while st.jobs.len() >= self.shared.bounds.queue {
                st.submitter_waiting = true;
                st = self.shared.room.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            st.submitter_waiting = false;
            st.jobs.push_back(job);
            self.shared.need_searcher(&mut st)
        };
        if spawn {
            return self.shared.spawn();
        }
        Ok(())
    }

    /// Runs every queued job, then ends the threads and waits for them.
    pub fn finish(self) {
        {
            let mut st = lock(&self.shared.state);
            st.closed = true;
            self.shared.work.notify_all();
        }
        // A thread may start another while ending: join until none is left.
        loop {
            let threads: Vec<JoinHandle<()>> = lock(&self.shared.threads).drain(..).collect();
            if threads.is_empty() {
                break;
            }
            for thread in threads {
                let _ = thread.join();
            }
        }
    }
}

fn work<J: Send + 'static>(shared: &Arc<Shared<J>>) {
    let mut st = lock(&shared.state);
    loop {
        if let Some(job) = st.jobs.pop_front() {
            st.searching -= 1;
            // This thread may block in the job: if more wait, another thread
            // must look for them (as in work-stealing schedulers, the last
            // searcher to find work hands searching on).
            let spawn = shared.need_searcher(&mut st);
            if st.submitter_waiting {
                shared.room.notify_one();
            }
            drop(st);
            if spawn {
                if let Err((jobs, why)) = shared.spawn() {
                    // Unreachable while this thread runs (it counts as one);
                    // kept so that no job is ever dropped unseen.
                    eprintln!("flow tool: {why}; {} calls wait", jobs.len());
                    lock(&shared.state).jobs.extend(jobs);
                }
            }
            (shared.run)(job);
            st = lock(&shared.state);
            st.searching += 1;
            continue;
        }
        if st.closed {
            st.searching -= 1;
            st.workers -= 1;
            return;
        }
        st.searching -= 1;
        st.idle += 1;
        while st.wakes == 0 && !st.closed {
            st = shared.work.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        if st.wakes > 0 {
            // The waker moved this thread from idle to searching.
            st.wakes -= 1;
        } else {
            st.idle -= 1;
            st.searching += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn a_blocked_job_stalls_no_other_and_every_job_runs_before_finish_returns() {
        let (tx, rx) = mpsc::channel::<u32>();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release = Mutex::new(release_rx);
        let mut pool = Pool::new(PoolBounds { workers: 4, queue: 8 }, "test", move |n: u32| {
            if n == 0 {
                lock(&release).recv().unwrap();
            }
            tx.send(n).unwrap();
        });
        for n in 0..20 {
            pool.submit(n).unwrap_or_else(|_| panic!("no thread"));
        }
        let mut got: Vec<u32> = (0..19).map(|_| rx.recv_timeout(Duration::from_secs(10)).unwrap()).collect();
        got.sort_unstable();
        assert_eq!(got, (1..20).collect::<Vec<_>>());
        assert!(lock(&pool.shared.state).workers <= 4);
        release_tx.send(()).unwrap();
        pool.finish();
        assert_eq!(rx.recv().unwrap(), 0);
    }

    #[test]
    fn a_job_queued_before_the_first_thread_runs_does_not_wait_behind_it() {
        let (tx, rx) = mpsc::channel::<u32>();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release = Mutex::new(release_rx);
        let mut pool = Pool::new(PoolBounds { workers: 2, queue: 8 }, "test", move |n: u32| {
            if n == 0 {
                lock(&release).recv().unwrap();
            }
            tx.send(n).unwrap();
        });
        // Back to back: the second is queued while the first thread starts.
        for n in 0..2 {
            pool.submit(n).unwrap_or_else(|_| panic!("no thread"));
        }
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(1), "the second job waited behind the blocked first");
        release_tx.send(()).unwrap();
        pool.finish();
    }

    #[test]
    fn past_the_queue_the_submitter_waits() {
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release = Mutex::new(release_rx);
        let mut pool =
            Pool::new(PoolBounds { workers: 1, queue: 2 }, "test", move |_: u32| lock(&release).recv().unwrap());
        // One runs (blocked), two wait: the queue is full.
        for n in 0..3 {
            pool.submit(n).unwrap_or_else(|_| panic!("no thread"));
        }
        while lock(&pool.shared.state).jobs.len() != 2 {
            std::thread::yield_now();
        }
        let shared = pool.shared.clone();
        let (done_tx, done) = mpsc::channel();
        let submitter = std::thread::spawn(move || {
            pool.submit(3).unwrap_or_else(|_| panic!("no thread"));
            done_tx.send(()).unwrap();
            pool
        });
        assert!(done.recv_timeout(Duration::from_millis(200)).is_err(), "a submit past the queue returned");
        assert!(lock(&shared.state).submitter_waiting);
        for _ in 0..4 {
            release_tx.send(()).unwrap();
        }
        done.recv_timeout(Duration::from_secs(10)).unwrap();
        submitter.join().unwrap().finish();
        assert!(lock(&shared.state).jobs.is_empty());
    }
}
