//! One Tool process as the host sees it: started on demand, described before
//! any call, calls multiplexed over its stdin, replies correlated by (run,
//! call) only, and restarted for the next call after it ends.
//!
//! Threads: the caller's thread writes; one reader thread per started process
//! reads its stdout and completes calls through channels. Locks, always taken
//! in this order: `start` (one restart at a time), a process's `writer`, then
//! `state`. The reader takes only `state` (and a writer to answer a stray
//! request), so a call blocked writing a large line never stops replies from
//! being read.
//!
//! Process end (stdout closes or fails): the process is killed and reaped;
//! each call out to it is Unknown if its line was written to the process's
//! stdin, NotRun if not. A call's "written" mark is set under the writer lock,
//! and the end handling takes the writer lock after killing, so the mark
//! cannot race the decision.

use std::collections::HashMap;
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::json::Json;
use crate::protocol::framing::{Frame, LineReader};
use crate::protocol::message::{self, write_cancel, write_describe_request, write_error, CallKey, Incoming};
use crate::protocol::outcome::{admit, CallOutcome, ReplyTypes};
use crate::protocol::server::CallTypes;

use super::described::Described;
use super::options::HostOptions;

/// How to start a Tool process.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProcessSpec {
    pub program: String,
    pub args: Vec<String>,
    /// The working directory (the manifest's directory).
    pub dir: PathBuf,
}

impl ProcessSpec {
    /// The command as a person would type it, for messages.
    pub fn display(&self) -> String {
        std::iter::once(&self.program).chain(&self.args).cloned().collect::<Vec<_>>().join(" ")
    }
}

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
    dead: bool,
}

/// What a caller needs of the running process: its generation, its writer
/// and what it described.
type LiveHandle = (u64, Arc<Mutex<Writer>>, Arc<Described>);

/// A started process.
struct Live {
    generation: u64,
    writer: Arc<Mutex<Writer>>,
    child: Arc<Mutex<Child>>,
    described: Arc<Described>,
}

#[derive(Default)]
struct State {
    live: Option<Live>,
    generation: u64,
    pending: HashMap<CallKey, Pending>,
    /// By request id: the process generation asked, and where its answer goes.
    describe_waiters: HashMap<u64, (u64, Sender<Result<Json, String>>)>,
    next_id: u64,
}

struct Inner {
    spec: ProcessSpec,
    options: HostOptions,
    start: Mutex<()>,
    state: Mutex<State>,
}

/// A Tool process, started on demand and restarted after it ends. Clones
/// share the process.
#[derive(Clone)]
pub struct Connection {
    inner: Arc<Inner>,
}

/// A call sent (or answered without sending): wait for its outcome.
pub struct CallHandle {
    key: CallKey,
    rx: Receiver<CallOutcome>,
    cancel: Option<(Arc<Mutex<Writer>>, Connection)>,
}

impl CallHandle {
    fn done(key: CallKey, outcome: CallOutcome) -> CallHandle {
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(outcome);
        CallHandle { key, rx, cancel: None }
    }

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
            Err(RecvTimeoutError::Disconnected) => Some(CallOutcome::Unknown("the host lost track of the call".to_owned())),
        }
    }

    /// Asks the process to stop work on the call. It proves nothing: the call
    /// stays open until its reply, or until the process ends.
    pub fn cancel(&self) {
        if let Some((writer, connection)) = &self.cancel {
            let mut w = lock(writer);
            if !w.dead {
                if let Some(stdin) = w.stdin.as_mut() {
                    if stdin.write_all(write_cancel(&self.key).as_bytes()).and_then(|()| stdin.flush()).is_err() {
                        connection.log(&format!("could not send the cancel of {}", self.key));
                    }
                }
            }
        }
    }
}

impl Connection {
    /// A connection to a process not yet started: the first describe or call
    /// starts it.
    pub fn new(spec: ProcessSpec, options: HostOptions) -> Connection {
        Connection {
            inner: Arc::new(Inner { spec, options, start: Mutex::new(()), state: Mutex::new(State::default()) }),
        }
    }

    pub fn spec(&self) -> &ProcessSpec {
        &self.inner.spec
    }

    fn log(&self, text: &str) {
        (self.inner.options.log)(&format!("{}: {text}", self.inner.spec.display()));
    }

    /// What the running process described, starting (and describing) it if
    /// none runs.
    pub fn describe(&self) -> Result<Arc<Described>, String> {
        self.ensure_live().map(|(_, _, described)| described)
    }

    /// How many processes have been started so far.
    pub fn starts(&self) -> u64 {
        lock(&self.inner.state).generation
    }

    fn ensure_live(&self) -> Result<LiveHandle, String> {
        let _start = lock(&self.inner.start);
        {
            let state = lock(&self.inner.state);
            if let Some(live) = &state.live {
                return Ok((live.generation, live.writer.clone(), live.described.clone()));
            }
        }
        self.start_process()
    }

    /// Starts the process and describes it; called with the start lock held.
    fn start_process(&self) -> Result<LiveHandle, String> {
        let spec = &self.inner.spec;
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .current_dir(&spec.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if self.inner.options.quiet_stderr { Stdio::null() } else { Stdio::inherit() })
            .spawn()
            .map_err(|e| format!("could not start `{}` in {}: {e}", spec.display(), spec.dir.display()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let writer = Arc::new(Mutex::new(Writer { stdin: Some(stdin), dead: false }));
        let (id, rx, generation) = {
            let mut state = lock(&self.inner.state);
            state.generation += 1;
            state.next_id += 1;
            let (tx, rx) = mpsc::channel();
            let id = state.next_id;
            let generation = state.generation;
            state.describe_waiters.insert(id, (generation, tx));
            (state.next_id, rx, state.generation)
        };
        let child = Arc::new(Mutex::new(child));
        {
            let connection = self.clone();
            let writer = writer.clone();
            let child = child.clone();
            std::thread::Builder::new()
                .name(format!("flow-host reader {generation}"))
                .spawn(move || connection.read(generation, stdout, &writer, &child))
                .map_err(|e| format!("could not start a reader thread: {e}"))?;
        }
        let sent = {
            let mut w = lock(&writer);
            // Its reader may already have seen it end.
            match w.stdin.as_mut() {
                Some(stdin) => stdin.write_all(write_describe_request(id).as_bytes()).and_then(|()| stdin.flush()),
                None => Err(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the process has ended")),
            }
        };
        let answer = match sent {
            Err(e) => Err(format!("could not send describe: {e}")),
            Ok(()) => match rx.recv_timeout(self.inner.options.describe_timeout) {
                Ok(answer) => answer,
                Err(RecvTimeoutError::Timeout) => {
                    Err(format!("no answer to describe within {:?}", self.inner.options.describe_timeout))
                }
                Err(RecvTimeoutError::Disconnected) => Err("the process ended before it answered describe".to_owned()),
            },
        };
        let described = answer.and_then(|result| {
            Described::from_json(&result).map(Arc::new).map_err(|e| format!("its describe result is malformed: {e}"))
        });
        match described {
            Ok(described) => {
                let mut state = lock(&self.inner.state);
                state.live = Some(Live { generation, writer: writer.clone(), child: child.clone(), described: described.clone() });
                Ok((generation, writer, described))
            }
            Err(why) => {
                // Not usable: end it; its reader finishes the bookkeeping.
                let _ = lock(&child).kill();
                lock(&self.inner.state).describe_waiters.remove(&id);
                Err(why)
            }
        }
    }

    /// Sends one call. `line` is the whole `call` line; `types` are the
    /// declared types its reply is admitted at; `check` judges the current
    /// process's describe (a declaration it no longer serves or fits makes the
    /// call NotRun with the returned reason).
    pub fn send(&self, key: CallKey, line: String, types: Arc<CallTypes>, check: impl FnOnce(&Described) -> Result<(), String>) -> CallHandle {
        if line.len() > self.inner.options.limits.max_bytes + 1 {
            let why = format!("the call is {} bytes, more than the message size limit of {}", line.len() - 1, self.inner.options.limits.max_bytes);
            return CallHandle::done(key, CallOutcome::NotRun(why));
        }
        let (generation, writer, described) = match self.ensure_live() {
            Ok(live) => live,
            Err(why) => return CallHandle::done(key, CallOutcome::NotRun(format!("the Tool process is not available: {why}"))),
        };
        if let Err(why) = check(&described) {
            return CallHandle::done(key, CallOutcome::NotRun(why));
        }
        let (tx, rx) = mpsc::channel();
        {
            let mut state = lock(&self.inner.state);
            if state.pending.contains_key(&key) {
                return CallHandle::done(key, CallOutcome::NotRun("a call with the same (run, call) pair is already open".to_owned()));
            }
            state.pending.insert(key.clone(), Pending { tx, types, generation, written: false });
        }
        let handle = CallHandle { key: key.clone(), rx, cancel: Some((writer.clone(), self.clone())) };
        let mut w = lock(&writer);
        let written = !w.dead
            && w.stdin.as_mut().is_some_and(|stdin| stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()).is_ok());
        let mut state = lock(&self.inner.state);
        if written {
            if let Some(pending) = state.pending.get_mut(&key) {
                pending.written = true;
            }
            return handle;
        }
        if let Some(pending) = state.pending.remove(&key) {
            let _ = pending.tx.send(CallOutcome::NotRun("the Tool process ended before the call reached it".to_owned()));
        }
        // A process whose stdin is closed cannot take calls: retire it now,
        // so the next call starts another instead of failing the same way
        // until its output closes too. Its reader settles what is left.
        if !w.dead {
            w.dead = true;
            w.stdin = None;
            if let Some(live) = state.live.take_if(|l| l.generation == generation) {
                let _ = lock(&live.child).kill();
            }
        }
        handle
    }

    /// The reader thread of one process.
    fn read(&self, generation: u64, stdout: std::process::ChildStdout, writer: &Arc<Mutex<Writer>>, child: &Arc<Mutex<Child>>) {
        let limits = self.inner.options.limits;
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
            self.receive(incoming, writer);
        }
        self.ended(generation, writer, child);
    }

    fn receive(&self, incoming: Incoming, writer: &Arc<Mutex<Writer>>) {
        let complete = |key: CallKey, outcome: Box<dyn FnOnce(&Pending) -> CallOutcome>| {
            let pending = lock(&self.inner.state).pending.remove(&key);
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
                    Box::new(move |p| admit(outcome, ReplyTypes { plan: &p.types.plan, ok: p.types.ok, err: p.types.err })),
                );
            }
            Incoming::BadReply { key, reason } => complete(key, Box::new(move |_| CallOutcome::BadReply(reason))),
            Incoming::Response { id, result } => {
                let waiter = match &id {
                    Json::Number(n) => n.to_bigint().and_then(|n| u64::try_from(n).ok()).and_then(|n| lock(&self.inner.state).describe_waiters.remove(&n)),
                    _ => None,
                };
                match waiter {
                    Some((_, tx)) => {
                        let _ = tx.send(result.map_err(|e| format!("describe answered error {}: {}", e.code, e.message)));
                    }
                    None => self.log(&format!("dropped a response to id {}, which nobody asked for", id.to_canonical())),
                }
            }
            // The host serves no methods: a request gets its JSON-RPC error;
            // what is not a message is only logged, so two peers never
            // answer each other's errors forever.
            Incoming::Describe { id } => self.answer(writer, &id, message::METHOD_NOT_FOUND, "Method not found: \"describe\" (the host serves none)"),
            Incoming::Refuse { id, code, message } if code == message::METHOD_NOT_FOUND || code == message::INVALID_PARAMS => {
                self.answer(writer, &id, code, &message)
            }
            Incoming::Refuse { message, .. } => self.log(&format!("dropped a line: {message}")),
            Incoming::Call(c) => self.log(&format!("dropped a call for {} sent to the host", c.key)),
            Incoming::BadCall { key, .. } => self.log(&format!("dropped a call for {key} sent to the host")),
            Incoming::Cancel(key) => self.log(&format!("dropped a cancel for {key} sent to the host")),
            Incoming::Ignore(why) => self.log(&format!("dropped a line: {why}")),
        }
    }

    fn answer(&self, writer: &Arc<Mutex<Writer>>, id: &Json, code: i64, text: &str) {
        let mut w = lock(writer);
        if let Some(stdin) = w.stdin.as_mut() {
            let _ = stdin.write_all(write_error(id, code, text).as_bytes()).and_then(|()| stdin.flush());
        }
    }

    /// The process ended (or its output did): end it for good and settle every
    /// call that was out to it.
    fn ended(&self, generation: u64, writer: &Arc<Mutex<Writer>>, child: &Arc<Mutex<Child>>) {
        let status = {
            let mut child = lock(child);
            let _ = child.kill();
            child.wait()
        };
        let settled: Vec<Pending> = {
            let mut w = lock(writer);
            w.dead = true;
            w.stdin = None;
            let mut state = lock(&self.inner.state);
            if state.live.as_ref().is_some_and(|l| l.generation == generation) {
                state.live = None;
            }
            // A describe still waiting hears of the end by its channel closing.
            state.describe_waiters.retain(|_, (g, _)| *g != generation);
            let keys: Vec<CallKey> = state.pending.iter().filter(|(_, p)| p.generation == generation).map(|(k, _)| k.clone()).collect();
            keys.into_iter().filter_map(|k| state.pending.remove(&k)).collect()
        };
        let how = match status {
            Ok(s) => s.to_string(),
            Err(e) => e.to_string(),
        };
        if !settled.is_empty() {
            self.log(&format!("the process ended ({how}) with {} call(s) out", settled.len()));
        }
        for pending in settled {
            let outcome = if pending.written {
                CallOutcome::Unknown(format!("the Tool process ended ({how}) after the call reached it"))
            } else {
                CallOutcome::NotRun(format!("the Tool process ended ({how}) before the call reached it"))
            };
            let _ = pending.tx.send(outcome);
        }
    }

    /// Closes the running process's stdin, which asks it to finish its calls
    /// and exit; calls out to it are settled when it does.
    pub fn stop(&self) {
        let writer = lock(&self.inner.state).live.as_ref().map(|l| l.writer.clone());
        if let Some(writer) = writer {
            lock(&writer).stdin = None;
        }
    }

    /// Kills the running process, if any; calls out to it are settled as for
    /// any process end.
    pub fn kill(&self) {
        let child = lock(&self.inner.state).live.as_ref().map(|l| l.child.clone());
        if let Some(child) = child {
            let _ = lock(&child).kill();
        }
    }
}
