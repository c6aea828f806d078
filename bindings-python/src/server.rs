//! The Tool process runtime: the core's sans-IO [`ServerCore`] driven from a
//! Rust reader thread, with handlers run by Python (`flow_toolkit._runtime`).
//!
//! - The reader thread reads stdin in bounded lines and hands each to the core,
//!   which answers describe, refuses bad calls (NotRun) and re-sent pairs
//!   before any Python runs. Lines are written whole from Rust.
//! - A started call's args (already decoded and checked by the core) are turned
//!   into their Python form and handed, with a [`Call`], to the Python
//!   `dispatch` callable, which runs the handler on a thread pool or on asyncio.
//! - The handler's outcome comes back through `Call.ok` / `Call.failed` /
//!   `Call.error`: the value is encoded in Rust (a value of the wrong type is
//!   Unknown, by the core's rule), and the reply is written with the GIL
//!   released.
//! - A cancel sets the call's token (what `ctx.cancelled` reads) and calls the
//!   Python `cancel` callable, which cancels an asyncio task.
//! - At the end of stdin the reader calls the Python `done` callable; Python
//!   waits for running calls, whose replies still go out, and the process exits.

use std::io::{BufReader, Write};
use std::sync::{Arc, Mutex};

use flow_core::protocol::server::{CallTypes, GenericCall, HandlerResult, ServedEntry, ServerCore};
use flow_core::protocol::{CallKey, CancelToken, Event, LineReader};
use flow_core::types::{Listing, ToolDecl};
use flow_core::{Limits, Value};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::codec::Codec;
use crate::errors::decode_error;
use crate::from_py::FromPy;
use crate::pyplan::{Id, PTerm, PyPlan, Side};
use crate::to_py::{json as json_to_py, ToPy};

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Python exceptions are caught before they cross these locks; a poisoned
    // lock would mean a bug here, and serving on beats dying.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The Python form of one Tool's roots.
struct RootPlans {
    plan: PyPlan,
    params: Vec<Id>,
    ok: Id,
    err: Id,
    /// A generic call's type parameters, each at its concrete type, as JSON.
    bindings: Vec<(String, Id)>,
}

fn compile_roots(py: Python<'_>, codec: &Codec, decl: &ToolDecl, generic: Option<&GenericCall>) -> PyResult<RootPlans> {
    let view = generic.map(|g| Arc::new(g.view.declarations.clone()));
    let mut plan = PyPlan::new(codec.declarations.clone(), view, codec.classes.clone());
    let bindings: Vec<flow_core::types::Term> = generic.map(|g| g.view.bindings.iter().map(|(_, t)| t.clone()).collect()).unwrap_or_default();
    let tool_param = |i: usize| PTerm::ParamJson(bindings.get(i).cloned());
    let root = |plan: &mut PyPlan, term| -> PyResult<Id> {
        let pterm = PTerm::from_term(term, Side::Listing, &tool_param);
        plan.add(py, &pterm)?.map_err(|e| decode_error(py, &e))
    };
    let params = decl.params.iter().map(|p| root(&mut plan, &p.ty)).collect::<PyResult<Vec<_>>>()?;
    let ok = root(&mut plan, &decl.ok)?;
    let err = root(&mut plan, &decl.err)?;
    let mut named = Vec::new();
    for (name, term) in generic.map(|g| g.view.bindings.clone()).unwrap_or_default() {
        let node = plan.add(py, &PTerm::ParamJson(Some(term)))?.map_err(|e| decode_error(py, &e))?;
        named.push((name, node));
    }
    Ok(RootPlans { plan, params, ok, err, bindings: named })
}

struct Served {
    decl: ToolDecl,
    /// Compiled once for a nongeneric Tool; per call for a generic one.
    roots: Option<Arc<RootPlans>>,
}

struct Shared {
    core: Mutex<ServerCore>,
    out: Mutex<Box<dyn Write + Send>>,
    codec: Py<Codec>,
    tools: Vec<Served>,
}

impl Shared {
    fn write(&self, line: &str) {
        let mut out = lock(&self.out);
        // A host that stopped reading is gone; there is nobody to tell.
        if out.write_all(line.as_bytes()).and_then(|()| out.flush()).is_err() {
            eprintln!("flow tool: could not write a reply: the host is gone");
        }
    }

    fn finish(&self, key: &CallKey, result: HandlerResult) {
        let lines = lock(&self.core).finish(key, result);
        for line in lines {
            self.write(&line);
        }
    }
}

/// One running call, as its handler's context sees it.
#[pyclass(frozen, module = "flow_toolkit")]
pub struct Call {
    shared: Arc<Shared>,
    key: CallKey,
    tool: usize,
    cancel: CancelToken,
    roots: Arc<RootPlans>,
    generic: Option<GenericCall>,
    finished: Mutex<bool>,
}

impl Call {
    fn take_finish(&self) -> bool {
        !std::mem::replace(&mut *lock(&self.finished), true)
    }

    fn encode(&self, py: Python<'_>, value: &Bound<'_, PyAny>, node: Id) -> Result<Value, String> {
        FromPy { plan: &self.roots.plan, limits: Limits::default() }.value(value, node).map_err(|e| match e {
            crate::from_py::Failure::Refused(e) => e.to_string(),
            crate::from_py::Failure::Python(e) => format!("reading the value raised {}", e.value(py).repr().map(|r| r.to_string()).unwrap_or_default()),
        })
    }

    fn send(&self, py: Python<'_>, result: HandlerResult) {
        let shared = self.shared.clone();
        let key = self.key.clone();
        py.detach(move || shared.finish(&key, result));
    }
}

#[pymethods]
impl Call {
    /// The Tool's index in the served list.
    #[getter]
    fn tool(&self) -> usize {
        self.tool
    }

    /// The host's run id.
    #[getter]
    fn run_id(&self) -> &str {
        &self.key.run
    }

    /// The call's history id.
    #[getter]
    fn call_id(&self) -> &str {
        &self.key.call
    }

    /// Whether a cancel for this call has arrived.
    #[getter]
    fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Blocks (without the GIL) until the call is cancelled or `timeout`
    /// seconds pass; returns whether it is cancelled.
    #[pyo3(signature = (timeout = None))]
    fn wait_cancelled(&self, py: Python<'_>, timeout: Option<f64>) -> bool {
        let token = self.cancel.clone();
        py.detach(move || match timeout {
            Some(t) => token.sleep(std::time::Duration::from_secs_f64(t.max(0.0))),
            None => {
                token.wait();
                true
            }
        })
    }

    /// Replies Ok with `value` (encoded at the declared success type; a value
    /// of another type is answered Unknown, naming the path).
    fn ok(&self, py: Python<'_>, value: &Bound<'_, PyAny>) {
        if !self.take_finish() {
            return;
        }
        let result = match self.encode(py, value, self.roots.ok) {
            Ok(v) => HandlerResult::Ok(v),
            Err(why) => HandlerResult::Error(format!("its result is not of the declared type: {why}")),
        };
        self.send(py, result);
    }

    /// Replies Failed with `error` (encoded at the declared error type, else Unknown).
    fn failed(&self, py: Python<'_>, error: &Bound<'_, PyAny>) {
        if !self.take_finish() {
            return;
        }
        let result = match self.encode(py, error, self.roots.err) {
            Ok(v) => HandlerResult::Failed(v),
            Err(why) => HandlerResult::Error(format!("its error is not of the declared type: {why}")),
        };
        self.send(py, result);
    }

    /// Replies Unknown: the handler stopped some other way (`reason` says how).
    fn error(&self, py: Python<'_>, reason: &str) {
        if self.take_finish() {
            self.send(py, HandlerResult::Error(reason.to_owned()));
        }
    }

    /// A generic call's validated types view, as JSON (None for a nongeneric call).
    #[getter]
    fn types<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.generic {
            None => Ok(py.None().into_bound(py)),
            Some(g) => json_to_py(py, &flow_core::types::call_view_to_json(&g.view)),
        }
    }

    /// A generic call's success schema, as JSON (None for a nongeneric call).
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.generic {
            None => Ok(py.None().into_bound(py)),
            Some(g) => json_to_py(py, &g.schema),
        }
    }

    /// The concrete type term each type parameter is bound to, by name, as JSON.
    #[getter]
    fn bindings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dict = pyo3::types::PyDict::new(py);
        if let Some(g) = &self.generic {
            for (name, term) in &g.view.bindings {
                dict.set_item(name, json_to_py(py, &flow_core::types::term_to_json(term))?)?;
            }
        }
        Ok(dict.into_any())
    }

    /// The canonical text of JSON `value` decoded at a concrete root of this
    /// call ("ok", "err", a parameter's name or a type parameter's name):
    /// checks a JSON value against the caller's type. Raises DecodeError.
    fn canonical_at(&self, py: Python<'_>, root: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
        let (types, node) = self.concrete_root(py, root)?;
        let json = crate::from_py::json(value, &Limits::default()).map_err(|e| e.into_pyerr(py))?;
        let v = flow_core::decode::from_json(json, &types.plan, node).map_err(|e| decode_error(py, &e))?;
        Ok(v.to_canonical())
    }

    /// The order at a root of this call ("ok", "err", a parameter's name, or
    /// a type parameter's name), over the Python form the handler sees and
    /// returns: what FlowSet and FlowMap take as `order=` for elements that
    /// hold a type parameter's values.
    fn order(&self, py: Python<'_>, root: &str) -> PyResult<Py<ContextOrder>> {
        let params = &self.shared.tools[self.tool].decl.params;
        let node = match root {
            "ok" => Some(self.roots.ok),
            "err" => Some(self.roots.err),
            name => params
                .iter()
                .position(|p| p.name == name)
                .map(|i| self.roots.params[i])
                .or_else(|| self.roots.bindings.iter().find(|(n, _)| n == name).map(|(_, id)| *id)),
        };
        let node = node.ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(format!("no root {root:?} in this call")))?;
        Py::new(py, ContextOrder { roots: self.roots.clone(), node })
    }

    /// Flow's order of two JSON values at a concrete root of this call (the
    /// caller's type decides: a record by its fields in declaration order).
    fn compare_at(&self, py: Python<'_>, root: &str, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i32> {
        let (types, node) = self.concrete_root(py, root)?;
        let decode = |x: &Bound<'_, PyAny>| -> PyResult<Value> {
            let json = crate::from_py::json(x, &Limits::default()).map_err(|e| e.into_pyerr(py))?;
            flow_core::decode::from_json(json, &types.plan, node).map_err(|e| decode_error(py, &e))
        };
        Ok(decode(a)?.flow_cmp(&decode(b)?) as i32)
    }
}

impl Call {
    fn concrete_root(&self, py: Python<'_>, root: &str) -> PyResult<(Arc<CallTypes>, usize)> {
        let Some(g) = &self.generic else {
            return Err(pyo3::exceptions::PyValueError::new_err("a nongeneric call has no call view"));
        };
        let node = match root {
            "ok" => Some(g.types.ok),
            "err" => Some(g.types.err),
            name => g.view.params.iter().position(|p| p.name == name).map(|i| g.types.params[i]),
        };
        if let Some(node) = node {
            return Ok((g.types.clone(), node));
        }
        let Some((_, term)) = g.view.bindings.iter().find(|(n, _)| n == root) else {
            return Err(pyo3::exceptions::PyKeyError::new_err(format!("no root {root:?} in this call")));
        };
        let mut plan = g.types.plan.clone();
        let node = plan.add(&g.view.declarations, term).map_err(|e| decode_error(py, &e))?;
        Ok((Arc::new(CallTypes { plan, params: Vec::new(), ok: node, err: node }), node))
    }
}

/// Flow's order and equality at one type of a generic call, whose values hold
/// JSON where the Tool's type parameters are: each is read at the caller's
/// concrete type (a record by its fields in declaration order, never by a
/// dict's keys). What a generic call's FlowSets and FlowMaps sort by.
#[pyclass(frozen, module = "flow_toolkit")]
pub struct ContextOrder {
    roots: Arc<RootPlans>,
    node: Id,
}

impl ContextOrder {
    fn read(&self, value: &Bound<'_, PyAny>) -> PyResult<Value> {
        FromPy { plan: &self.roots.plan, limits: Limits::default() }.value(value, self.node).map_err(|e| e.into_pyerr(value.py()))
    }
}

#[pymethods]
impl ContextOrder {
    /// -1, 0 or 1: `a` before, equal to, or after `b`.
    fn __call__(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i32> {
        Ok(self.read(a)?.flow_cmp(&self.read(b)?) as i32)
    }

    /// The value's canonical text at this type: equal values, equal texts.
    fn canonical(&self, value: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.read(value)?.to_canonical())
    }
}

/// The Tool process runtime (see the module doc). Made by
/// `flow_toolkit._runtime.serve`.
#[pyclass(module = "flow_toolkit")]
pub struct Server {
    shared: Arc<Shared>,
    reader: Mutex<Option<std::thread::JoinHandle<()>>>,
}

#[pymethods]
impl Server {
    /// Serves `entries` (`(identity, fingerprint, signature JSON text)`, the
    /// generated metadata) with the types of `codec`. Replies go to the file
    /// descriptor `out_fd` (the process's original stdout, which the runtime
    /// keeps for the protocol) or, without it, to stdout.
    #[new]
    #[pyo3(signature = (codec, entries, out_fd = None))]
    fn new(py: Python<'_>, codec: Py<Codec>, entries: Vec<(String, String, String)>, out_fd: Option<i32>) -> PyResult<Server> {
        let c = codec.get();
        let listing: &Listing = &c.listing;
        let mut served_entries = Vec::with_capacity(entries.len());
        let mut tools = Vec::with_capacity(entries.len());
        for (tool, fingerprint, signature) in entries {
            let signature = flow_core::json::parse_str(&signature, &Limits::default()).map_err(|e| decode_error(py, &e))?;
            let decl = listing
                .tool(&tool)
                .ok_or_else(|| pyo3::exceptions::PyValueError::new_err(format!("{tool} is not a Tool of the listing")))?
                .clone();
            let roots = if decl.is_generic() { None } else { Some(Arc::new(compile_roots(py, c, &decl, None)?)) };
            tools.push(Served { decl, roots });
            served_entries.push(ServedEntry { tool, fingerprint, signature });
        }
        let core = ServerCore::new(listing, served_entries).map_err(|e| decode_error(py, &e))?;
        let out: Box<dyn Write + Send> = match out_fd {
            Some(fd) => protocol_output(fd)?,
            None => Box::new(std::io::stdout()),
        };
        let shared = Arc::new(Shared { core: Mutex::new(core), out: Mutex::new(out), codec, tools });
        Ok(Server { shared, reader: Mutex::new(None) })
    }

    /// Starts the reader thread. `dispatch(batch)` runs the handlers of a list
    /// of `(call, args)` (args a list, in parameter order); `cancel(call)` is
    /// told of a cancel; `done()` is called once stdin has ended.
    fn start(&self, dispatch: Py<PyAny>, cancel: Py<PyAny>, done: Py<PyAny>) -> PyResult<()> {
        let shared = self.shared.clone();
        let handle = std::thread::Builder::new()
            .name("flow-tool-reader".into())
            .spawn(move || read(shared, dispatch, cancel, done))
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start the reader: {e}")))?;
        *lock(&self.reader) = Some(handle);
        Ok(())
    }

    /// Waits for the reader thread to end (after it has called `done`). The
    /// interpreter must not finalize while that thread still holds the GIL.
    fn join(&self, py: Python<'_>) {
        if let Some(handle) = lock(&self.reader).take() {
            py.detach(move || {
                let _ = handle.join();
            });
        }
    }
}

/// The protocol's output on a file descriptor the runtime owns from now on.
#[cfg(unix)]
fn protocol_output(fd: i32) -> PyResult<Box<dyn Write + Send>> {
    use std::os::fd::FromRawFd;
    if fd < 0 {
        return Err(pyo3::exceptions::PyValueError::new_err("out_fd must be a file descriptor"));
    }
    // SAFETY: the caller hands this descriptor over (the runtime dups stdout
    // for it and never uses it otherwise); the File closes it when dropped.
    Ok(Box::new(unsafe { std::fs::File::from_raw_fd(fd) }))
}

#[cfg(not(unix))]
fn protocol_output(_fd: i32) -> PyResult<Box<dyn Write + Send>> {
    Ok(Box::new(std::io::stdout()))
}

/// What the reader hands the dispatcher, in the order it read them.
enum Handoff {
    Start(Box<flow_core::protocol::StartedCall>),
    Cancel(CallKey),
    Done,
}

/// Reads stdin and drives the core; everything that needs Python goes to the
/// dispatcher thread, which takes the GIL once per batch rather than once per
/// line: under load the GIL is busy, and each wait for it costs a switch.
fn read(shared: Arc<Shared>, dispatch: Py<PyAny>, cancel: Py<PyAny>, done: Py<PyAny>) {
    let (tx, rx) = std::sync::mpsc::channel::<Handoff>();
    let dispatcher = {
        let shared = shared.clone();
        std::thread::Builder::new()
            .name("flow-tool-dispatch".into())
            .spawn(move || dispatch_loop(shared, rx, dispatch, cancel, done))
            .expect("a thread can be started")
    };
    let limit = lock(&shared.core).limits().max_bytes;
    let mut reader = LineReader::new(BufReader::new(std::io::stdin()), limit);
    loop {
        let frame = match reader.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e) => {
                eprintln!("flow tool: reading stdin failed: {e}");
                break;
            }
        };
        let events = lock(&shared.core).receive_frame(frame);
        for event in events {
            match event {
                Event::Write(line) => shared.write(&line),
                Event::Log(text) => eprintln!("flow tool: {text}"),
                Event::Cancel(key) => {
                    let _ = tx.send(Handoff::Cancel(key));
                }
                Event::Start(started) => {
                    let _ = tx.send(Handoff::Start(started));
                }
            }
        }
    }
    let _ = tx.send(Handoff::Done);
    let _ = dispatcher.join();
}

fn dispatch_loop(shared: Arc<Shared>, rx: std::sync::mpsc::Receiver<Handoff>, dispatch: Py<PyAny>, cancel: Py<PyAny>, done: Py<PyAny>) {
    let mut running: std::collections::HashMap<CallKey, Py<Call>> = std::collections::HashMap::new();
    while let Ok(first) = rx.recv() {
        let batch: Vec<Handoff> = std::iter::once(first).chain(rx.try_iter()).collect();
        let finished = Python::attach(|py| {
            running.retain(|_, c| !*lock(&c.get().finished));
            // Started calls go to Python in one list per batch; a cancel or
            // the end first hands over what came before it, keeping order.
            let mut starts: Vec<(Py<Call>, Bound<'_, PyList>)> = Vec::new();
            let flush = |starts: &mut Vec<(Py<Call>, Bound<'_, PyList>)>| {
                if starts.is_empty() {
                    return;
                }
                let keys: Vec<CallKey> = starts.iter().map(|(c, _)| c.get().key.clone()).collect();
                let batch = match PyList::new(py, starts.drain(..)) {
                    Ok(batch) => batch,
                    Err(e) => {
                        e.print(py);
                        return;
                    }
                };
                if let Err(e) = dispatch.call1(py, (batch,)) {
                    e.print(py);
                    let reason = format!("the runtime could not start the handler: {e}");
                    for key in keys {
                        let reason = reason.clone();
                        py.detach(|| shared.finish(&key, HandlerResult::Error(reason)));
                    }
                }
            };
            for handoff in batch {
                match handoff {
                    Handoff::Done => {
                        flush(&mut starts);
                        if let Err(e) = done.call0(py) {
                            e.print(py);
                        }
                        return true;
                    }
                    Handoff::Cancel(key) => {
                        flush(&mut starts);
                        if let Some(call) = running.get(&key) {
                            if let Err(e) = cancel.call1(py, (call.clone_ref(py),)) {
                                e.print(py);
                            }
                        }
                    }
                    Handoff::Start(started) => {
                        let key = started.key.clone();
                        match start(py, &shared, *started) {
                            Ok((call, args)) => {
                                running.insert(key, call.clone_ref(py));
                                starts.push((call, args));
                            }
                            Err(e) => {
                                let reason = format!("the runtime could not convert the args: {e}");
                                py.detach(|| shared.finish(&key, HandlerResult::Error(reason)));
                            }
                        }
                    }
                }
            }
            flush(&mut starts);
            false
        });
        if finished {
            break;
        }
    }
}

/// The Python form of a started call's args, and its [`Call`].
fn start<'py>(
    py: Python<'py>,
    shared: &Arc<Shared>,
    started: flow_core::protocol::StartedCall,
) -> PyResult<(Py<Call>, Bound<'py, PyList>)> {
    let served = &shared.tools[started.tool];
    let roots = match &served.roots {
        Some(roots) => roots.clone(),
        None => Arc::new(compile_roots(py, shared.codec.get(), &served.decl, started.generic.as_ref())?),
    };
    let context_roots = roots.clone();
    let make_order = move |py: Python<'_>, node: Id| -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, ContextOrder { roots: context_roots.clone(), node })?.into_any())
    };
    let context: Option<&crate::to_py::MakeOrder> = if started.generic.is_some() { Some(&make_order) } else { None };
    let to_py = ToPy { plan: &roots.plan, context };
    let args = started
        .args
        .iter()
        .zip(&roots.params)
        .map(|(v, node)| to_py.value(py, v, *node))
        .collect::<PyResult<Vec<_>>>()?;
    let call = Call {
        shared: shared.clone(),
        key: started.key,
        tool: started.tool,
        cancel: started.cancel,
        roots,
        generic: started.generic,
        finished: Mutex::new(false),
    };
    Ok((Py::new(py, call)?, PyList::new(py, args)?))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Server>()?;
    m.add_class::<Call>()?;
    m.add_class::<ContextOrder>()?;
    Ok(())
}
