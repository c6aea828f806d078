//! The Tool process runtime: the core's sans-IO [`ServerCore`] driven from a
//! Rust reader thread, with handlers run by Python (`flow_toolkit._runtime`).
//!
//! - The reader thread reads stdin in bounded lines and hands each to the core,
//!   which answers describe, refuses bad calls (NotRun) and re-sent pairs
//!   before any Python runs. Lines are written whole from Rust.
//! - A started call of a plain handler goes to the [`pool`], whose worker turns
//!   its args (already decoded and checked by the core) into their Python form
//!   and runs the Python `run` callable with a [`Call`]; an async handler's
//!   call goes the same way through a dispatcher thread, in batches, to the
//!   Python `dispatch` callable, which starts it on asyncio.
//! - The handler's outcome comes back through `Call.ok` / `Call.failed` /
//!   `Call.error`: the value is encoded in Rust (a value of the wrong type is
//!   Unknown, by the core's rule), and the reply goes to the [`outbox`],
//!   written without the GIL (by a worker when it has no call to run or a
//!   batch is ready, at once anywhere else).
//! - A cancel sets the call's token (what `ctx.cancelled` reads) and calls the
//!   Python `cancel` callable, which cancels an asyncio task.
//! - At the end of stdin the reader calls the Python `done` callable; Python
//!   waits for running calls, whose replies still go out, and the process exits.
//! - The core speaks the Flow Tool process protocol or, behind the MCP front,
//!   MCP ([`Front`]): calls start and end the same way behind either, so
//!   nothing here depends on which. `front_kind` reads the command line by
//!   flow-core's rule (`--mcp`, or nothing).
//!
//! Files: [`roots`] (the Python form of a Tool's roots), [`call`] (a running
//! call as the handler's context sees it, and a generic call's contextual
//! order), [`io`] (the reader and dispatcher threads), [`pool`] (the plain
//! handlers' threads), [`outbox`] (the lines waiting to be written), and here
//! the `Server` that ties them together.

mod call;
mod io;
mod outbox;
mod pool;
mod roots;

use std::io::Write;
use std::sync::{Arc, Mutex};

use flow_core::types::{Listing, ToolDecl};
use flow_core::Limits;
use flow_mcp::front::front_for;
use flow_protocol::server::{HandlerResult, ServedEntry, ServerCore};
use flow_protocol::{CallKey, Front, FrontKind, InFlight, DEFAULT_IN_FLIGHT};
use pyo3::prelude::*;

use crate::codec::Codec;
use crate::errors::decode_error;

pub use call::{Call, ContextOrder};
use io::{protocol_output, read};
use outbox::{on_worker, Outbox};
use pool::Pool;
use roots::{compile_roots, RootPlans};

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Python exceptions are caught before they cross these locks; a poisoned
    // lock would mean a bug here, and serving on beats dying.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

struct Served {
    decl: ToolDecl,
    /// Compiled once for a nongeneric Tool; per call for a generic one.
    roots: Option<Arc<RootPlans>>,
}

struct Shared {
    core: Mutex<Box<dyn Front>>,
    /// At most this many calls (and bytes of their lines) started and not
    /// replied to: a call past it is answered NotRun at once, so the reader
    /// reads on and a cancel always reaches its call.
    in_flight: InFlight,
    outbox: Outbox,
    codec: Py<Codec>,
    tools: Vec<Served>,
}

impl Shared {
    /// Writes `line` now (a thread other than the pool's workers).
    fn write(&self, line: &str) {
        self.outbox.add(line);
        self.outbox.flush();
    }

    /// Ends a call. On a pool worker its reply waits for the worker's next
    /// write (see [`pool`]); anywhere else it is written at once, so there
    /// the caller must not hold the GIL.
    fn finish(&self, key: &CallKey, result: HandlerResult) {
        let lines = lock(&self.core).finish(key, result);
        for line in &lines {
            self.outbox.add(line);
        }
        if !on_worker() {
            self.outbox.flush();
        }
    }
}

/// The Tool process runtime (see the module doc). Made by
/// `flow_toolkit._runtime.serve`.
#[pyclass(module = "flow_toolkit")]
pub struct Server {
    shared: Arc<Shared>,
    reader: Mutex<Option<std::thread::JoinHandle<()>>>,
    pool: Mutex<Option<Arc<Pool>>>,
}

#[pymethods]
impl Server {
    /// Serves `entries` (`(identity, fingerprint, signature JSON text)`, the
    /// generated metadata) with the types of `codec`. Replies go to the file
    /// descriptor `out_fd` (the process's original stdout, which the runtime
    /// keeps for the protocol) or, without it, to stdout. With `mcp`, the
    /// Tools are served to MCP clients rather than over the Flow protocol.
    #[new]
    #[pyo3(signature = (codec, entries, out_fd = None, *, mcp = false))]
    fn new(
        py: Python<'_>,
        codec: Py<Codec>,
        entries: Vec<(String, String, String)>,
        out_fd: Option<i32>,
        mcp: bool,
    ) -> PyResult<Server> {
        let c = codec.get();
        let listing: &Listing = &c.listing;
        let mut served_entries = Vec::with_capacity(entries.len());
        let mut tools = Vec::with_capacity(entries.len());
        for (tool, fingerprint, signature) in entries {
            let signature =
                flow_core::json::parse_str(&signature, &Limits::default()).map_err(|e| decode_error(py, &e))?;
            let decl = listing
                .tool(&tool)
                .ok_or_else(|| pyo3::exceptions::PyValueError::new_err(format!("{tool} is not a Tool of the listing")))?
                .clone();
            let roots = if decl.is_generic() { None } else { Some(Arc::new(compile_roots(py, c, &decl, None)?)) };
            tools.push(Served { decl, roots });
            served_entries.push(ServedEntry { tool, fingerprint, signature });
        }
        let core = ServerCore::new(listing, served_entries).map_err(|e| decode_error(py, &e))?;
        let kind = if mcp { FrontKind::Mcp } else { FrontKind::Flow };
        let core = front_for(core, kind).map_err(|e| decode_error(py, &e))?;
        let out: Box<dyn Write + Send> = match out_fd {
            Some(fd) => protocol_output(fd)?,
            None => Box::new(std::io::stdout()),
        };
        let shared = Arc::new(Shared {
            core: Mutex::new(core),
            in_flight: InFlight::new(DEFAULT_IN_FLIGHT),
            outbox: Outbox::new(out),
            codec,
            tools,
        });
        Ok(Server { shared, reader: Mutex::new(None), pool: Mutex::new(None) })
    }

    /// Starts the reader thread and the pool of plain handlers' threads.
    /// `run(call, args)` runs one plain handler (args a list, in parameter
    /// order) on a pool thread, at most `max_workers` at once; the Tools
    /// whose `is_async` is true go instead to `dispatch(batch)`, a list of
    /// `(call, args)`, which starts them on asyncio; `cancel(call)` is told
    /// of a cancel of such a call; `done()` is called once stdin has ended.
    #[pyo3(signature = (run, dispatch, cancel, done, *, is_async, max_workers))]
    fn start(
        &self,
        run: Py<PyAny>,
        dispatch: Py<PyAny>,
        cancel: Py<PyAny>,
        done: Py<PyAny>,
        is_async: Vec<bool>,
        max_workers: usize,
    ) -> PyResult<()> {
        if is_async.len() != self.shared.tools.len() {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{} Tools are served but is_async has {} entries",
                self.shared.tools.len(),
                is_async.len()
            )));
        }
        if max_workers == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err("max_workers must be greater than 0"));
        }
        let cannot = |what: &str, e: std::io::Error| {
            pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start the {what}: {e}"))
        };
        let pool = Pool::start(self.shared.clone(), run, max_workers).map_err(|e| cannot("handler pool", e))?;
        *lock(&self.pool) = Some(pool.clone());
        let shared = self.shared.clone();
        let handle = std::thread::Builder::new()
            .name("flow-tool-reader".into())
            .spawn(move || read(shared, pool, is_async, dispatch, cancel, done))
            .map_err(|e| cannot("reader", e))?;
        *lock(&self.reader) = Some(handle);
        Ok(())
    }

    /// Waits for the reader thread to end (after it has called `done`), then
    /// for every plain handler queued or running to reply. The interpreter
    /// must not finalize while those threads still hold the GIL.
    fn join(&self, py: Python<'_>) {
        let reader = lock(&self.reader).take();
        let pool = lock(&self.pool).take();
        py.detach(move || {
            if let Some(handle) = reader {
                let _ = handle.join();
            }
            if let Some(pool) = pool {
                pool.stop();
            }
        });
    }
}

/// Which protocol a Tool process with these arguments (the program name
/// left out) speaks: `"flow"` with none, `"mcp"` with `--mcp`. Anything
/// else raises ValueError holding the usage.
#[pyfunction]
fn front_kind(args: Vec<String>) -> PyResult<&'static str> {
    match FrontKind::from_args(&args) {
        Ok(FrontKind::Flow) => Ok("flow"),
        Ok(FrontKind::Mcp) => Ok("mcp"),
        Err(usage) => Err(pyo3::exceptions::PyValueError::new_err(usage)),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Server>()?;
    m.add_class::<Call>()?;
    m.add_class::<ContextOrder>()?;
    m.add_function(wrap_pyfunction!(front_kind, m)?)?;
    Ok(())
}
