//! The Tool server runtime for JavaScript handlers: flow-core's sans-IO
//! [`ServerCore`] driven from Node (`protocol/src/lib.rs` describes the
//! design every toolkit shares), behind the [`Front`] the process's command
//! line names: the Flow Tool process protocol, or MCP with `--mcp`. Calls
//! start and end the same way behind either, so nothing below depends on
//! which.
//!
//! ```text
//!  stdin ─► reader thread ─► ServerCore::receive ─┬─► Write: the line, whole, to the protocol's stdout
//!           (Rust, blocking)                      ├─► Start/Cancel ─► event queue ─► JS: run the
//!                                                 │   (a threadsafe-function      async handler,
//!                                                 │    wake when it was empty)    abort its signal
//!  JS handler settles ─► Server.finish (JS thread) ─► ServerCore::finish ─► unwritten replies
//!  JS thread done with what it was given ─► Server.flush ─► one write of them all
//! ```
//!
//! Per call, the costs that do not grow with its values are kept off the
//! path: a burst of calls wakes the JS thread once, the call's context is
//! made in JavaScript, a generic call's views are made only when read, and
//! the replies of one turn of the event loop leave in one `write`.
//!
//! Everything that is a rule (decoding args before author code, NotRun,
//! re-sent pairs, checking results, Unknown) is the core's. Here: IO, ids,
//! and converting values. Stdout belongs to the protocol: at `start` the
//! process's fd 1 is pointed at stderr, so `console.log` in a handler cannot
//! corrupt the stream, and replies go to a duplicate of the original fd 1.

use std::collections::HashMap;
use std::ffi::c_void;
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::ptr;
use std::sync::{Arc, Mutex, MutexGuard};

use flow_core::error::{Error, Rule};
use flow_core::fingerprint::fingerprint;
use flow_core::json::Json;
use flow_core::plan::Plan;
use flow_core::types::parse::listing_from_text;
use flow_core::types::{call_view_to_json, term_to_json, Listing};
use flow_core::Limits;
use flow_mcp::front::front_for;
use flow_protocol::{
    CallKey, CallTypes, Event, Front, FrontKind, GenericCall, HandlerResult, InFlight, LineReader, ServedEntry,
    ServerCore, StartedCall, DEFAULT_IN_FLIGHT,
};
use napi::bindgen_prelude::ToNapiValue;
use napi::{sys, Env, Result, Status};
use napi_derive::napi;

use crate::classes::{throw_flow, Classes};
use crate::from_js::{Fault, FromJs};
use crate::generic::{js_to_json, json_to_js};
use crate::js::{check, In, Js, Kind, Out, Raw};
use crate::text::input_bytes;
use crate::to_js::ToJs;
use crate::types::Codec;

struct CallState {
    key: CallKey,
    tool: usize,
    types: Arc<CallTypes>,
    generic: bool,
}

#[derive(Default)]
struct Calls {
    next: u32,
    by_id: HashMap<u32, CallState>,
    by_key: HashMap<CallKey, u32>,
}

struct Shared {
    core: Mutex<Box<dyn Front>>,
    /// At most this many calls (and bytes of their lines) started and not
    /// replied to: a call past it is answered NotRun at once, so the reader
    /// reads on and a cancel always reaches its call.
    in_flight: InFlight,
    /// The protocol's stdout (a duplicate of the original fd 1).
    out: Mutex<Option<File>>,
    calls: Mutex<Calls>,
    listing: Arc<Listing>,
    /// Events the reader thread has queued for the JS thread. The reader
    /// wakes the JS thread (one threadsafe-function call) only when it
    /// queues into an empty queue; the JS thread then takes every event
    /// queued, so a burst of calls costs one wake-up, not one each.
    events: Mutex<Vec<JsEvent>>,
    /// Replies finished on the JS thread and not yet written: `flush` (run
    /// by `lib/serve.js` once the JS thread has finished what it was given)
    /// writes them in one `write`, rather than one syscall per reply.
    replies: Mutex<Vec<u8>>,
    /// Per Tool, the handle of the last generic call's views given to
    /// JavaScript (see `shared_generic_handle`). Used on the JS thread only.
    generic_handles: Mutex<Vec<Option<GenericHandle>>>,
}

/// A generic call's views held for JavaScript: a strong reference to the
/// tagged external and the views it owns (alive while the reference is).
struct GenericHandle {
    reference: sys::napi_ref,
    call: *const GenericCall,
}

// SAFETY: made, read and deleted on the JS thread only (in `deliver`); the
// Mutex around it is for the compiler, never contended.
unsafe impl Send for GenericHandle {}

/// Past this many unwritten reply bytes, `finish` writes them at once.
const REPLIES_KEPT: usize = 1 << 20;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding these is a bug here; serving on beats dying.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// Ends call `id` NotRun if its start still waits for the JS thread (a
    /// cancel came first: its handler never runs); false when JavaScript
    /// has it already.
    fn unqueue(&self, id: u32) -> bool {
        let waiting = {
            let mut events = lock(&self.events);
            let Some(at) = events.iter().position(|e| matches!(e, JsEvent::Start { id: i, .. } if *i == id)) else {
                return false;
            };
            events.remove(at)
        };
        drop(waiting);
        let Some(state) = ({
            let mut calls = lock(&self.calls);
            let state = calls.by_id.remove(&id);
            if let Some(state) = &state {
                calls.by_key.remove(&state.key);
            }
            state
        }) else {
            return true;
        };
        let reason = "cancelled before it started: it was waiting for the event loop".to_owned();
        let lines = lock(&self.core).finish(&state.key, HandlerResult::NotRun(reason));
        self.write(&lines.concat());
        true
    }

    /// Writes whole lines. A pipe left non-blocking by someone else is
    /// waited on, never given half a line.
    fn write(&self, lines: &str) {
        self.write_bytes(lines.as_bytes());
    }

    fn write_bytes(&self, mut bytes: &[u8]) {
        let mut out = lock(&self.out);
        let Some(file) = out.as_mut() else { return };
        while !bytes.is_empty() {
            match file.write(bytes) {
                Ok(0) => break,
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => wait_writable(file),
                Err(_) => {
                    eprintln!("flow tool: could not write a reply: the host is gone");
                    return;
                }
            }
        }
    }
}

fn wait_writable(file: &File) {
    use std::os::fd::AsRawFd;
    let mut poll = libc::pollfd { fd: file.as_raw_fd(), events: libc::POLLOUT, revents: 0 };
    unsafe { libc::poll(&mut poll, 1, 1000) };
}

enum JsEvent {
    Start { id: u32, call: Box<StartedCall> },
    Cancel { id: u32 },
    End,
}

const START: f64 = 0.0;
const CANCEL: f64 = 1.0;
const END: f64 = 2.0;

/// A threadsafe function handle, sent to the reader thread.
struct Tsfn(sys::napi_threadsafe_function);
unsafe impl Send for Tsfn {}

impl Tsfn {
    /// Queues `event` for the JS thread, waking it if the queue was empty.
    /// When Node is shutting down the wake fails: nobody is left to run a
    /// handler, and the queue is dropped with `Shared`.
    fn send(&self, shared: &Shared, event: JsEvent) {
        let wake = {
            let mut events = lock(&shared.events);
            events.push(event);
            events.len() == 1
        };
        if wake {
            unsafe {
                sys::napi_call_threadsafe_function(self.0, ptr::null_mut(), sys::ThreadsafeFunctionCallMode::blocking)
            };
        }
    }
}

impl Drop for Tsfn {
    fn drop(&mut self) {
        unsafe { sys::napi_release_threadsafe_function(self.0, sys::ThreadsafeFunctionReleaseMode::release) };
    }
}

/// Serves the Tools of generated metadata over the process's stdin and
/// stdout. Used by `serve()` in `lib/serve.js`; not for direct use.
#[napi]
pub struct Server {
    shared: Arc<Shared>,
    started: bool,
}

#[napi]
impl Server {
    /// `listing` is the tools listing's text; `tools` the JSON text of the
    /// served entries `[{tool, fingerprint, signature}]` embedded at
    /// generation time. An entry whose fingerprint is not the listing's own
    /// (a hand-edited or stale metadata file) is refused. `args` are the
    /// process's arguments: none speaks the Flow protocol, `--mcp` serves MCP
    /// clients, anything else is refused with the usage (an error whose
    /// `code` is `InvalidArg`).
    #[napi(constructor, ts_args_type = "listing: string, tools: string, args: string[]")]
    pub fn new(env: Env, listing: In, tools: In, args: Vec<String>) -> Result<Server> {
        let js = Js::new(env.raw());
        // SAFETY: the bytes are read, and dropped, before any JavaScript value is made or runs.
        let listing_bytes = unsafe { input_bytes(js, listing.0) }.map_err(|f| f.throw(js))?;
        let listing = listing_from_text(&listing_bytes, &Limits::default());
        // Borrowed bytes end before any JavaScript value is made.
        drop(listing_bytes);
        let listing = listing.map_err(|e| throw_flow(js, &e))?;
        // SAFETY: the bytes are read, and dropped, before any JavaScript value is made or runs.
        let tools_bytes = unsafe { input_bytes(js, tools.0) }.map_err(|f| f.throw(js))?;
        let tools = flow_core::json::parse(&tools_bytes, &Limits::default());
        drop(tools_bytes);
        let tools = tools.map_err(|e| throw_flow(js, &e))?;
        let entries = served_entries(&tools, &listing).map_err(|e| throw_flow(js, &e))?;
        let core = ServerCore::new(&listing, entries).map_err(|e| throw_flow(js, &e))?;
        let kind = FrontKind::from_args(&args).map_err(|usage| napi::Error::new(Status::InvalidArg, usage))?;
        let front = front_for(core, kind).map_err(|e| throw_flow(js, &e))?;
        Ok(Server {
            shared: Arc::new(Shared {
                core: Mutex::new(front),
                in_flight: InFlight::new(DEFAULT_IN_FLIGHT),
                out: Mutex::new(None),
                calls: Mutex::new(Calls::default()),
                listing: Arc::new(listing),
                events: Mutex::new(Vec::new()),
                replies: Mutex::new(Vec::new()),
                generic_handles: Mutex::new(Vec::new()),
            }),
            started: false,
        })
    }

    /// The identities served, in the order handlers are given.
    #[napi(getter)]
    pub fn tools(&self) -> Vec<String> {
        lock(&self.shared.core).core().identities().map(str::to_owned).collect()
    }

    /// Starts reading stdin on a thread of its own; `onEvent(kind, id, tool,
    /// args, run, call, generic)` is called on the JS thread with kind 0
    /// (start a call: its run and call ids, and for a generic call the
    /// handle `genericContext` takes, else undefined), 1 (cancel call `id`)
    /// or 2 (stdin ended: no more calls will come). Replies are written
    /// when `flush` is called.
    #[napi(
        ts_args_type = "onEvent: (kind: number, id: number, tool: number, args: unknown[], run: string, call: string, generic: unknown) => void"
    )]
    pub fn start(&mut self, env: Env, on_event: In) -> Result<()> {
        let js = Js::new(env.raw());
        if self.started {
            return Err(napi::Error::new(Status::GenericFailure, "the server is already started".to_owned()));
        }
        if js.kind(on_event.0)? != Kind::Function {
            return Err(napi::Error::new(Status::InvalidArg, "onEvent must be a function".to_owned()));
        }
        let out = take_stdout()?;
        *lock(&self.shared.out) = Some(out);
        self.started = true;

        let context = Arc::into_raw(self.shared.clone()) as *mut c_void;
        let name = js.string("flow-tool-server")?;
        let mut tsfn = ptr::null_mut();
        check(
            unsafe {
                sys::napi_create_threadsafe_function(
                    js.env,
                    on_event.0,
                    ptr::null_mut(),
                    name,
                    0,
                    1,
                    context,
                    Some(finalize),
                    context,
                    Some(call_js),
                    &mut tsfn,
                )
            },
            "threadsafe function",
        )?;
        let tsfn = Tsfn(tsfn);
        let shared = self.shared.clone();
        std::thread::Builder::new()
            .name("flow-tool-reader".to_owned())
            .spawn(move || read(&shared, tsfn))
            .map_err(|e| napi::Error::new(Status::GenericFailure, format!("could not start the reader thread: {e}")))?;
        Ok(())
    }

    /// Ends call `id`: kind 0 with its result, 1 with its declared error,
    /// 2 with a description of what else stopped the handler (Unknown), 3
    /// with a value the handler threw: Failed when it is of the declared
    /// error type, else Unknown.
    #[napi(ts_args_type = "id: number, kind: number, value: unknown")]
    pub fn finish(&self, env: Env, id: u32, kind: u32, value: In) -> Result<()> {
        let js = Js::new(env.raw());
        let state = {
            let mut calls = lock(&self.shared.calls);
            let Some(state) = calls.by_id.remove(&id) else { return Ok(()) };
            calls.by_key.remove(&state.key);
            state
        };
        let result = match kind {
            0 | 1 | 3 => {
                let (what, failed) = match kind {
                    0 => ("result", false),
                    1 => ("declared error", true),
                    _ => ("thrown value", true),
                };
                match self.convert(js, &state, value.0, failed) {
                    Ok(result) => result,
                    Err(Fault::Flow(e)) => {
                        let why = if kind == 3 {
                            format!("it threw a value that is not of the declared error type: {e}")
                        } else {
                            format!("its {what} is not of the declared type: {e}")
                        };
                        eprintln!("flow tool: {} {}: {why}", state_tool(&self.shared, &state), state.key);
                        HandlerResult::Error(why)
                    }
                    Err(Fault::Napi(e)) => HandlerResult::Error(format!("its {what} could not be read: {e}")),
                }
            }
            _ => {
                let text =
                    if js.kind(value.0)? == Kind::String { js.get_string(value.0)? } else { "it threw".to_owned() };
                HandlerResult::Error(text)
            }
        };
        let lines = lock(&self.shared.core).finish(&state.key, result);
        let full = {
            let mut replies = lock(&self.shared.replies);
            for line in lines {
                replies.extend_from_slice(line.as_bytes());
            }
            replies.len() >= REPLIES_KEPT
        };
        if full {
            self.flush();
        }
        Ok(())
    }

    /// Writes every finished reply not written yet, in one `write` when the
    /// pipe takes it.
    #[napi]
    pub fn flush(&self) {
        let replies = std::mem::take(&mut *lock(&self.shared.replies));
        if !replies.is_empty() {
            self.shared.write_bytes(&replies);
            // The room is kept for the next replies, up to a bound.
            let mut kept = lock(&self.shared.replies);
            if kept.is_empty() && replies.capacity() <= REPLIES_KEPT * 2 {
                let mut replies = replies;
                replies.clear();
                *kept = replies;
            }
        }
    }

    /// A generic call's `types`, `schema` and `codecs` (host-boundary.md,
    /// "Toolkits"), from the handle `onEvent` gave with the call: built
    /// when its handler first reads one, so a handler that reads none does
    /// not pay for them.
    #[napi(ts_args_type = "handle: unknown", ts_return_type = "Record<string, unknown>")]
    pub fn generic_context(&self, env: Env, handle: In) -> Result<Out> {
        let js = Js::new(env.raw());
        let mut tagged = false;
        if js.kind(handle.0)? == Kind::External {
            check(unsafe { sys::napi_check_object_type_tag(js.env, handle.0, &GENERIC_TAG, &mut tagged) }, "type tag")?;
        }
        if !tagged {
            return Err(napi::Error::new(Status::InvalidArg, "not a generic call's handle".to_owned()));
        }
        let mut data = ptr::null_mut();
        check(unsafe { sys::napi_get_value_external(js.env, handle.0, &mut data) }, "external")?;
        // SAFETY: tagged externals are made only by `generic_handle`, which
        // gives them a boxed GenericCall that lives as long as they do.
        let generic = unsafe { &*(data as *const GenericCall) };
        let mut to = ToJs::new(js, Classes::get(js)?)?;
        let context = js.object()?;
        generic_context(js, &mut to, context, generic)?;
        Ok(Out(context))
    }

    /// The `describe` result this server answers.
    #[napi(ts_return_type = "JsonValue")]
    pub fn describe(&self, env: Env) -> Result<Out> {
        let js = Js::new(env.raw());
        let json = lock(&self.shared.core).core().describe_result().clone();
        Ok(Out(ToJs::new(js, Classes::get(js)?)?.json(&json)?))
    }
}

impl Server {
    fn convert(
        &self,
        js: Js,
        state: &CallState,
        value: Raw,
        failed: bool,
    ) -> std::result::Result<HandlerResult, Fault> {
        let classes = Classes::get(js)?;
        if state.generic {
            let decl = &self.shared.listing.tools[state.tool];
            let term = if failed { &decl.err } else { &decl.ok };
            let plan = Plan::new();
            let mut from = FromJs::new(js, classes, &plan, Limits::default())?;
            let json = js_to_json(&mut from, value, term, &self.shared.listing.declarations)?;
            return Ok(if failed { HandlerResult::FailedJson(json) } else { HandlerResult::OkJson(json) });
        }
        let types = &state.types;
        let mut from = FromJs::new(js, classes, &types.plan, Limits::default())?;
        let v = from.value(value, if failed { types.err } else { types.ok })?;
        Ok(if failed { HandlerResult::Failed(v) } else { HandlerResult::Ok(v) })
    }
}

fn state_tool(shared: &Shared, state: &CallState) -> String {
    shared.listing.tools[state.tool].tool.clone()
}

/// The embedded entries, each checked against the listing's own fingerprint.
fn served_entries(tools: &Json, listing: &Listing) -> flow_core::Result<Vec<ServedEntry>> {
    let items = tools.as_array().ok_or_else(|| Error::new(Rule::Shape, "expected an array of served Tools"))?;
    let mut entries = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let at = |e: Error| e.under_index(i);
        let member = |k: &str| item.as_object().and_then(|o| o.get(k));
        let text = |k: &str| {
            member(k)
                .and_then(Json::as_str)
                .map(str::to_owned)
                .ok_or_else(|| at(Error::new(Rule::Shape, format!("missing {k}"))))
        };
        let tool = text("tool")?;
        let claimed = text("fingerprint")?;
        let signature = member("signature").cloned().ok_or_else(|| at(Error::new(Rule::Shape, "missing signature")))?;
        let decl = listing
            .tool(&tool)
            .ok_or_else(|| at(Error::new(Rule::Unresolved, format!("{tool} is not a Tool of the listing"))))?;
        let actual = fingerprint(decl, &listing.declarations).map_err(at)?;
        if actual != claimed {
            return Err(at(Error::new(
                Rule::ViewMismatch,
                format!("{tool}: the embedded fingerprint {claimed} is not the listing's {actual}; generate the package again"),
            ))
            .under_key("fingerprint"));
        }
        entries.push(ServedEntry { tool, fingerprint: claimed, signature });
    }
    Ok(entries)
}

/// Takes the process's stdout for the protocol and points fd 1 at stderr.
fn take_stdout() -> Result<File> {
    let fail = |what: &str| napi::Error::new(Status::GenericFailure, format!("{what}: {}", io::Error::last_os_error()));
    let protocol = unsafe { libc::dup(1) };
    if protocol < 0 {
        return Err(fail("could not duplicate stdout"));
    }
    if unsafe { libc::dup2(2, 1) } < 0 {
        return Err(fail("could not point stdout at stderr"));
    }
    for fd in [protocol, 0] {
        // libuv may have made these non-blocking for process.stdout/stdin;
        // the reader thread and whole-line writes want blocking IO.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
    }
    Ok(unsafe { File::from_raw_fd(protocol) })
}

fn read(shared: &Arc<Shared>, tsfn: Tsfn) {
    let limit = lock(&shared.core).limits().max_bytes;
    // fd 0 stays open: it is the process's, not this thread's.
    let stdin = ManuallyDrop::new(unsafe { File::from_raw_fd(0) });
    let mut reader = LineReader::new(BufReader::with_capacity(1 << 16, &*stdin), limit);
    loop {
        let frame = match reader.next_frame() {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e) => {
                eprintln!("flow tool: stopped reading stdin: {e}");
                break;
            }
        };
        let events = shared.in_flight.receive(&shared.core, frame);
        for event in events {
            match event {
                Event::Write(line) => shared.write(&line),
                Event::Log(text) => eprintln!("flow tool: {text}"),
                Event::Start(call) => {
                    let id = {
                        let mut calls = lock(&shared.calls);
                        calls.next = calls.next.wrapping_add(1);
                        let id = calls.next;
                        calls.by_key.insert(call.key.clone(), id);
                        calls.by_id.insert(
                            id,
                            CallState {
                                key: call.key.clone(),
                                tool: call.tool,
                                types: call.types.clone(),
                                generic: call.generic.is_some(),
                            },
                        );
                        id
                    };
                    tsfn.send(shared, JsEvent::Start { id, call });
                }
                Event::Cancel(key) => {
                    let id = lock(&shared.calls).by_key.get(&key).copied();
                    if let Some(id) = id {
                        if !shared.unqueue(id) {
                            tsfn.send(shared, JsEvent::Cancel { id });
                        }
                    }
                }
            }
        }
    }
    tsfn.send(shared, JsEvent::End);
    // Dropping the handle releases the threadsafe function: once its queue
    // is delivered, it no longer keeps Node's event loop alive.
}

unsafe extern "C" fn finalize(_env: sys::napi_env, data: *mut c_void, _hint: *mut c_void) {
    drop(Arc::from_raw(data as *const Shared));
}

unsafe extern "C" fn call_js(env: sys::napi_env, callback: Raw, context: *mut c_void, _data: *mut c_void) {
    if env.is_null() || callback.is_null() {
        return;
    }
    let shared = &*(context as *const Shared);
    let js = Js::new(env);
    // Every event queued since the last wake-up, in order; the value
    // converter is made once for them all, when the first call needs it.
    let events = std::mem::take(&mut *lock(&shared.events));
    let mut to = None;
    for event in events {
        if let Err(e) = deliver(js, callback, shared, &mut to, event) {
            if e.status != Status::PendingException {
                eprintln!("flow tool: could not hand a call to JavaScript: {e}");
            }
        }
    }
}

/// Calls `onEvent` with one event. A call's context is built in
/// JavaScript from its run and call ids (cheaper there than property by
/// property through Node-API); a generic call's types, schema and codecs
/// are built only when its handler first reads one (see `genericContext`).
fn deliver(js: Js, callback: Raw, shared: &Shared, to: &mut Option<ToJs>, event: JsEvent) -> Result<()> {
    let undefined = js.undefined()?;
    let args = match event {
        JsEvent::End => vec![js.number(END)?],
        JsEvent::Cancel { id } => vec![js.number(CANCEL)?, js.number(id as f64)?],
        JsEvent::Start { id, call } => {
            let to = match to {
                Some(to) => to,
                None => to.insert(ToJs::new(js, Classes::get(js)?)?),
            };
            let StartedCall { key, tool, args, generic, .. } = *call;
            let (args, generic) = match generic {
                None => {
                    let array = js.array(args.len())?;
                    for (i, arg) in args.iter().enumerate() {
                        let v = to.value(arg)?;
                        js.set_index(array, i, v)?;
                    }
                    (array, undefined)
                }
                Some(generic) => {
                    let decl = &shared.listing.tools[tool];
                    let array = js.array(generic.args_json.len())?;
                    for (i, (json, param)) in generic.args_json.iter().zip(&decl.params).enumerate() {
                        let v = json_to_js(to, js, json, &param.ty, &shared.listing.declarations)?;
                        js.set_index(array, i, v)?;
                    }
                    (array, shared_generic_handle(js, shared, tool, generic)?)
                }
            };
            vec![
                js.number(START)?,
                js.number(id as f64)?,
                js.number(tool as f64)?,
                args,
                js.string(&key.run)?,
                js.string(&key.call)?,
                generic,
            ]
        }
    };
    js.call(callback, undefined, &args)?;
    Ok(())
}

/// Marks the externals that hold a generic call's views, so that
/// `genericContext` never reads another module's external as one.
static GENERIC_TAG: sys::napi_type_tag =
    sys::napi_type_tag { lower: 0x666c_6f77_2d67_656e, upper: 0x6572_6963_2d63_616c };

/// The handle of a generic call's views. Calls of one Tool mostly carry
/// the same views (under MCP always: a generic tool's arguments are JSON),
/// so the last handle made for the Tool is given again when the views are
/// equal: one external and one finalizer per distinct views, not per call.
fn shared_generic_handle(js: Js, shared: &Shared, tool: usize, mut generic: GenericCall) -> Result<Raw> {
    let mut handles = lock(&shared.generic_handles);
    if let Some(held) = handles.get(tool).and_then(Option::as_ref) {
        // SAFETY: `held.reference` is strong, so its external, which owns
        // this GenericCall, is alive.
        let last = unsafe { &*held.call };
        if last.view == generic.view && last.schema == generic.schema {
            return js.deref(held.reference);
        }
    }
    // The args already crossed as the call's arguments; the handle keeps
    // only what `genericContext` reads.
    generic.args_json = Vec::new();
    let boxed = Box::new(generic);
    let call: *const GenericCall = &*boxed;
    let handle = generic_handle(js, boxed)?;
    let reference = js.reference(handle)?;
    if handles.len() <= tool {
        handles.resize_with(tool + 1, || None);
    }
    if let Some(old) = handles[tool].replace(GenericHandle { reference, call }) {
        // The contexts still holding the old handle keep it alive.
        unsafe { sys::napi_delete_reference(js.env, old.reference) };
    }
    Ok(handle)
}

/// A generic call's views, held by JavaScript until the last context and
/// the server's cache are done with them.
fn generic_handle(js: Js, generic: Box<GenericCall>) -> Result<Raw> {
    unsafe extern "C" fn drop_generic(_env: sys::napi_env, data: *mut c_void, _hint: *mut c_void) {
        drop(Box::from_raw(data as *mut GenericCall));
    }
    let data = Box::into_raw(generic) as *mut c_void;
    let mut handle = ptr::null_mut();
    let status = unsafe { sys::napi_create_external(js.env, data, Some(drop_generic), ptr::null_mut(), &mut handle) };
    if status != sys::Status::napi_ok {
        drop(unsafe { Box::from_raw(data as *mut GenericCall) });
        return check(status, "external").map(|()| handle);
    }
    check(unsafe { sys::napi_type_tag_object(js.env, handle, &GENERIC_TAG) }, "type tag")?;
    Ok(handle)
}

/// What a generic call's handler gets beside its args (`host-boundary.md`,
/// "Toolkits"): the validated types view, the success schema, each type
/// parameter's concrete term, and codecs for the concrete roots and bindings.
fn generic_context(js: Js, to: &mut ToJs, context: Raw, generic: &GenericCall) -> Result<()> {
    let view = &generic.view;
    js.set(context, js.string("types")?, to.json(&call_view_to_json(view))?)?;
    js.set(context, js.string("schema")?, to.json(&generic.schema)?)?;
    let types = &generic.types;
    let plan = Arc::new(types.plan.clone());
    let codec = |node, term: &flow_core::types::Term| -> Result<Raw> {
        let codec = Codec::from_plan(plan.clone(), node, term_to_json(term).to_canonical());
        unsafe { Codec::to_napi_value(js.env, codec) }
    };
    let params = js.array(types.params.len())?;
    for (i, (node, param)) in types.params.iter().zip(&view.params).enumerate() {
        js.set_index(params, i, codec(*node, &param.ty)?)?;
    }
    let codecs = js.object()?;
    js.set(codecs, js.string("params")?, params)?;
    js.set(codecs, js.string("ok")?, codec(types.ok, &view.ok)?)?;
    js.set(codecs, js.string("err")?, codec(types.err, &view.err)?)?;
    // A binding's codec is made whether or not values of it can cross: using
    // one that cannot throws then, and a call that never needs it runs.
    let bindings = js.object()?;
    for (name, term) in &view.bindings {
        let Ok((plan, node)) = Plan::compile(&view.declarations, term) else { continue };
        let codec = Codec::from_plan(Arc::new(plan), node, term_to_json(term).to_canonical());
        let value = unsafe { Codec::to_napi_value(js.env, codec)? };
        js.set_member(bindings, js.string(name)?, name, value)?;
    }
    js.set(codecs, js.string("bindings")?, bindings)?;
    js.set(context, js.string("codecs")?, codecs)?;
    Ok(())
}
