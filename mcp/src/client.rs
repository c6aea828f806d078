//! One MCP server process as a client sees it: started on demand, the era
//! negotiated and every tool listed before any call, calls multiplexed over
//! its stdin and answered by JSON-RPC id, and started again for the next call
//! after it ends. The rules live in the sans-IO [`Session`]; this file owns
//! the process and the threads.
//!
//! Threads, per process: a reader (stdout into the session), a writer (the
//! only one that touches stdin), and a stderr reader (each line a log line,
//! `flow_process::stderr`);
//! per retired process, a watchdog that lives at most the stop grace. Only
//! the writer can block on the server: everyone else queues lines to it, and
//! the reader never waits even for the queue (an answer to a server's ping
//! that does not fit is dropped and logged), so a server that stops reading
//! its stdin can stall calls but never the reading of its answers.
//!
//! Locks, in this order when nested: `start` (one start at a time), a
//! process's `io`, then `state`, then `retiring`'s; a process's `session`
//! and `child` are taken alone. The writer holds `io` around a write and the
//! mark that the call's line reached the server; the end of a process takes
//! `io` after the kill, so that mark cannot race the decision between
//! Unknown (the line reached the server) and NotRun (it did not).
//!
//! Retiring (stop, a failed write, the last handle dropped), as for a Tool
//! process (both supervised by [`crate::process`]): the
//! server leaves `live`, so the next call starts another; its stdin is
//! closed; and if it has not ended within [`McpOptions::stop_grace`], it is
//! killed with its process group. MCP's stdio transport has the client close
//! the server's stdin, wait, send SIGTERM, wait, then SIGKILL; "close stdin,
//! wait the grace, kill" is that without the SIGTERM step, which a server
//! told by its stdin's end does not need.
//! Either way its end is handled as any end: reaped, and each call out to it
//! settled (Unknown if its line reached the server, NotRun if not).

use std::collections::{BTreeMap, HashMap};
use std::io::{BufReader, Write};
use std::process::ChildStdin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use flow_core::json::Object;
use flow_core::limits::Limits;
use flow_process::retire::{self, LastHandle, Retire, Retiring};
use flow_process::{self as supervisor, LogSink, ProcessSpec, Started, StderrMode, Supervised, DEFAULT_STOP_GRACE};
use flow_protocol::LineReader;

use super::messages::Tool;
use super::session::{Action, Answer, Session};
use super::version::{Era, Implementation};

/// Lines queued for one process's writer: beyond this, a caller waits.
const QUEUE: usize = 64;

/// What an MCP client can tune.
#[derive(Clone)]
pub struct McpOptions {
    /// Reading limits for the server's lines; `max_bytes` is the size limit
    /// of one line, in both directions.
    pub limits: Limits,
    /// How long `server/discover` may go unanswered before the handshake era
    /// is tried (a server of that era may ignore it rather than refuse it).
    pub probe_timeout: Duration,
    /// How long a started server may take from start to its last page of
    /// tools. A server that never gets there must not hang the host.
    pub ready_timeout: Duration,
    /// How long a server whose stdin the client has closed (a stop, a write
    /// that failed, the last handle dropped) may take to exit before it is
    /// killed: the host's `stop_grace`. Zero kills at once.
    pub stop_grace: Duration,
    /// Log lines: the session's notes, the server's notifications and stderr.
    pub log: LogSink,
    /// Discard the server's stderr instead of logging it.
    pub quiet_stderr: bool,
    /// Who the client says it is.
    pub client: Implementation,
}

impl Default for McpOptions {
    /// What a host's default options give (`From<&HostOptions>`).
    fn default() -> McpOptions {
        McpOptions {
            limits: Limits::default(),
            probe_timeout: Duration::from_secs(10),
            ready_timeout: Duration::from_secs(30),
            stop_grace: DEFAULT_STOP_GRACE,
            log: Arc::new(|line| eprintln!("flow-host: {line}")),
            quiet_stderr: false,
            client: Implementation::flow_adapter(),
        }
    }
}

/// How a call ended, as far as the client knows.
#[derive(Debug, Clone, PartialEq)]
pub enum CallEnd {
    /// The server answered (or sent a line naming the call).
    Answered(Answer),
    /// The call never reached the server.
    NotRun(String),
    /// It reached the server, and no answer will come: the server ended, or
    /// the call was cancelled.
    Unknown(String),
}

type Deliver = Box<dyn FnOnce(CallEnd) + Send>;

struct Pending {
    generation: u64,
    serial: u64,
    deliver: Deliver,
    written: bool,
}

enum Job {
    /// A line, and the call (id, serial) whose line it is.
    Line(String, Option<(String, u64)>),
    /// Close stdin: the server's cue to exit.
    Close,
}

/// One started server process.
struct Process {
    generation: u64,
    session: Mutex<Session>,
    jobs: SyncSender<Job>,
    handshake: Mutex<Option<Sender<Result<(), String>>>>,
    child: Mutex<Supervised>,
    io: Mutex<()>,
    /// Set (under the state lock) when it has ended, so that a process that
    /// ends just as it becomes ready is never taken for the live one.
    done: AtomicBool,
    /// No line goes to it any more: it was retired or has ended. Its writer
    /// then drops its stdin, and the lines still queued with it.
    closed: AtomicBool,
    /// Held through the handling of its end: the reader and the stop
    /// watchdog may both handle it, and the one that finds nothing left to
    /// settle must not report the end before the other has delivered.
    ending: Mutex<()>,
}

/// The running process and what it listed.
#[derive(Clone)]
struct Live {
    process: Arc<Process>,
    tools: Arc<BTreeMap<String, Tool>>,
    era: Era,
}

#[derive(Default)]
struct State {
    live: Option<Live>,
    generation: u64,
    serial: u64,
    pending: HashMap<String, Pending>,
}

/// What the connection's threads share. They hold this, not an
/// [`McpConnection`], so that dropping the last `McpConnection` can end them.
struct Inner {
    spec: ProcessSpec,
    options: McpOptions,
    start: Mutex<()>,
    state: Mutex<State>,
    /// Processes retired and not yet ended, each with a watchdog.
    retiring: Arc<Retiring>,
}

/// An MCP server, started on demand and again after it ends. Clones share
/// it. When the last clone is dropped, the server is stopped as by
/// [`McpConnection::stop`], and the drop waits until it has ended (at most
/// the stop grace, then it is killed), so no server outlives its client.
#[derive(Clone)]
pub struct McpConnection {
    inner: Arc<Inner>,
    _last: Arc<LastHandle<Inner>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock means a panic elsewhere; the data is still consistent
    // for what these locks guard, and serving on beats dying.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A call that went out: what [`McpConnection::cancel`] needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The JSON-RPC id the call went out with.
    pub id: String,
    serial: u64,
}

impl McpConnection {
    /// A connection to a server not yet started: the first use starts it.
    pub fn new(spec: ProcessSpec, options: McpOptions) -> McpConnection {
        let inner = Arc::new(Inner {
            spec,
            options,
            start: Mutex::new(()),
            state: Mutex::new(State::default()),
            retiring: Arc::default(),
        });
        McpConnection { _last: Arc::new(LastHandle(inner.clone())), inner }
    }

    /// How this connection starts the MCP server.
    pub fn spec(&self) -> &ProcessSpec {
        &self.inner.spec
    }

    /// The options this connection was made with.
    pub fn options(&self) -> &McpOptions {
        &self.inner.options
    }

    /// The tools of the running server by name, starting it (era, handshake,
    /// every page) if none runs.
    pub fn tools(&self) -> Result<Arc<BTreeMap<String, Tool>>, String> {
        self.inner.ensure_live().map(|live| live.tools)
    }

    /// The era of the running server, if one runs.
    pub fn era(&self) -> Option<Era> {
        lock(&self.inner.state).live.as_ref().map(|l| l.era.clone())
    }

    /// How many processes have been started so far.
    pub fn starts(&self) -> u64 {
        lock(&self.inner.state).generation
    }

    /// Sends a call: `tools/call` of `name` with JSON-RPC id `id`. `deliver`
    /// gets how it ended, exactly once, on some thread (at once, here, when
    /// the call cannot go out). `None` when it did not go out.
    pub fn call(
        &self,
        id: &str,
        name: &str,
        arguments: Object,
        deliver: impl FnOnce(CallEnd) + Send + 'static,
    ) -> Option<Sent> {
        self.inner.call(id, name, arguments, Box::new(deliver))
    }

    /// Cancels a call that went out: `notifications/cancelled` to the server,
    /// and the call ends Unknown now, since MCP sends no response to a
    /// cancelled request and whether the tool ran is not known. Nothing
    /// happens for a call that has already ended.
    pub fn cancel(&self, sent: &Sent) {
        self.inner.cancel(sent);
    }

    /// Closes the running server's stdin, which asks it to exit; calls out
    /// to it are settled when it does. Returns at once: a server that has
    /// not ended within [`McpOptions::stop_grace`] is then killed, as for
    /// any end. The next call starts another.
    pub fn stop(&self) {
        self.inner.stop();
    }

    /// MCP's stdio shutdown: stops the running server, then waits until it,
    /// and any server stopped before, has ended: it exits at the end of its
    /// input, or is killed once the stop grace has run out.
    pub fn shutdown(&self) {
        self.inner.stop();
        self.inner.retiring.wait_all();
    }

    /// Kills the running server, if any, and reaps it; calls out to it are
    /// settled, as for any end, before this returns.
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

    fn ensure_live(self: &Arc<Self>) -> Result<Live, String> {
        let _start = lock(&self.start);
        if let Some(live) = &lock(&self.state).live {
            return Ok(live.clone());
        }
        self.start_process()
    }

    /// Starts the server and waits until it is ready; called with the start
    /// lock held.
    fn start_process(self: &Arc<Self>) -> Result<Live, String> {
        let options = &self.options;
        let stderr = if options.quiet_stderr { StderrMode::Discard } else { StderrMode::Log(options.log.clone()) };
        let Started { child, stdin, stdout } = supervisor::start(&self.spec, &stderr)?;
        let (session, first) = Session::start(options.client.clone(), options.limits);
        let (jobs, queue) = mpsc::sync_channel(QUEUE);
        let (handshake, ready) = mpsc::channel();
        let generation = {
            let mut state = lock(&self.state);
            state.generation += 1;
            state.generation
        };
        let process = Arc::new(Process {
            generation,
            session: Mutex::new(session),
            jobs,
            handshake: Mutex::new(Some(handshake)),
            child: Mutex::new(child),
            io: Mutex::new(()),
            done: AtomicBool::new(false),
            closed: AtomicBool::new(false),
            ending: Mutex::new(()),
        });
        if let Err(e) = self.spawn_threads(&process, stdin, stdout, queue) {
            // Nobody may be reading it to reap it at its end: end it here.
            self.ended(&process);
            return Err(format!("could not start a thread for the MCP server: {e}"));
        }
        self.apply(&process, first);
        let ready = self.wait_ready(&process, &ready).and_then(|()| {
            let session = lock(&process.session);
            let era = session.era().cloned().expect("a ready session has an era");
            let live = Live { process: process.clone(), tools: Arc::new(session.tools().clone()), era };
            drop(session);
            let mut state = lock(&self.state);
            if process.done.load(Ordering::SeqCst) {
                return Err("the MCP server ended as it became ready".to_owned());
            }
            // A writer whose write failed sets this before it looks for the
            // live process to retire, so that failure is seen here or there.
            if process.closed.load(Ordering::SeqCst) {
                return Err("the MCP server stopped taking lines as it became ready".to_owned());
            }
            state.live = Some(live.clone());
            Ok(live)
        });
        if ready.is_err() {
            // Not usable, and no call went to it: end it now.
            self.ended(&process);
        }
        ready
    }

    fn spawn_threads(
        self: &Arc<Self>,
        process: &Arc<Process>,
        stdin: ChildStdin,
        stdout: std::process::ChildStdout,
        queue: Receiver<Job>,
    ) -> std::io::Result<()> {
        let generation = process.generation;
        // Weak: the queue's sender lives in the process, and the writer must
        // see the queue close once nothing else holds the process.
        let (inner, writer_process) = (self.clone(), Arc::downgrade(process));
        std::thread::Builder::new()
            .name(format!("mcp writer {generation}"))
            .spawn(move || inner.write_loop(stdin, &queue, &writer_process))?;
        let (inner, reader_process) = (self.clone(), process.clone());
        std::thread::Builder::new()
            .name(format!("mcp reader {generation}"))
            .spawn(move || inner.read_loop(&reader_process, stdout))?;
        Ok(())
    }

    /// Waits for the session to be ready: the probe gets `probe_timeout`, and
    /// everything `ready_timeout`.
    fn wait_ready(&self, process: &Process, ready: &Receiver<Result<(), String>>) -> Result<(), String> {
        let options = &self.options;
        let deadline = Instant::now() + options.ready_timeout;
        let mut waited = ready.recv_timeout(options.probe_timeout);
        if let Err(RecvTimeoutError::Timeout) = waited {
            let actions = {
                let mut session = lock(&process.session);
                if session.is_probing() {
                    session.probe_timed_out()
                } else {
                    Vec::new()
                }
            };
            self.apply(process, actions);
            waited = ready.recv_timeout(deadline.saturating_duration_since(Instant::now()));
        }
        match waited {
            Ok(result) => result,
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("the MCP server was not ready (era, tools) within {:?}", options.ready_timeout))
            }
            Err(RecvTimeoutError::Disconnected) => Err("the MCP server ended before it was ready".to_owned()),
        }
    }

    /// Carries out a session's actions. Never blocks: lines the writer's
    /// queue cannot take now are dropped and logged (only answers to the
    /// server's own requests are written from here, and the handshake's
    /// requests, which find the queue empty).
    fn apply(&self, process: &Process, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Write(line) => match process.jobs.try_send(Job::Line(line, None)) {
                    Ok(()) | Err(TrySendError::Disconnected(_)) => {}
                    Err(TrySendError::Full(_)) => self.log("dropped a line for the server: its stdin is backed up"),
                },
                Action::Ready => {
                    if let Some(tx) = lock(&process.handshake).take() {
                        let _ = tx.send(Ok(()));
                    }
                }
                Action::Failed(why) => {
                    if let Some(tx) = lock(&process.handshake).take() {
                        let _ = tx.send(Err(why));
                    }
                }
                Action::Answered { id, answer } => {
                    let pending = {
                        let mut state = lock(&self.state);
                        match state.pending.get(&id) {
                            Some(p) if p.generation == process.generation => state.pending.remove(&id),
                            _ => None,
                        }
                    };
                    match pending {
                        Some(p) => (p.deliver)(CallEnd::Answered(answer)),
                        None => self.log(&format!("dropped an answer to call {id:?}, which is not open")),
                    }
                }
                Action::Log(text) => self.log(&text),
            }
        }
    }

    fn call(self: &Arc<Self>, id: &str, name: &str, arguments: Object, deliver: Deliver) -> Option<Sent> {
        let live = match self.ensure_live() {
            Ok(live) => live,
            Err(why) => {
                deliver(CallEnd::NotRun(format!("the MCP server is not available: {why}")));
                return None;
            }
        };
        let process = &live.process;
        let line = {
            let mut session = lock(&process.session);
            match session.call(id, name, arguments) {
                Ok(line) if line.len() > self.options.limits.max_bytes + 1 => {
                    session.forget(id);
                    let max = self.options.limits.max_bytes;
                    Err(format!(
                        "the tools/call request is {} bytes, more than the message size limit of {max}",
                        line.len() - 1
                    ))
                }
                other => other,
            }
        };
        // Delivered outside the session's lock: `deliver` is the caller's code.
        let line = match line {
            Ok(line) => line,
            Err(why) => {
                deliver(CallEnd::NotRun(why));
                return None;
            }
        };
        let serial = {
            let mut state = lock(&self.state);
            // The process may have ended or been retired since it was found
            // live; what was pending then is settled with it, and this call
            // was not.
            if state.live.as_ref().is_none_or(|l| l.process.generation != process.generation) {
                drop(state);
                deliver(CallEnd::NotRun("the MCP server ended before the call reached it".to_owned()));
                return None;
            }
            state.serial += 1;
            let serial = state.serial;
            state
                .pending
                .insert(id.to_owned(), Pending { generation: process.generation, serial, deliver, written: false });
            serial
        };
        // A writer that is gone has stopped with its process, whose end
        // settles this call as not written.
        let _ = process.jobs.send(Job::Line(line, Some((id.to_owned(), serial))));
        Some(Sent { id: id.to_owned(), serial })
    }

    fn cancel(&self, sent: &Sent) {
        let process = {
            let state = lock(&self.state);
            let generation = match state.pending.get(&sent.id) {
                Some(p) if p.serial == sent.serial => p.generation,
                _ => return,
            };
            state.live.as_ref().filter(|l| l.process.generation == generation).map(|l| l.process.clone())
        };
        // A retired server's stdin is closed: it cannot be told, and the
        // call is Unknown all the same.
        let line = process.as_ref().and_then(|p| lock(&p.session).cancel(&sent.id, "cancelled by the Flow host"));
        let pending = {
            let mut state = lock(&self.state);
            match state.pending.get(&sent.id) {
                Some(p) if p.serial == sent.serial => state.pending.remove(&sent.id),
                _ => None,
            }
        };
        if let Some(pending) = pending {
            let why = if process.is_some() {
                "cancelled: the MCP server was sent notifications/cancelled, and answers a cancelled request with nothing, so whether the tool ran is not known"
            } else {
                "cancelled while the MCP server was stopping (its stdin closed, so it could not be told): whether the tool ran is not known"
            };
            (pending.deliver)(CallEnd::Unknown(why.to_owned()));
        }
        if let (Some(process), Some(line)) = (process, line) {
            let _ = process.jobs.send(Job::Line(line, None));
        }
    }

    /// The writer thread of one process. Returning drops the server's stdin.
    fn write_loop(self: &Arc<Self>, mut stdin: ChildStdin, queue: &Receiver<Job>, process: &Weak<Process>) {
        while let Ok(Job::Line(line, call)) = queue.recv() {
            let Some(process) = process.upgrade() else { return };
            let io = lock(&process.io);
            if process.closed.load(Ordering::SeqCst) {
                return;
            }
            if let Err(e) = stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()) {
                drop(io);
                self.write_failed(&process, call, &e);
                return;
            }
            if let Some((id, serial)) = call {
                if let Some(p) = lock(&self.state).pending.get_mut(&id).filter(|p| p.serial == serial) {
                    p.written = true;
                }
            }
        }
    }

    /// A write to the server failed: its stdin is closed, so no more lines
    /// go to it; the call whose line it was is NotRun.
    fn write_failed(self: &Arc<Self>, process: &Arc<Process>, call: Option<(String, u64)>, e: &std::io::Error) {
        // Unless it was retired or has ended already, which is why the write
        // failed: out of service first, so that whoever hears of the NotRun
        // and calls again starts another.
        if !process.closed.swap(true, Ordering::SeqCst) {
            self.log(&format!("could not write to the server ({e}): no more lines go to it"));
            let handshake = lock(&process.handshake).take();
            match handshake {
                // One not yet ready cannot be used: its start fails and ends it.
                Some(tx) => {
                    let _ = tx.send(Err(format!("could not write to the MCP server: {e}")));
                }
                // It may still be answering calls it read: the grace, as for
                // a stop.
                None => self.retire(process),
            }
        }
        let unwritten = call.and_then(|(id, serial)| {
            let mut state = lock(&self.state);
            match state.pending.get(&id) {
                Some(p) if p.serial == serial => state.pending.remove(&id),
                _ => None,
            }
        });
        if let Some(pending) = unwritten {
            (pending.deliver)(CallEnd::NotRun(format!(
                "the MCP server's stdin failed ({e}) before the call reached it"
            )));
        }
    }

    fn read_loop(&self, process: &Process, stdout: std::process::ChildStdout) {
        let mut reader = LineReader::new(BufReader::new(stdout), self.options.limits.max_bytes);
        loop {
            let frame = match reader.next_frame() {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(e) => {
                    self.log(&format!("reading its output failed: {e}"));
                    break;
                }
            };
            let actions = lock(&process.session).receive_frame(frame);
            self.apply(process, actions);
        }
        self.ended(process);
    }

    /// Retires the running server, if any (see the module's doc).
    fn stop(self: &Arc<Self>) {
        let live = lock(&self.state).live.as_ref().map(|l| l.process.clone());
        if let Some(process) = live {
            self.retire(&process);
        }
    }

    /// Retires `process` if it is the live one (see the module's doc).
    fn retire(self: &Arc<Self>, process: &Arc<Process>) {
        {
            let mut state = lock(&self.state);
            if state.live.as_ref().is_none_or(|l| l.process.generation != process.generation) {
                // Retired or ended already.
                return;
            }
            state.live = None;
            self.retiring.add(process.generation);
        }
        process.closed.store(true, Ordering::SeqCst);
        // A full queue means the writer is busy: it sees `closed` after its
        // write, or, blocked on a server that does not read, at the kill.
        let _ = process.jobs.try_send(Job::Close);
        let (inner, generation, watched) = (self.clone(), process.generation, process.clone());
        retire::watch(
            &self.retiring,
            generation,
            self.options.stop_grace,
            format!("mcp stop {generation}"),
            move |why| {
                inner.log(why);
                inner.ended(&watched);
            },
        );
    }

    /// The process ended (or its output did, or it is to be ended now): end
    /// it for good, reap it, and settle every call that was out to it. Safe
    /// to run twice (its reader and its watchdog): the second finds nothing
    /// left to settle.
    fn ended(&self, process: &Process) {
        let _ending = lock(&process.ending);
        // Before the kill, so that its writer, failing at the kill, does not
        // take the write for one to retire it over.
        process.closed.store(true, Ordering::SeqCst);
        // Its whole group goes; neither kills nor waits again once reaped.
        let how = lock(&process.child).end_text();
        let settled: Vec<Pending> = {
            let _io = lock(&process.io);
            let mut state = lock(&self.state);
            process.done.store(true, Ordering::SeqCst);
            if state.live.as_ref().is_some_and(|l| l.process.generation == process.generation) {
                state.live = None;
            }
            let ids: Vec<String> = state
                .pending
                .iter()
                .filter(|(_, p)| p.generation == process.generation)
                .map(|(k, _)| k.clone())
                .collect();
            ids.into_iter().filter_map(|id| state.pending.remove(&id)).collect()
        };
        let _ = process.jobs.try_send(Job::Close);
        if let Some(tx) = lock(&process.handshake).take() {
            let _ = tx.send(Err(format!("the MCP server ended ({how}) before it was ready")));
        }
        if !settled.is_empty() {
            self.log(&format!("the server ended ({how}) with {} call(s) out", settled.len()));
        }
        for pending in settled {
            let end = if pending.written {
                CallEnd::Unknown(format!("the MCP server ended ({how}) after the call reached it"))
            } else {
                CallEnd::NotRun(format!("the MCP server ended ({how}) before the call reached it"))
            };
            (pending.deliver)(end);
        }
        // Last, so that whoever waits for a retired server to end finds its
        // calls settled.
        self.retiring.ended(process.generation);
    }
}
