//! How the stdio driver runs calls: leader/follower, so that a call runs on
//! the thread that read it, with no hand-off (no wake, no context switch) on
//! its path.
//!
//! Three roles, each held by one thread at a time and passed between threads:
//!
//! - **The leader** holds the input. It reads a line, hands it to the server
//!   core, and runs the call the line starts itself ("inline"). Before the
//!   handler runs it lays the input down; when the handler returns it takes
//!   the input up again, unless the standby took it meanwhile. Its lines wait
//!   ([`BatchWriter::push`]) until no whole line is left in the input's
//!   buffer, then go out in one `write`, as a trivial server flushes.
//! - **The standby** watches the leader: once one inline call has held the
//!   leader for a [`TICK`] and its thread is blocked (or, runnable, ran on a
//!   CPU for half of the next tick: [`runs_long`]), the standby takes the
//!   input up and leads. So a blocking handler delays reading (cancels, other
//!   calls) by at most two ticks and the time to wake the standby, one that
//!   computes by three; a leader only descheduled on a loaded machine keeps
//!   the input. The Tool whose call ran long is marked ([`Pace`]), and its
//!   next calls go to followers. The standby sleeps for good once no call has started for [`QUIET_TICKS`]
//!   ticks, and the next inline call wakes it.
//! - **Followers** run the calls the leader queues: calls of Tools that run
//!   long, and calls read while every handler thread is busy. A follower with
//!   nothing to do becomes the standby if there is none, else sleeps.
//!
//! Bounds ([`PoolBounds`]): at most `workers` calls run at once (inline or
//! queued), at most `queue` wait for a thread, their lines at most
//! `queue_bytes`; a call past that is answered NotRun at once, naming the
//! bound, and the leader reads on: a cancel is never stuck behind calls
//! nobody reads. A cancel of a call still waiting takes it off the queue and
//! answers it NotRun. Only a host that stops reading replies stops the
//! leader (the writer's bound, [`BatchWriter`]), and the pipe pushes back.
//! Threads are started as the roles need them, at most `workers` + 2 (every
//! handler thread busy, a leader reading, a standby), and kept until the
//! input ends.
//!
//! A thread that cannot be started fails no call: a call meant for a
//! follower runs inline instead, and without a standby a slow handler delays
//! reading until it returns (said on stderr).

use std::collections::VecDeque;
use std::io::{self, BufReader, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::Scope;
use std::time::{Duration, Instant};

use super::batch_writer::BatchWriter;
use super::pace::{Pace, TICK};
use super::thread_state::{self, Activity, ThreadId};
use flow_protocol::message::CallKey;
use flow_protocol::server::{Event, HandlerResult, StartedCall};
use flow_protocol::Front;
use flow_protocol::{Frame, LineReader};

/// A Tool's implementation: runs on whichever thread read its call, may
/// block, should watch `call.cancel`.
pub type Handler = Arc<dyn Fn(StartedCall) -> HandlerResult + Send + Sync>;

/// Ticks without a call after which the standby sleeps until the next one.
pub const QUIET_TICKS: u32 = 100;

/// Calls to start after a thread could not be started, before trying again.
const SPAWN_RETRY: u64 = 1024;

/// How many calls run and wait at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolBounds {
    /// Calls running at once, each on a thread of its own.
    pub workers: usize,
    /// Calls waiting for a thread; one more is answered NotRun.
    pub queue: usize,
    /// Bytes of the lines of the calls waiting; a call that would pass it
    /// is answered NotRun (one waiting alone is always taken, up to the
    /// line limit).
    pub queue_bytes: usize,
}

impl Default for PoolBounds {
    fn default() -> PoolBounds {
        PoolBounds { workers: 64, queue: 1024, queue_bytes: 64 << 20 }
    }
}

impl PoolBounds {
    /// Why a call past the bounds was not run: the reason of its NotRun.
    pub fn refusal(&self) -> String {
        let bytes = flow_protocol::bound_text(self.queue_bytes);
        format!(
            "the Tool is at its bound of calls ({} running and {} waiting, or {bytes} of waiting call lines), so it \
             did not start this one",
            self.workers, self.queue
        )
    }
}

/// A call waiting for a follower, and the length of its line.
struct Job {
    call: StartedCall,
    bytes: usize,
}

/// Why a call waiting for a follower that the host cancelled never ran.
const CANCELLED_WAITING: &str = "cancelled before it started: it was waiting for a thread";

/// The input as the leader reads it.
pub type Input<R> = LineReader<BufReader<R>>;

/// The inline call that the input lies down for.
struct Inline {
    /// Which inline call (the count of inline calls when it started).
    seq: u64,
    tool: usize,
    /// The leader's thread, which the standby asks whether it runs.
    thread: Option<ThreadId>,
}

/// The standby's watch over one inline call.
struct Watch {
    seq: u64,
    since: Instant,
    /// When the leader was last seen runnable, and its CPU time then.
    sample: Option<(Instant, Duration)>,
}

/// Whether the inline call being watched runs long, now that it has held
/// the leader for a tick by the clock: its thread is blocked (a handler that
/// waits), or ran on a CPU for at least half of the time since the last
/// sample (a handler that computes). A thread that was runnable but mostly
/// waited for a CPU was only descheduled: the standby watches on, or it would
/// take over and mark the Tool long whenever the machine is loaded. Unknown
/// activity is taken as long, as the clock says.
fn runs_long(watch: &mut Watch, activity: Option<Activity>, now: Instant) -> bool {
    match activity {
        None | Some(Activity::Blocked) => true,
        Some(Activity::Runnable { ran }) => match watch.sample.replace((now, ran)) {
            None => false,
            Some((at, before)) => ran.saturating_sub(before) * 2 >= now.duration_since(at),
        },
    }
}

struct State<R> {
    /// The input, lying down while its leader runs an inline call.
    input: Option<Input<R>>,
    /// Set exactly while `input` lies down.
    inline: Option<Inline>,
    /// Inline calls started.
    started: u64,
    /// Calls waiting for a follower.
    jobs: VecDeque<Job>,
    /// The lines of the calls in `jobs`, in bytes.
    jobs_bytes: usize,
    /// Calls running, inline or not.
    running: usize,
    /// Threads started and not ended, the serving thread among them.
    threads: usize,
    /// Followers asleep, not yet told to wake.
    idle: usize,
    /// Threads woken or started, not yet at work: they take queued calls
    /// (or the standby's role) when they come.
    coming: usize,
    /// Wakes sent and not yet taken: a sleeper leaves its wait only with one
    /// (or at the end), so a spurious wakeup changes no count.
    wakes: usize,
    standby: bool,
    /// A thread was woken or started to be the standby.
    standby_coming: bool,
    /// The standby sleeps until an inline call wakes it.
    standby_asleep: bool,
    /// The input ended: nobody leads again.
    closed: bool,
    pace: Pace,
    /// `started` when a thread last could not be started.
    spawn_failed_at: Option<u64>,
    input_error: Option<io::Error>,
}

/// Everything the threads share: the core, the writer, the handlers and the
/// roles' state.
pub struct Crew<R, W> {
    state: Mutex<State<R>>,
    /// Idle followers wait here.
    work: Condvar,
    /// The standby waits here.
    watch: Condvar,
    core: Mutex<Box<dyn Front>>,
    out: BatchWriter<W>,
    handlers: Vec<Handler>,
    bounds: PoolBounds,
    /// Tests: no thread can be started.
    #[cfg(test)]
    pub no_threads: bool,
}

enum Role<R> {
    Lead(Input<R>),
    /// Follow; `true` for a thread just started, counted coming.
    Follow(bool),
}

/// What became of a call meant for a follower.
enum Handed<'a, R> {
    /// Queued: a follower takes it.
    Queued,
    /// No thread can take it: it runs here (the lock and the call back).
    RunHere(MutexGuard<'a, State<R>>, StartedCall),
    /// Past the bounds: answer it NotRun.
    Refused(StartedCall),
}

/// Whether a thread will come for a role or a queued call.
enum Thread {
    /// An idle one was woken, or none is needed.
    Coming,
    /// The caller starts one ([`Crew::spawn`]), counted already.
    Start,
    /// None can come now.
    None,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A handler's panic is caught before it can poison these locks; a
    // poisoned lock would mean a bug here, and serving on beats dying.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

impl<R: Read + Send, W: Write + Send> Crew<R, W> {
    /// A crew serving `core`'s calls with `handlers` (by Tool index).
    pub fn new(core: Box<dyn Front>, out: BatchWriter<W>, handlers: Vec<Handler>, bounds: PoolBounds) -> Crew<R, W> {
        let bounds = PoolBounds { workers: bounds.workers.max(1), queue: bounds.queue.max(1), ..bounds };
        let state = State {
            input: None,
            inline: None,
            started: 0,
            jobs: VecDeque::new(),
            jobs_bytes: 0,
            running: 0,
            threads: 1,
            idle: 0,
            coming: 0,
            wakes: 0,
            standby: false,
            standby_coming: false,
            standby_asleep: false,
            closed: false,
            pace: Pace::new(handlers.len()),
            spawn_failed_at: None,
            input_error: None,
        };
        Crew {
            state: Mutex::new(state),
            work: Condvar::new(),
            watch: Condvar::new(),
            core: Mutex::new(core),
            out,
            handlers,
            bounds,
            #[cfg(test)]
            no_threads: false,
        }
    }

    /// Serves `input` until it ends and every call has replied; the calling
    /// thread leads first. `Err` when reading failed.
    pub fn serve(self, input: Input<R>) -> io::Result<()> {
        std::thread::scope(|scope| self.work(scope, Role::Lead(input)));
        match lock(&self.state).input_error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn work<'scope, 'env>(&'env self, scope: &'scope Scope<'scope, 'env>, mut role: Role<R>) {
        loop {
            role = match role {
                Role::Lead(input) => self.lead(scope, input),
                Role::Follow(arriving) => match self.follow(scope, arriving) {
                    Some(input) => Role::Lead(input),
                    None => return,
                },
            };
        }
    }

    /// Reads and runs calls until the input ends or the standby takes it.
    fn lead<'scope, 'env>(&'env self, scope: &'scope Scope<'scope, 'env>, mut input: Input<R>) -> Role<R> {
        loop {
            if !input.line_waiting() {
                self.out.flush();
            }
            let frame = match input.next_frame() {
                Ok(Some(frame)) => frame,
                Ok(None) => return self.close(None),
                Err(e) => return self.close(Some(e)),
            };
            let bytes = match &frame {
                Frame::Line(line) | Frame::Unterminated(line) => line.len(),
                Frame::TooLong { .. } => 0,
            };
            let events = lock(&self.core).receive_frame(frame);
            // A line starts at most one call; more are served all the same.
            let mut first = None;
            let mut more = Vec::new();
            for event in events {
                match event {
                    Event::Write(line) => self.out.push(&line),
                    Event::Log(text) => eprintln!("flow tool: {text}"),
                    Event::Cancel(key) => self.unqueue(&key),
                    Event::Start(call) if first.is_none() => first = Some(*call),
                    Event::Start(call) => more.push(*call),
                }
            }
            let mut more = more.into_iter();
            let mut next = first;
            while let Some(call) = next {
                match self.start(scope, input, call, bytes) {
                    Some(back) => input = back,
                    None => {
                        // Another thread leads now: what is left runs here.
                        more.for_each(|call| self.run_here(call));
                        return Role::Follow(false);
                    }
                }
                next = more.next();
            }
        }
    }

    /// Runs `call` inline, or queues it for a follower. Returns the input
    /// unless the standby took it.
    fn start<'scope, 'env>(
        &'env self,
        scope: &'scope Scope<'scope, 'env>,
        input: Input<R>,
        call: StartedCall,
        bytes: usize,
    ) -> Option<Input<R>> {
        let mut st = lock(&self.state);
        let call = if st.running >= self.bounds.workers || st.pace.is_long(call.tool) {
            match self.hand_off(scope, st, call, bytes) {
                Handed::Queued => return Some(input),
                Handed::RunHere(back, call) => {
                    st = back;
                    call
                }
                Handed::Refused(call) => {
                    let lines = lock(&self.core).finish(&call.key, HandlerResult::NotRun(self.bounds.refusal()));
                    for line in &lines {
                        self.out.push(line);
                    }
                    return Some(input);
                }
            }
        } else {
            call
        };
        st.running += 1;
        st.started += 1;
        let seq = st.started;
        st.inline = Some(Inline { seq, tool: call.tool, thread: thread_state::current() });
        st.input = Some(input);
        if st.standby_asleep {
            st.standby_asleep = false;
            self.watch.notify_one();
        }
        let spawn = !st.standby && !st.standby_coming && {
            let thread = self.need_thread(&mut st);
            st.standby_coming = !matches!(thread, Thread::None);
            matches!(thread, Thread::Start)
        };
        drop(st);
        if spawn && !self.spawn(scope) {
            lock(&self.state).standby_coming = false;
        }
        let lines = self.run(call);
        let mut st = lock(&self.state);
        st.running -= 1;
        let back = match &st.inline {
            Some(inline) if inline.seq == seq => {
                st.inline = None;
                st.input.take()
            }
            _ => None,
        };
        // Calls queued while every thread was busy: one is free now.
        let spawn = back.is_some() && st.jobs.len() > st.coming && matches!(self.need_thread(&mut st), Thread::Start);
        drop(st);
        if spawn {
            self.spawn(scope);
        }
        for line in &lines {
            if back.is_some() {
                self.out.push(line);
            } else {
                self.out.write(line);
            }
        }
        back
    }

    /// Queues `call` for a follower, making sure a thread comes for it.
    /// Hands the lock and the call back when none can; refuses it past the
    /// queue's bounds (the leader never waits for room: it reads on).
    fn hand_off<'scope, 'env>(
        &'env self,
        scope: &'scope Scope<'scope, 'env>,
        mut st: MutexGuard<'env, State<R>>,
        call: StartedCall,
        bytes: usize,
    ) -> Handed<'env, R> {
        let full = st.jobs.len() >= self.bounds.queue
            || (!st.jobs.is_empty() && st.jobs_bytes + bytes > self.bounds.queue_bytes);
        if full {
            return Handed::Refused(call);
        }
        st.jobs.push_back(Job { call, bytes });
        st.jobs_bytes += bytes;
        if st.running >= self.bounds.workers || st.jobs.len() <= st.coming {
            // A thread that ends its call, or one on its way, takes it.
            return Handed::Queued;
        }
        match self.need_thread(&mut st) {
            Thread::Coming => Handed::Queued,
            Thread::Start => {
                drop(st);
                if self.spawn(scope) {
                    return Handed::Queued;
                }
                let st = lock(&self.state);
                if st.coming > 0 {
                    return Handed::Queued;
                }
                self.take_back(st)
            }
            Thread::None if st.coming > 0 => Handed::Queued,
            Thread::None => self.take_back(st),
        }
    }

    /// The call just queued, if no thread took it yet: only the leader
    /// queues and followers take from the front, so it is the last.
    fn take_back<'a>(&'a self, mut st: MutexGuard<'a, State<R>>) -> Handed<'a, R> {
        match st.jobs.pop_back() {
            Some(job) => {
                st.jobs_bytes -= job.bytes;
                Handed::RunHere(st, job.call)
            }
            None => Handed::Queued,
        }
    }

    /// A cancel reached call `key`: if it still waits for a follower, it
    /// never runs, and is answered NotRun at once.
    fn unqueue(&self, key: &CallKey) {
        let waiting = {
            let mut st = lock(&self.state);
            match st.jobs.iter().position(|job| job.call.key == *key) {
                Some(at) => {
                    let job = st.jobs.remove(at).expect("a position in the queue");
                    st.jobs_bytes -= job.bytes;
                    job
                }
                None => return,
            }
        };
        let lines = lock(&self.core).finish(&waiting.call.key, HandlerResult::NotRun(CANCELLED_WAITING.to_owned()));
        for line in &lines {
            self.out.push(line);
        }
    }

    /// Wakes an idle follower, or counts one to start (the caller starts it
    /// outside the lock).
    fn need_thread(&self, st: &mut State<R>) -> Thread {
        if st.idle > 0 {
            st.idle -= 1;
            st.wakes += 1;
            st.coming += 1;
            self.work.notify_one();
            return Thread::Coming;
        }
        let retry = st.spawn_failed_at.is_none_or(|at| st.started >= at + SPAWN_RETRY);
        if st.threads >= self.bounds.workers + 2 || !retry {
            return Thread::None;
        }
        st.threads += 1;
        st.coming += 1;
        Thread::Start
    }

    /// Starts a follower counted by [`Crew::need_thread`]; false when it
    /// could not be started.
    fn spawn<'scope, 'env>(&'env self, scope: &'scope Scope<'scope, 'env>) -> bool {
        let builder = std::thread::Builder::new().name("flow-tool handler".to_owned());
        // Tests make starting fail as the OS would: a stack no system gives.
        #[cfg(test)]
        let builder = if self.no_threads { builder.stack_size(1 << 50) } else { builder };
        let started = builder.spawn_scoped(scope, move || self.work(scope, Role::Follow(true)));
        match started {
            Ok(_) => true,
            Err(e) => {
                let mut st = lock(&self.state);
                st.threads -= 1;
                st.coming -= 1;
                st.spawn_failed_at = Some(st.started);
                eprintln!("flow tool: could not start a handler thread ({e}); {} threads serve", st.threads);
                false
            }
        }
    }

    /// Runs queued calls, stands by, or sleeps, until the standby takes up
    /// the input (`Some`) or the input has ended and no call waits (`None`).
    fn follow<'scope, 'env>(&'env self, scope: &'scope Scope<'scope, 'env>, arriving: bool) -> Option<Input<R>> {
        let mut st = lock(&self.state);
        if arriving {
            st.coming -= 1;
        }
        loop {
            let stand_by = !st.closed && !st.standby && (st.standby_coming || st.jobs.is_empty());
            // A thread woken or started for a queued call may be wanted as the
            // standby instead: then another must come for the call, or, when
            // none can, this one runs it first. Without this a queued call
            // could wait with every follower idle.
            let run_first = stand_by
                && st.jobs.len() > st.coming
                && st.running < self.bounds.workers
                && match self.need_thread(&mut st) {
                    Thread::Coming => false,
                    Thread::Start => {
                        drop(st);
                        let started = self.spawn(scope);
                        st = lock(&self.state);
                        if started {
                            continue;
                        }
                        true
                    }
                    Thread::None => true,
                };
            if stand_by && !run_first {
                st.standby = true;
                st.standby_coming = false;
                let (back, input) = self.stand_by(st);
                if input.is_some() {
                    return input;
                }
                st = back;
                continue;
            }
            if st.running < self.bounds.workers {
                if let Some(Job { call, bytes }) = st.jobs.pop_front() {
                    st.jobs_bytes -= bytes;
                    if call.cancel.is_cancelled() {
                        // Cancelled while it waited; the leader did not get
                        // to take it off the queue first.
                        drop(st);
                        let lines =
                            lock(&self.core).finish(&call.key, HandlerResult::NotRun(CANCELLED_WAITING.to_owned()));
                        for line in &lines {
                            self.out.write(line);
                        }
                        st = lock(&self.state);
                        continue;
                    }
                    st.running += 1;
                    drop(st);
                    let tool = call.tool;
                    let began = Instant::now();
                    let lines = self.run(call);
                    let elapsed = began.elapsed();
                    for line in &lines {
                        self.out.write(line);
                    }
                    st = lock(&self.state);
                    st.running -= 1;
                    st.pace.ran(tool, elapsed);
                    continue;
                }
            }
            if st.closed {
                // A queued call left is taken by a thread ending its call.
                st.threads -= 1;
                return None;
            }
            st.idle += 1;
            while st.wakes == 0 && !st.closed {
                st = self.work.wait(st).unwrap_or_else(|e| e.into_inner());
            }
            if st.wakes > 0 {
                // The waker took this thread off `idle`, and counted it coming.
                st.wakes -= 1;
                st.coming -= 1;
            } else {
                st.idle -= 1;
            }
        }
    }

    /// The standby's watch: takes up the input (`Some`) once one inline call
    /// has held it for a [`TICK`] and [`runs_long`]; `None` at the end of input.
    fn stand_by<'st>(&'st self, mut st: MutexGuard<'st, State<R>>) -> (MutexGuard<'st, State<R>>, Option<Input<R>>) {
        let mut seen: Option<Watch> = None;
        let mut quiet = 0;
        let mut last = st.started;
        loop {
            if st.closed {
                st.standby = false;
                return (st, None);
            }
            match st.inline.as_ref().map(|inline| (inline.seq, inline.tool, inline.thread)) {
                Some((seq, tool, thread)) => match &mut seen {
                    Some(watch) if watch.seq == seq => {
                        if watch.since.elapsed() >= TICK {
                            // /proc is read without the lock, which the
                            // leader takes when its call ends.
                            drop(st);
                            let activity = thread.and_then(thread_state::activity);
                            let long = runs_long(watch, activity, Instant::now());
                            st = lock(&self.state);
                            let still = st.inline.as_ref().is_some_and(|inline| inline.seq == seq);
                            if long && still && !st.closed {
                                st.inline = None;
                                st.standby = false;
                                st.pace.ran_long(tool);
                                let input = st.input.take();
                                return (st, input);
                            }
                        }
                    }
                    _ => seen = Some(Watch { seq, since: Instant::now(), sample: None }),
                },
                None => seen = None,
            }
            if st.started == last && st.inline.is_none() {
                quiet += 1;
            } else {
                quiet = 0;
                last = st.started;
            }
            if quiet >= QUIET_TICKS {
                st.standby_asleep = true;
                while st.standby_asleep && !st.closed {
                    st = self.watch.wait(st).unwrap_or_else(|e| e.into_inner());
                }
                st.standby_asleep = false;
                quiet = 0;
                continue;
            }
            st = self.watch.wait_timeout(st, TICK).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// The input ended (or failed): every thread ends once no call waits.
    fn close(&self, error: Option<io::Error>) -> Role<R> {
        self.out.flush();
        let mut st = lock(&self.state);
        st.closed = true;
        if error.is_some() {
            st.input_error = error;
        }
        self.work.notify_all();
        self.watch.notify_all();
        Role::Follow(false)
    }

    /// Runs a call on this thread, not leading: counted as running.
    fn run_here(&self, call: StartedCall) {
        lock(&self.state).running += 1;
        let lines = self.run(call);
        for line in &lines {
            self.out.write(line);
        }
        lock(&self.state).running -= 1;
    }

    /// Runs the handler of `call` (a panic is Unknown) and ends the call.
    fn run(&self, call: StartedCall) -> Vec<String> {
        let handler = &self.handlers[call.tool];
        let key = call.key.clone();
        let result = catch_unwind(AssertUnwindSafe(|| handler(call)))
            .unwrap_or_else(|payload| HandlerResult::Error(format!("it panicked: {}", panic_text(&*payload))));
        lock(&self.core).finish(&key, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watch() -> Watch {
        Watch { seq: 1, since: Instant::now(), sample: None }
    }

    #[test]
    fn a_leader_that_waits_or_computes_runs_long_and_one_descheduled_does_not() {
        let start = Instant::now();
        let later = |ms: u64| start + Duration::from_millis(ms);
        // Blocked in its handler, or nothing known: long at once.
        assert!(runs_long(&mut watch(), Some(Activity::Blocked), later(1)));
        assert!(runs_long(&mut watch(), None, later(1)));
        // Runnable: decided over a window between two samples.
        let mut computing = watch();
        assert!(!runs_long(&mut computing, Some(Activity::Runnable { ran: Duration::from_millis(5) }), later(1)));
        assert!(runs_long(&mut computing, Some(Activity::Runnable { ran: Duration::from_millis(6) }), later(2)));
        // On a CPU for a tenth of the window: it waited for one.
        let mut descheduled = watch();
        assert!(!runs_long(&mut descheduled, Some(Activity::Runnable { ran: Duration::from_millis(5) }), later(1)));
        let little = Duration::from_millis(5) + Duration::from_micros(100);
        assert!(!runs_long(&mut descheduled, Some(Activity::Runnable { ran: little }), later(2)));
        // Each check starts a new window: once it runs, it is long.
        assert!(runs_long(&mut descheduled, Some(Activity::Runnable { ran: little * 2 }), later(3)));
    }
}
