//! One Tool process as the host sees it: started on demand, described before
//! any call, calls multiplexed over its stdin, replies correlated by (run,
//! call) only, and restarted for the next call after it ends.
//!
//! Threads: the caller's thread writes; one reader thread per started process
//! reads its stdout and completes calls through channels; one watchdog thread
//! per retired process lives until that process ends, at most the stop grace.
//! Locks, always taken in this order: `start` (one restart at a time), a
//! process's `writer`, then `state`, then `retiring`'s; a process's `child`
//! is taken alone. The reader takes only `state` (and a writer to answer a
//! stray request), so a call blocked writing a large line never stops
//! replies from being read.
//!
//! Retiring (stop, a failed write, the last clone dropped): the process
//! leaves `live`, so the next call starts another; its stdin is closed, its
//! cue to finish its calls and exit; and if it has not ended within
//! [`HostOptions::stop_grace`], it is killed with its process group
//! ([`crate::process`], shared with MCP servers). Either way its end is handled as any process end.
//!
//! Process end (stdout closes or fails, or the grace runs out): the process
//! is killed and reaped; each call out to it is Unknown if its line was
//! written to the process's stdin, NotRun if not (host-boundary.md, "The Tool
//! process protocol"). A call's "written" mark is set under the writer lock,
//! and the end handling takes the writer lock after killing, so the mark
//! cannot race the decision.

use std::collections::HashMap;
use std::io::{BufReader, Write};
use std::process::ChildStdin;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::json::Json;
use crate::protocol::framing::{Frame, LineReader};
use crate::protocol::message::{self, write_cancel, write_describe_request, write_error, CallKey, Incoming};
use crate::protocol::outcome::{admit, CallOutcome, ReplyTypes};
use crate::protocol::outgoing::past_limit;
use crate::protocol::server::CallTypes;

use crate::process::retire::{self, LastHandle, Retire, Retiring};
use crate::process::{self as supervisor, ProcessSpec, Started, StderrMode, Supervised};

use super::described::Described;
use super::options::HostOptions;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

struct Pending {
    tx: Sender<CallOutcome>,
    types: Arc<CallTypes>,
    generation: u64,
    written: bool,
}

struct Writer {
    stdin: Option<ChildStdin>,
    /// No line goes to the process any more: it ended or was retired.
    dead: bool,
}

/// A started process.
struct Process {
    generation: u64,
    writer: Mutex<Writer>,
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

/// How a call is cancelled: a Tool process is sent `cancel`; an in-process
/// implementation (the MCP adapter) is told directly.
type Cancel = Box<dyn Fn() + Send>;

/// A call sent (or answered without sending): wait for its outcome.
pub struct CallHandle {
    key: CallKey,
    rx: Receiver<CallOutcome>,
    cancel: Option<Cancel>,
}

impl CallHandle {
    pub(crate) fn done(key: CallKey, outcome: CallOutcome) -> CallHandle {
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(outcome);
        CallHandle { key, rx, cancel: None }
    }

    /// A call whose outcome arrives on `rx`, cancelled by `cancel`.
    pub(crate) fn pending(key: CallKey, rx: Receiver<CallOutcome>, cancel: Option<Cancel>) -> CallHandle {
        CallHandle { key, rx, cancel }
    }

    /// The call's (run, call) pair.
    pub fn key(&self) -> &CallKey {
        &self.key
    }

    /// Blocks until the call's outcome is known.
    pub fn wait(self) -> CallOutcome {
        self.rx.recv().unwrap_or_else(|_| CallOutcome::Unknown("the host lost track of the call".to_owned()))
    }

    /// Waits up to `timeout`; `None` if the call is still open.
    pub fn wait_timeout(&self, timeout: Duration) -> Option<CallOutcome> {
        match self.rx.recv_timeout(timeout) {
            Ok(outcome) => Some(outcome),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                Some(CallOutcome::Unknown("the host lost track of the call".to_owned()))
            }
        }
    }

    /// Asks the process to stop work on the call. It proves nothing: the call
    /// stays open until its reply, or until the process ends.
    pub fn cancel(&self) {
        if let Some(cancel) = &self.cancel {
            cancel();
        }
    }
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

/// Writes `cancel` for `key` to a process, if it still takes lines.
fn send_cancel(inner: &Inner, process: &Process, key: &CallKey) {
    let mut w = lock(&process.writer);
    if !w.dead {
        if let Some(stdin) = w.stdin.as_mut() {
            if stdin.write_all(write_cancel(key).as_bytes()).and_then(|()| stdin.flush()).is_err() {
                inner.log(&format!("could not send the cancel of {key}"));
            }
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
        let process = Arc::new(Process {
            generation,
            writer: Mutex::new(Writer { stdin: Some(stdin), dead: false }),
            child: Mutex::new(child),
        });
        {
            let inner = self.clone();
            let reader_process = process.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("flow-host reader {generation}"))
                .spawn(move || inner.read(&reader_process, stdout));
            if let Err(e) = spawned {
                // Nobody would read it or reap it: end it here.
                self.ended(&process);
                return Err(format!("could not start a reader thread: {e}"));
            }
        }
        let sent = {
            let mut w = lock(&process.writer);
            // Its reader may already have seen it end.
            match w.stdin.as_mut() {
                Some(stdin) => stdin.write_all(write_describe_request(id).as_bytes()).and_then(|()| stdin.flush()),
                None => Err(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the process has ended")),
            }
        };
        let answer = match sent {
            Err(e) => Err(format!("could not send describe: {e}")),
            Ok(()) => match rx.recv_timeout(self.options.describe_timeout) {
                Ok(answer) => answer,
                Err(RecvTimeoutError::Timeout) => {
                    Err(format!("no answer to describe within {:?}", self.options.describe_timeout))
                }
                Err(RecvTimeoutError::Disconnected) => Err("the process ended before it answered describe".to_owned()),
            },
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
        let (tx, rx) = mpsc::channel();
        {
            let mut state = lock(&self.state);
            if state.pending.contains_key(&key) {
                return CallHandle::done(
                    key,
                    CallOutcome::NotRun("a call with the same (run, call) pair is already open".to_owned()),
                );
            }
            state.pending.insert(key.clone(), Pending { tx, types, generation: process.generation, written: false });
        }
        let cancel: Cancel = {
            let (inner, process, key) = (self.clone(), process.clone(), key.clone());
            Box::new(move || send_cancel(&inner, &process, &key))
        };
        let handle = CallHandle { key: key.clone(), rx, cancel: Some(cancel) };
        let mut w = lock(&process.writer);
        let write = match (w.dead, w.stdin.as_mut()) {
            (false, Some(stdin)) => stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()),
            _ => Err(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the process takes no more lines")),
        };
        let mut state = lock(&self.state);
        if write.is_ok() {
            if let Some(pending) = state.pending.get_mut(&key) {
                pending.written = true;
            }
            return handle;
        }
        if let Some(pending) = state.pending.remove(&key) {
            let _ =
                pending.tx.send(CallOutcome::NotRun("the Tool process ended before the call reached it".to_owned()));
        }
        if w.dead {
            // Already ended or retired: its end is handled elsewhere.
            return handle;
        }
        // A process whose stdin is closed cannot take calls: retire it now,
        // so the next call starts another instead of failing the same way
        // until its output closes too. It may still be answering calls it
        // read, so it gets the grace, as for a stop.
        w.dead = true;
        w.stdin = None;
        if state.live.as_ref().is_some_and(|l| l.process.generation == process.generation) {
            state.live = None;
        }
        self.retiring.add(process.generation);
        drop(state);
        drop(w);
        if let Err(e) = write {
            self.log(&format!("could not write a call to it ({e}): no more calls go to it"));
        }
        self.watch(process);
        handle
    }

    /// Retires the running process, if any (see the module's doc).
    fn stop(self: &Arc<Self>) {
        let process = {
            let mut state = lock(&self.state);
            let Some(live) = state.live.take() else { return };
            self.retiring.add(live.process.generation);
            live.process
        };
        {
            let mut w = lock(&process.writer);
            w.dead = true;
            w.stdin = None;
        }
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
        let mut reader = LineReader::new(BufReader::new(stdout), limits.max_bytes);
        loop {
            let incoming = match reader.next_frame() {
                Ok(Some(Frame::Line(line))) => message::parse_line(&line, &limits),
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
            self.receive(incoming, &process.writer);
        }
        self.ended(process);
    }

    fn receive(&self, incoming: Incoming, writer: &Mutex<Writer>) {
        let complete = |key: CallKey, outcome: Box<dyn FnOnce(&Pending) -> CallOutcome>| {
            let pending = lock(&self.state).pending.remove(&key);
            match pending {
                Some(p) => {
                    let _ = p.tx.send(outcome(&p));
                }
                None => self.log(&format!("dropped a reply for {key}, which is not open")),
            }
        };
        match incoming {
            Incoming::Reply(reply) => {
                let outcome = reply.outcome;
                complete(
                    reply.key,
                    Box::new(move |p| {
                        admit(outcome, ReplyTypes { plan: &p.types.plan, ok: p.types.ok, err: p.types.err })
                    }),
                );
            }
            Incoming::BadReply { key, reason } => complete(key, Box::new(move |_| CallOutcome::BadReply(reason))),
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
                writer,
                &id,
                message::METHOD_NOT_FOUND,
                "Method not found: \"describe\" (the host serves none)",
            ),
            Incoming::Refuse { id, code, message }
                if code == message::METHOD_NOT_FOUND || code == message::INVALID_PARAMS =>
            {
                self.answer(writer, &id, code, &message)
            }
            Incoming::Refuse { message, .. } => self.log(&format!("dropped a line: {message}")),
            Incoming::Call(c) => self.log(&format!("dropped a call for {} sent to the host", c.key)),
            Incoming::BadCall { key, .. } => self.log(&format!("dropped a call for {key} sent to the host")),
            Incoming::Cancel(key) => self.log(&format!("dropped a cancel for {key} sent to the host")),
            Incoming::Ignore(why) => self.log(&format!("dropped a line: {why}")),
        }
    }

    fn answer(&self, writer: &Mutex<Writer>, id: &Json, code: i64, text: &str) {
        let mut w = lock(writer);
        if let Some(stdin) = w.stdin.as_mut() {
            let _ = stdin.write_all(write_error(id, code, text).as_bytes()).and_then(|()| stdin.flush());
        }
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
            let mut w = lock(&process.writer);
            w.dead = true;
            w.stdin = None;
            let mut state = lock(&self.state);
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
            for pending in &settled {
                let outcome = if pending.written {
                    CallOutcome::Unknown(format!("the Tool process ended ({how}) after the call reached it"))
                } else {
                    CallOutcome::NotRun(format!("the Tool process ended ({how}) before the call reached it"))
                };
                let _ = pending.tx.send(outcome);
            }
            settled.len()
        };
        if settled > 0 {
            self.log(&format!("the process ended ({how}) with {settled} call(s) out"));
        }
        // Last, so that whoever waits for a retired process to end finds its
        // calls settled.
        self.retiring.ended(generation);
    }
}
