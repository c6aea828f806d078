//! One Tool process as the host sees it: started on demand, described before
//! any call, calls multiplexed over its stdin, replies correlated by (run,
//! call) only, and restarted for the next call after it ends.
//!
//! Threads: callers queue lines in the process's [`Outbox`] and return at
//! once with a [`CallHandle`], so one caller thread can keep many calls
//! outstanding. Lines are written in batches, by a caller that has queued a
//! chunk of them (without blocking: the stdin is non-blocking), by a caller
//! about to block on a handle (it writes everything queued) or by the
//! process's writer thread (woken only when idle, see [`Outbox`]); one
//! reader thread per started process reads its stdout and settles calls in their handles, waking the
//! threads that sleep on them once it has read every reply its buffer holds;
//! one watchdog thread per retired process lives until that process ends, at
//! most the stop grace.
//! Locks, always taken in this order: `start` (one restart at a time), a
//! process's pipe (its outbox's, held while writing), then `state`, then its
//! outbox's queue, then `retiring`'s; a process's `child` is taken alone, and
//! a handle's slot is never held while taking another. The reader takes only
//! `state` (and the queue, to answer a stray request), so a write blocked on a
//! full pipe never stops replies from being read.

//! Retiring (stop, a failed write, the last clone dropped): the process
//! leaves `live`, so the next call starts another; its stdin is closed, its
//! cue to finish its calls and exit; and if it has not ended within
//! [`HostOptions::stop_grace`], it is killed with its process group
//! ([`flow_process`], shared with MCP servers). Either way its end is handled as any process end.
//!
//! Process end (stdout closes or fails, or the grace runs out): the process
//! is killed and reaped; each call out to it is Unknown if its line was
//! written to the process's stdin, NotRun if not (host-boundary.md, "The Tool
//! process protocol"). Each call line has a sequence number, and whoever
//! writes records the last one wholly written while it holds the pipe's
//! lock; the end handling takes that lock after killing, so a write in
//! progress finishes (or fails) before the decision, and the mark cannot
//! race it.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::BufReader;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::reply::{self, Line, ReplyParts};
use flow_core::json::Json;
use flow_core::limits::Limits;
use flow_protocol::message::{self, write_describe_request, write_error, CallKey, Incoming};
use flow_protocol::outcome::{admit, CallOutcome, ReplyTypes};
use flow_protocol::past_limit;
use flow_protocol::server::CallTypes;
use flow_protocol::{Frame, LineReader};

use flow_process::retire::{self, LastHandle, Retire, Retiring};
use flow_process::{self as supervisor, ProcessSpec, Started, StderrMode, Supervised};

use super::described::Described;
pub use super::handle::CallHandle;
use super::handle::{Cancel, Settle, Wake};
use super::options::HostOptions;
use super::outbox::{Outbox, Pipe, Work, WRITER_LINGER};

/// Lines the reader reads at most, from its buffer, while it holds back the
/// wake of a thread sleeping on a call it settled.
const MAX_HELD_LINES: usize = 64;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A (run, call) pair, owned or borrowed: the pending map is looked up with
/// the run and call a reply line holds, without building a [`CallKey`].
trait Pair {
    fn run(&self) -> &str;
    fn call(&self) -> &str;
}

impl Pair for CallKey {
    fn run(&self) -> &str {
        &self.run
    }

    fn call(&self) -> &str {
        &self.call
    }
}

impl Pair for (&str, &str) {
    fn run(&self) -> &str {
        self.0
    }

    fn call(&self) -> &str {
        self.1
    }
}

impl<'a> Borrow<dyn Pair + 'a> for CallKey {
    fn borrow(&self) -> &(dyn Pair + 'a) {
        self
    }
}

/// As `CallKey`'s derived hash: its run, then its call.
impl Hash for dyn Pair + '_ {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.run().hash(state);
        self.call().hash(state);
    }
}

impl PartialEq for dyn Pair + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.run() == other.run() && self.call() == other.call()
    }
}

impl Eq for dyn Pair + '_ {}

struct Pending {
    settle: Settle,
    types: Arc<CallTypes>,
    generation: u64,
    /// The call line's sequence number in its process's outbox.
    seq: u64,
}

/// A started process.
struct Process {
    generation: u64,
    /// Its queued lines and its stdin.
    outbox: Arc<Outbox>,
    child: Mutex<Supervised>,
}

/// The process calls go to, and what it described.
struct Live {
    process: Arc<Process>,
    described: Arc<Described>,
}

type LiveHandle = (Arc<Process>, Arc<Described>);

#[derive(Default)]
struct State {
    live: Option<Live>,
    generation: u64,
    pending: HashMap<CallKey, Pending>,
    /// By request id: the process generation asked, and where its answer goes.
    describe_waiters: HashMap<u64, (u64, Sender<Result<Json, String>>)>,
    next_id: u64,
}

/// What the connection's threads share. They hold this, not a
/// [`Connection`], so that dropping the last `Connection` can end them.
struct Inner {
    spec: ProcessSpec,
    options: HostOptions,
    start: Mutex<()>,
    state: Mutex<State>,
    /// Processes retired and not yet ended, each with a watchdog.
    retiring: Arc<Retiring>,
}

/// A Tool process, started on demand and restarted after it ends. Clones
/// share the process. When the last clone is dropped, the process is stopped
/// as by [`Connection::stop`], and the drop waits until it has ended (at
/// most the stop grace, then it is killed), so no child outlives its host.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
    _last: Arc<LastHandle<Inner>>,
}

impl Connection {
    /// A connection to a process not yet started: the first describe or call
    /// starts it.
    pub fn new(spec: ProcessSpec, options: HostOptions) -> Connection {
        let inner = Arc::new(Inner {
            spec,
            options,
            start: Mutex::new(()),
            state: Mutex::new(State::default()),
            retiring: Arc::default(),
        });
        Connection { _last: Arc::new(LastHandle(inner.clone())), inner }
    }

    /// How this connection starts its process.
    pub fn spec(&self) -> &ProcessSpec {
        &self.inner.spec
    }

    /// What the running process described, starting (and describing) it if
    /// none runs.
    pub fn describe(&self) -> Result<Arc<Described>, String> {
        self.inner.ensure_live().map(|(_, described)| described)
    }

    /// How many processes have been started so far.
    pub fn starts(&self) -> u64 {
        lock(&self.inner.state).generation
    }

    /// Sends one call. `line` is the whole `call` line; `types` are the
    /// declared types its reply is admitted at; `check` judges the current
    /// process's describe (a declaration it no longer serves or fits makes the
    /// call NotRun with the returned reason).
    ///
    /// Returns at once, never blocked by the process: the line is queued,
    /// and written with the others queued when it completes a chunk of them
    /// (by this caller, as far as the pipe takes them without blocking),
    /// when a caller waits on a handle of this process, or by its writer
    /// thread (at once if it was idle, else within a millisecond of its last
    /// write). A call that cannot be sent is settled in the handle
    /// returned. Only the first call to a process not yet started waits, for
    /// its start and describe.
    pub fn send(
        &self,
        key: CallKey,
        line: String,
        types: Arc<CallTypes>,
        check: impl FnOnce(&Described) -> Result<(), String>,
    ) -> CallHandle {
        self.inner.send(key, line, types, check)
    }

    /// Closes the running process's stdin, which asks it to finish its calls
    /// and exit; calls out to it are settled when it does. Returns at once:
    /// a process that has not ended within [`HostOptions::stop_grace`] is
    /// then killed, as for any process end. The next call starts another.
    pub fn stop(&self) {
        self.inner.stop();
    }

    /// Kills the running process, if any, and reaps it; calls out to it are
    /// settled, as for any process end, before this returns.
    pub fn kill(&self) {
        let live = lock(&self.inner.state).live.as_ref().map(|l| l.process.clone());
        if let Some(process) = live {
            self.inner.ended(&process);
        }
    }
}

impl Retire for Inner {
    fn stop(self: &Arc<Self>) {
        Inner::stop(self);
    }

    fn retiring(&self) -> &Retiring {
        &self.retiring
    }
}

impl Inner {
    fn log(&self, text: &str) {
        (self.options.log)(&format!("{}: {text}", self.spec.display()));
    }

    fn ensure_live(self: &Arc<Self>) -> Result<LiveHandle, String> {
        let _start = lock(&self.start);
        {
            let state = lock(&self.state);
            if let Some(live) = &state.live {
                return Ok((live.process.clone(), live.described.clone()));
            }
        }
        self.start_process()
    }

    /// Starts the process and describes it; called with the start lock held.
    fn start_process(self: &Arc<Self>) -> Result<LiveHandle, String> {
        let stderr = if self.options.quiet_stderr { StderrMode::Discard } else { StderrMode::Inherit };
        let Started { child, stdin, stdout } = supervisor::start(&self.spec, &stderr)?;
        let (id, rx, generation) = {
            let mut state = lock(&self.state);
            state.generation += 1;
            state.next_id += 1;
            let (tx, rx) = mpsc::channel();
            let id = state.next_id;
            let generation = state.generation;
            state.describe_waiters.insert(id, (generation, tx));
            (state.next_id, rx, state.generation)
        };
        let process =
            Arc::new(Process { generation, outbox: Arc::new(Outbox::for_pipe(stdin)), child: Mutex::new(child) });
        let reader = {
            let (inner, own) = (self.clone(), process.clone());
            std::thread::Builder::new()
                .name(format!("flow-host reader {generation}"))
                .spawn(move || inner.read(&own, stdout))
        };
        let writer = reader.and_then(|_| {
            let (inner, own) = (self.clone(), process.clone());
            std::thread::Builder::new().name(format!("flow-host writer {generation}")).spawn(move || inner.write(&own))
        });
        if let Err(e) = writer {
            // Nobody would read it, write to it or reap it: end it here.
            self.ended(&process);
            return Err(format!("could not start its reader and writer threads: {e}"));
        }
        let answer = if process.outbox.push_line(write_describe_request(id).as_bytes()) {
            match rx.recv_timeout(self.options.describe_timeout) {
                Ok(answer) => answer,
                Err(RecvTimeoutError::Timeout) => {
                    Err(format!("no answer to describe within {:?}", self.options.describe_timeout))
                }
                Err(RecvTimeoutError::Disconnected) => Err("the process ended before it answered describe".to_owned()),
            }
        } else {
            // Its reader may already have seen it end.
            Err("could not send describe: the process has ended".to_owned())
        };
        let described = answer.and_then(|result| {
            Described::from_json(&result).map(Arc::new).map_err(|e| format!("its describe result is malformed: {e}"))
        });
        match described {
            Ok(described) => {
                let mut state = lock(&self.state);
                state.live = Some(Live { process: process.clone(), described: described.clone() });
                Ok((process, described))
            }
            Err(why) => {
                // Not usable, and no call went to it: end it now.
                self.ended(&process);
                Err(why)
            }
        }
    }

    fn send(
        self: &Arc<Self>,
        key: CallKey,
        line: String,
        types: Arc<CallTypes>,
        check: impl FnOnce(&Described) -> Result<(), String>,
    ) -> CallHandle {
        // The Tool reads the call under the same limits: a call it would
        // refuse is not sent (decisions.md section 2).
        if let Some(why) = past_limit(&line, &self.options.limits) {
            return CallHandle::done(key, CallOutcome::NotRun(format!("the call was not sent: {why}")));
        }
        let (process, described) = match self.ensure_live() {
            Ok(live) => live,
            Err(why) => {
                return CallHandle::done(key, CallOutcome::NotRun(format!("the Tool process is not available: {why}")))
            }
        };
        if let Err(why) = check(&described) {
            return CallHandle::done(key, CallOutcome::NotRun(why));
        }
        let mut state = lock(&self.state);
        if state.pending.contains_key(&key) {
            return CallHandle::done(
                key,
                CallOutcome::NotRun("a call with the same (run, call) pair is already open".to_owned()),
            );
        }
        // Queued under the state lock, so that the pending entry and its
        // sequence number appear together to the end handling.
        let Some(seq) = process.outbox.push_call(line.as_bytes()) else {
            // Ended or retired since: its end is handled elsewhere.
            return CallHandle::done(
                key,
                CallOutcome::NotRun("the Tool process ended before the call reached it".to_owned()),
            );
        };
        let (handle, settle) = CallHandle::open(key.clone(), Some(Cancel::Process(process.outbox.clone())));
        state.pending.insert(key, Pending { settle, types, generation: process.generation, seq });
        // Not under the state lock: the pipe's comes before it.
        drop(state);
        process.outbox.write_chunk();
        handle
    }

    /// The writer thread of one process: writes the lines queued that no
    /// caller wrote (see [`Outbox`]), until the process is retired (then
    /// closes its stdin) or ends.
    fn write(self: &Arc<Self>, process: &Arc<Process>) {
        loop {
            let work = process.outbox.wait_for_work(WRITER_LINGER);
            if work == Work::Stop {
                return;
            }
            let mut w = process.outbox.pipe();
            if let Some(e) = w.failed.take() {
                // A caller's write failed; unless the process's end was
                // handled since (it shuts the outbox under this lock).
                if !process.outbox.is_shut() {
                    self.write_failed(process, w, &e);
                }
                return;
            }
            if w.dead {
                return;
            }
            if work == Work::Close {
                // The rest of a batch a caller left, then closing stdin is
                // the process's cue to finish.
                if let Err(e) = process.outbox.write_queued(&mut w) {
                    self.write_failed(process, w, &e);
                    return;
                }
                w.dead = true;
                w.stdin = None;
                return;
            }
            if let Err(e) = process.outbox.write_queued(&mut w) {
                self.write_failed(process, w, &e);
                return;
            }
        }
    }

    /// A write to the process failed: its stdin is closed, so it cannot take
    /// calls. Retire it now, so the next call starts another instead of
    /// failing the same way until its output closes too; the calls whose
    /// lines did not wholly reach it are NotRun at once. It may still be
    /// answering calls it read, so it gets the grace, as for a stop.
    fn write_failed(self: &Arc<Self>, process: &Arc<Process>, mut w: MutexGuard<'_, Pipe>, e: &std::io::Error) {
        w.dead = true;
        w.stdin = None;
        let generation = process.generation;
        let mut state = lock(&self.state);
        process.outbox.shut();
        if state.live.as_ref().is_some_and(|l| l.process.generation == generation) {
            state.live = None;
        }
        let unsent: Vec<CallKey> = state
            .pending
            .iter()
            .filter(|(_, p)| p.generation == generation && p.seq > w.written)
            .map(|(k, _)| k.clone())
            .collect();
        for key in unsent {
            if let Some(pending) = state.pending.remove(&key) {
                pending
                    .settle
                    .settle(CallOutcome::NotRun("the Tool process ended before the call reached it".to_owned()));
            }
        }
        self.retiring.add(generation);
        drop(state);
        drop(w);
        self.log(&format!("could not write a call to it ({e}): no more calls go to it"));
        self.watch(process.clone());
    }

    /// Retires the running process, if any (see the module's doc).
    fn stop(self: &Arc<Self>) {
        let process = {
            let mut state = lock(&self.state);
            let Some(live) = state.live.take() else { return };
            self.retiring.add(live.process.generation);
            live.process
        };
        // Its writer writes what is queued, then closes its stdin.
        process.outbox.close();
        self.watch(process);
    }

    /// Gives a retired process (its stdin closed, marked in `retiring`) the
    /// stop grace to end, then kills it.
    fn watch(self: &Arc<Self>, process: Arc<Process>) {
        let (inner, generation) = (self.clone(), process.generation);
        retire::watch(
            &self.retiring,
            generation,
            self.options.stop_grace,
            format!("flow-host stop {generation}"),
            move |why| {
                inner.log(why);
                inner.ended(&process);
            },
        );
    }

    /// The reader thread of one process.
    fn read(&self, process: &Process, stdout: std::process::ChildStdout) {
        let limits = self.options.limits;
        let mut reader = LineReader::new(BufReader::with_capacity(64 << 10, stdout), limits.max_bytes);
        let mut wakes: Vec<Wake> = Vec::new();
        let mut held_for = 0;
        loop {
            let incoming = match reader.next_frame() {
                Ok(Some(Frame::Line(line))) => match reply::read_line(&line, &limits) {
                    Line::Reply(parts) => {
                        if let Some(wake) = self.receive_canonical(parts, &limits) {
                            wakes.extend(wake);
                            self.release(&mut wakes, &mut held_for, reader.get_ref().buffer().is_empty());
                            continue;
                        }
                        parts.into_message(&line, &limits)
                    }
                    Line::Message(incoming) => incoming,
                },
                Ok(Some(Frame::TooLong { length, skim })) => message::too_long(length, skim, &limits),
                Ok(Some(Frame::Unterminated(line))) => {
                    self.log(&format!("dropped {} bytes after its last newline: a message ends with one", line.len()));
                    break;
                }
                Ok(None) => break,
                Err(e) => {
                    self.log(&format!("reading its output failed: {e}"));
                    break;
                }
            };
            wakes.extend(self.receive(incoming, process));
            self.release(&mut wakes, &mut held_for, reader.get_ref().buffer().is_empty());
        }
        wakes.into_iter().for_each(Wake::wake);
        self.ended(process);
    }

    /// Who sleeps on a reply is woken once the replies read with it are
    /// settled too (at most [`MAX_HELD_LINES`] later), so one wake serves a
    /// batch and the woken thread does not contend with the reader for the
    /// core.
    fn release(&self, wakes: &mut Vec<Wake>, held_for: &mut usize, nothing_buffered: bool) {
        if !wakes.is_empty() {
            *held_for += 1;
            if nothing_buffered || *held_for >= MAX_HELD_LINES {
                wakes.drain(..).for_each(Wake::wake);
                *held_for = 0;
            }
        }
    }

    /// A reply in the canonical envelope to an open call, its outcome
    /// decoded straight from its text ([`ReplyParts::admit_text`]): settled, and the
    /// wake of who sleeps on it. `None` for any other line, and for a reply
    /// that form cannot decode: [`Inner::receive`] judges those as before.
    fn receive_canonical(&self, parts: ReplyParts<'_>, limits: &Limits) -> Option<Option<Wake>> {
        let pair = (parts.run, parts.call);
        let types = lock(&self.state).pending.get(&pair as &dyn Pair)?.types.clone();
        let outcome = parts.admit_text(ReplyTypes { plan: &types.plan, ok: types.ok, err: types.err }, limits)?;
        // Gone since only if its process's end settled it meanwhile.
        let pending = lock(&self.state).pending.remove(&pair as &dyn Pair)?;
        Some(pending.settle.settle_quietly(outcome))
    }

    /// Handles one message from the process; a settled call on which a
    /// thread sleeps gives the [`Wake`] for it.
    fn receive(&self, incoming: Incoming, process: &Process) -> Option<Wake> {
        let open = |key: &CallKey| {
            let pending = lock(&self.state).pending.remove(key);
            if pending.is_none() {
                self.log(&format!("dropped a reply for {key}, which is not open"));
            }
            pending
        };
        match incoming {
            Incoming::Reply(reply) => {
                let p = open(&reply.key)?;
                let outcome =
                    admit(reply.outcome, ReplyTypes { plan: &p.types.plan, ok: p.types.ok, err: p.types.err });
                return p.settle.settle_quietly(outcome);
            }
            Incoming::BadReply { key, reason } => {
                return open(&key)?.settle.settle_quietly(CallOutcome::BadReply(reason))
            }
            Incoming::Response { id, result } => {
                let waiter = match &id {
                    Json::Number(n) => n
                        .to_bigint()
                        .and_then(|n| u64::try_from(n).ok())
                        .and_then(|n| lock(&self.state).describe_waiters.remove(&n)),
                    _ => None,
                };
                match waiter {
                    Some((_, tx)) => {
                        let _ =
                            tx.send(result.map_err(|e| format!("describe answered error {}: {}", e.code, e.message)));
                    }
                    None => {
                        self.log(&format!("dropped a response to id {}, which nobody asked for", id.to_canonical()))
                    }
                }
            }
            // The host serves no methods: a request gets its JSON-RPC error;
            // what is not a message is only logged, so two peers never
            // answer each other's errors forever.
            Incoming::Describe { id } => self.answer(
                process,
                &id,
                message::METHOD_NOT_FOUND,
                "Method not found: \"describe\" (the host serves none)",
            ),
            Incoming::Refuse { id, code, message }
                if code == message::METHOD_NOT_FOUND || code == message::INVALID_PARAMS =>
            {
                self.answer(process, &id, code, &message)
            }
            Incoming::Refuse { message, .. } => self.log(&format!("dropped a line: {message}")),
            Incoming::Call(c) => self.log(&format!("dropped a call for {} sent to the host", c.key)),
            Incoming::BadCall { key, .. } => self.log(&format!("dropped a call for {key} sent to the host")),
            Incoming::Cancel(key) => self.log(&format!("dropped a cancel for {key} sent to the host")),
            Incoming::Ignore(why) => self.log(&format!("dropped a line: {why}")),
        }
        None
    }

    fn answer(&self, process: &Process, id: &Json, code: i64, text: &str) {
        // Refused only by a process that takes no more lines, which needs no answer.
        process.outbox.push_line(write_error(id, code, text).as_bytes());
    }

    /// The process ended (or its output did, or it is to be ended now): end
    /// it for good, reap it, and settle every call that was out to it. Safe
    /// to run twice (its reader and its watchdog): the second finds nothing
    /// left to settle.
    fn ended(&self, process: &Process) {
        // Its whole group goes; neither kills nor waits again once reaped.
        let how = lock(&process.child).end_text();
        let generation = process.generation;
        let settled = {
            let mut w = process.outbox.pipe();
            w.dead = true;
            w.stdin = None;
            let written = w.written;
            let mut state = lock(&self.state);
            // Queued and never written: those calls did not reach it.
            process.outbox.shut();
            if state.live.as_ref().is_some_and(|l| l.process.generation == generation) {
                state.live = None;
            }
            // A describe still waiting hears of the end by its channel closing.
            state.describe_waiters.retain(|_, (g, _)| *g != generation);
            let keys: Vec<CallKey> =
                state.pending.iter().filter(|(_, p)| p.generation == generation).map(|(k, _)| k.clone()).collect();
            let settled: Vec<Pending> = keys.into_iter().filter_map(|k| state.pending.remove(&k)).collect();
            // Sent under the lock: the reader and the stop watchdog may both
            // handle this end, and the one that finds nothing left to settle
            // must not report the end before these outcomes are sent.
            let count = settled.len();
            for pending in settled {
                let outcome = if pending.seq <= written {
                    CallOutcome::Unknown(format!("the Tool process ended ({how}) after the call reached it"))
                } else {
                    CallOutcome::NotRun(format!("the Tool process ended ({how}) before the call reached it"))
                };
                pending.settle.settle(outcome);
            }
            count
        };
        if settled > 0 {
            self.log(&format!("the process ended ({how}) with {settled} call(s) out"));
        }
        // Last, so that whoever waits for a retired process to end finds its
        // calls settled.
        self.retiring.ended(generation);
    }
}
