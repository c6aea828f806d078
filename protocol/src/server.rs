//! The server core every toolkit serves through: sans-IO, so the Rust stdio
//! driver, the Python binding and the Node binding drive the same rules.
//!
//! The core owns everything that is a rule of the protocol:
//! - framing and message rules (through [`super::message`]);
//! - `describe`, from metadata generated with the Tool (identity, fingerprint,
//!   describe-form signature) and the listing's declarations;
//! - decoding `args` at the declared types *before* any author code runs, and
//!   for a generic Tool validating its `types` and `schema` views first: every
//!   refusal is NotRun, with a reason naming the path and the rule;
//! - bookkeeping of (run, call) pairs: a pair running is not started again,
//!   and its one reply goes out when it ends; a pair finished gets the same
//!   reply line again, from a bounded memory (oldest forgotten first);
//! - cancellation tokens;
//! - encoding results: a handler's value is checked at the declared type and
//!   anything else the handler does (an error, a panic, a value of another
//!   type, a reply over the size limit) is Unknown.
//!
//! What it leaves to its driver is IO and running handlers: `receive` takes a
//! line and returns [`Event`]s (lines to write, calls to start, cancels to
//! deliver, things to log); when a started call's handler returns, the driver
//! calls `finish` and writes the lines it gets back.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use flow_core::check::check;
use flow_core::decode::from_json;
use flow_core::error::{Error, Path, Result, Rule};
use flow_core::fingerprint::describe_entry;
use flow_core::json::{Json, Object};
use flow_core::limits::Limits;
use flow_core::plan::{NodeId, Plan};
use flow_core::schema::check_call_schema;
use flow_core::types::parse::{call_view_from_json, DATA_VERSION};
use flow_core::types::{check_call_view, CallView, Listing, Param, ToolDecl, TypeSpec};
use flow_core::value::Value;

use super::args as call_args;
use super::call_fast;
use super::cancel::CancelToken;
use super::framing::Frame;
use super::message::{
    self, write_error, write_reply, write_result, write_text_reply, write_value_reply, CallKey, CallMessage, Incoming,
};
use super::outcome::Outcome;
use super::outgoing::past_limit;
use super::pair_hash::PairHashes;

/// How many finished pairs a server remembers by default.
pub const DEFAULT_MEMORY: usize = 4096;

/// The largest capacity a reply line starts with (the last line's length,
/// up to this).
const REPLY_CAPACITY_MAX: usize = 64 << 10;

/// One served Tool as generated code embeds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedEntry {
    /// The declaration's identity.
    pub tool: String,
    /// The Tool's fingerprint, which the host binds by.
    pub fingerprint: String,
    /// The describe-form signature.
    pub signature: Json,
}

/// The compiled declared types of one call: parameters in declaration order,
/// then ok and err. Shared by every call of a nongeneric Tool; built per call
/// for a generic one, from its concrete view.
#[derive(Debug, Clone)]
pub struct CallTypes {
    /// The compiled graph the nodes below index.
    pub plan: Plan,
    /// The node of each parameter, in declaration order.
    pub params: Vec<NodeId>,
    /// The node of the success type.
    pub ok: NodeId,
    /// The node of the error type.
    pub err: NodeId,
}

impl CallTypes {
    /// Compiles `params`, `ok` and `err` over `declarations`.
    pub fn compile(
        declarations: &flow_core::types::Declarations,
        params: &[Param],
        ok: &flow_core::types::Term,
        err: &flow_core::types::Term,
    ) -> Result<CallTypes> {
        let mut plan = Plan::new();
        let params = params.iter().map(|p| plan.add(declarations, &p.ty)).collect::<Result<Vec<_>>>()?;
        let ok = plan.add(declarations, ok)?;
        let err = plan.add(declarations, err)?;
        Ok(CallTypes { plan, params, ok, err })
    }

    /// Decodes a JSON value at the declared success type: how a handler that
    /// holds JSON (a generic Tool's `T`) builds its result.
    pub fn decode_ok(&self, json: Json) -> Result<Value> {
        from_json(json, &self.plan, self.ok)
    }

    /// Decodes a JSON value at the declared error type, as [`CallTypes::decode_ok`] does for success.
    pub fn decode_err(&self, json: Json) -> Result<Value> {
        from_json(json, &self.plan, self.err)
    }
}

/// What a generic call's handler gets beyond its args: the validated view, the
/// success schema, and the compiled concrete roots.
#[derive(Debug, Clone)]
pub struct GenericCall {
    /// The call's concrete types view, validated against the served Tool.
    pub view: CallView,
    /// The describe-form schema of the concrete success type.
    pub schema: Json,
    /// The concrete types compiled.
    pub types: Arc<CallTypes>,
    /// The args as canonical JSON, in parameter order: values of a type
    /// parameter reach the author as JSON.
    pub args_json: Vec<Json>,
}

/// A call whose args decoded: the driver runs its handler.
#[derive(Debug, Clone)]
pub struct StartedCall {
    /// The call's correlation key.
    pub key: CallKey,
    /// The Tool's index in the served entries.
    pub tool: usize,
    /// The identity of the Tool called.
    pub identity: Arc<str>,
    /// Args in parameter order, decoded at the declared (for a generic call,
    /// the view's concrete) types; empty when `undecoded` holds them.
    pub args: Vec<Value>,
    /// The args object as read, for a Tool whose handler decodes its own
    /// args ([`ServerCore::handlers_decode_args`]); `None` otherwise.
    pub undecoded: Option<Object>,
    /// The concrete views when the Tool is generic, `None` otherwise.
    pub generic: Option<GenericCall>,
    /// Set when the host cancels the call.
    pub cancel: CancelToken,
    /// The declared types of this call.
    pub types: Arc<CallTypes>,
}

/// What the driver does next.
#[derive(Debug)]
pub enum Event {
    /// Write this line (it ends in `\n`).
    Write(String),
    /// Run the handler of this call, then call [`ServerCore::finish`].
    Start(Box<StartedCall>),
    /// A cancel reached this running call; its token is already set.
    Cancel(CallKey),
    /// Something to tell a person on stderr.
    Log(String),
}

/// What a handler returned.
#[derive(Debug, Clone)]
pub enum HandlerResult {
    /// The declared success value.
    Ok(Value),
    /// The declared error value.
    Failed(Value),
    /// A success value held as JSON, decoded at the declared type.
    OkJson(Json),
    /// The canonical text of a declared success value, written by a typed
    /// writer whose Rust type is the declared type (`flow_runtime::codec::CanonicalText`
    /// of a generated Tool, `flow_runtime::Call::reply_direct`): put in
    /// the reply as is, under the outgoing limits, with no check of its own.
    OkText(String),
    /// The canonical text of a declared error value, as [`HandlerResult::OkText`].
    FailedText(String),
    /// An error value held as JSON, decoded at the declared type.
    FailedJson(Json),
    /// The author's code stopped some other way: answered Unknown, since what
    /// it did before it stopped is not known.
    Error(String),
    /// The author's code never ran: a toolkit whose own conversion of the
    /// decoded args refused them before calling it (a toolkit bug, or a
    /// generated package older than its runtime) knows the call did not
    /// happen, and says so rather than Unknown.
    NotRun(String),
    /// The call may or may not have happened, and the handler knows why in
    /// words of its own: an adapter whose backend's answer it cannot map, or
    /// whose call was cancelled with no answer. The reason goes out as is,
    /// without the "handler failed" of [`HandlerResult::Error`].
    Unknown(String),
}

struct ServedTool {
    decl: ToolDecl,
    identity: Arc<str>,
    /// The served TypeSpec, against which a generic call's view is checked.
    spec: TypeSpec,
    /// Compiled once for a nongeneric Tool.
    types: Option<Arc<CallTypes>>,
    /// Its handler decodes its calls' args ([`ServerCore::handlers_decode_args`]).
    own_args: bool,
}

struct Running {
    cancel: CancelToken,
    types: Arc<CallTypes>,
    /// The length of the line that started it.
    bytes: usize,
}

/// The sans-IO server.
pub struct ServerCore {
    tools: Vec<ServedTool>,
    by_identity: HashMap<String, usize>,
    describe: Json,
    limits: Limits,
    running: HashMap<CallKey, Running, PairHashes>,
    finished: HashMap<CallKey, String, PairHashes>,
    finished_order: VecDeque<CallKey>,
    memory: usize,
    /// The capacity the next reply line starts with: the last one's length.
    reply_capacity: usize,
    /// The length of the line being read: what a call it starts counts.
    line_bytes: usize,
    /// The lines of the running calls, in bytes.
    running_bytes: usize,
}

fn params_path() -> Path {
    Path::root().key("params")
}

impl ServerCore {
    /// Serves every Tool of `listing`, computing fingerprints and signatures.
    pub fn from_listing(listing: &Listing) -> Result<ServerCore> {
        let mut entries = Vec::with_capacity(listing.tools.len());
        for (i, tool) in listing.tools.iter().enumerate() {
            let entry = describe_entry(tool, &listing.declarations).map_err(|e| e.under_index(i).under_key("tools"))?;
            let get = |k: &str| entry.as_object().and_then(|o| o.get(k)).cloned().expect("describe entry member");
            entries.push(ServedEntry {
                tool: tool.tool.clone(),
                fingerprint: get("fingerprint").as_str().expect("fingerprint text").to_owned(),
                signature: get("signature"),
            });
        }
        ServerCore::new(listing, entries)
    }

    /// Serves `entries`, generated metadata, each naming a Tool of `listing`
    /// (whose declarations give the types to decode at).
    pub fn new(listing: &Listing, entries: Vec<ServedEntry>) -> Result<ServerCore> {
        let mut tools = Vec::with_capacity(entries.len());
        let mut by_identity = HashMap::new();
        let mut described = Vec::with_capacity(entries.len());
        for (i, entry) in entries.into_iter().enumerate() {
            let at = |e: Error| e.under_index(i);
            let decl = listing
                .tool(&entry.tool)
                .ok_or_else(|| {
                    at(Error::new(Rule::Unresolved, format!("{} is not a Tool of the listing", entry.tool)))
                })?
                .clone();
            let spec = TypeSpec::for_tool(listing, &entry.tool).expect("the Tool is in the listing");
            let types = if decl.is_generic() {
                None
            } else {
                Some(Arc::new(CallTypes::compile(&spec.declarations, &decl.params, &decl.ok, &decl.err).map_err(at)?))
            };
            if by_identity.insert(entry.tool.clone(), i).is_some() {
                return Err(at(Error::new(Rule::DuplicateName, format!("{} is served twice", entry.tool))));
            }
            described.push(Json::object([
                ("tool", Json::str(entry.tool.as_str())),
                ("fingerprint", Json::String(entry.fingerprint)),
                ("signature", entry.signature),
            ]));
            tools.push(ServedTool { identity: entry.tool.as_str().into(), decl, spec, types, own_args: false });
        }
        let describe = Json::object([("data", Json::str(DATA_VERSION)), ("tools", Json::Array(described))]);
        Ok(ServerCore {
            tools,
            by_identity,
            describe,
            limits: Limits::default(),
            running: HashMap::default(),
            finished: HashMap::default(),
            finished_order: VecDeque::new(),
            memory: DEFAULT_MEMORY,
            reply_capacity: 256,
            line_bytes: 0,
            running_bytes: 0,
        })
    }

    /// Changes the decoding limits (the message size limit among them).
    pub fn with_limits(mut self, limits: Limits) -> ServerCore {
        self.limits = limits;
        self
    }

    /// Leaves decoding the args of every nongeneric Tool's calls to its
    /// handler: such a call is checked as any other but for its args, and
    /// starts with the args object as read ([`StartedCall::undecoded`]). The
    /// handler must then decode them with the core's rules and paths and
    /// answer NotRun with the refusal, before the method runs, when they do
    /// not decode: what a generated Rust Tool does (`flow_runtime`), to
    /// build its Rust values without [`Value`]s between. A generic Tool's
    /// args are still decoded here, at the call's concrete types.
    pub fn handlers_decode_args(mut self) -> ServerCore {
        for tool in &mut self.tools {
            tool.own_args = tool.types.is_some();
        }
        self
    }

    /// Changes how many finished pairs are remembered (0: none).
    pub fn with_memory(mut self, memory: usize) -> ServerCore {
        self.memory = memory;
        self
    }

    /// The limits this server reads lines and values under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The served identities, by Tool index.
    pub fn identities(&self) -> impl Iterator<Item = &str> {
        self.tools.iter().map(|t| &*t.identity)
    }

    /// The `describe` result.
    pub fn describe_result(&self) -> &Json {
        &self.describe
    }

    /// How many calls are running.
    pub fn running(&self) -> usize {
        self.running.len()
    }

    /// The lengths of the lines that started the running calls, in bytes:
    /// what a driver bounds besides their count.
    pub fn running_bytes(&self) -> usize {
        self.running_bytes
    }

    /// Says how long the line being read is, for a front that reads lines
    /// itself and starts calls with [`ServerCore::start_decoded`].
    pub fn reading_line(&mut self, bytes: usize) {
        self.line_bytes = bytes;
    }

    /// Reads one line (without its `\n`).
    pub fn receive(&mut self, line: &[u8]) -> Vec<Event> {
        self.line_bytes = line.len();
        // A canonical call line is read without the envelope's tree; any
        // other line, and every refusal, is the full parser's.
        let incoming =
            call_fast::parse_call(line, &self.limits).unwrap_or_else(|| message::parse_line(line, &self.limits));
        self.handle(incoming)
    }

    /// Reads one frame from a [`super::framing::LineReader`]. A final line
    /// without its `\n` is read like any other: a person piping a message in
    /// may well leave it off.
    pub fn receive_frame(&mut self, frame: Frame) -> Vec<Event> {
        match frame {
            Frame::Line(line) | Frame::Unterminated(line) => self.receive(&line),
            Frame::TooLong { length, skim } => {
                let incoming = message::too_long(length, skim, &self.limits);
                self.handle(incoming)
            }
        }
    }

    fn handle(&mut self, incoming: Incoming) -> Vec<Event> {
        match incoming {
            Incoming::Describe { id } => vec![Event::Write(write_result(&id, &self.describe))],
            Incoming::Refuse { id, code, message } => {
                vec![
                    Event::Log(format!("answered error {code}: {message}")),
                    Event::Write(write_error(&id, code, &message)),
                ]
            }
            Incoming::Call(call) => {
                let key = call.key.clone();
                self.seen_or(key, |core| core.start(call))
            }
            Incoming::BadCall { key, reason } => self.seen_or(key, |_| Err(reason)),
            Incoming::Cancel(key) => match self.running.get(&key) {
                // Once per call: a cancel sent again changes nothing, and a
                // driver queues nothing for it.
                Some(running) if running.cancel.is_cancelled() => Vec::new(),
                Some(running) => {
                    running.cancel.cancel();
                    vec![Event::Cancel(key)]
                }
                None => vec![Event::Log(format!("ignored a cancel of {key}, which is not running"))],
            },
            Incoming::Reply(r) => vec![Event::Log(format!("ignored a reply for {} sent to a Tool process", r.key))],
            Incoming::BadReply { key, .. } => {
                vec![Event::Log(format!("ignored a reply for {key} sent to a Tool process"))]
            }
            Incoming::Response { id, .. } => {
                vec![Event::Log(format!("ignored a response (id {}) nobody asked for", id.to_canonical()))]
            }
            Incoming::Ignore(why) => vec![Event::Log(why)],
        }
    }

    /// A pair seen before is answered from memory (or left to its running
    /// handler); a new one is started, or answered NotRun with the reason.
    fn seen_or(
        &mut self,
        key: CallKey,
        start: impl FnOnce(&mut ServerCore) -> std::result::Result<StartedCall, String>,
    ) -> Vec<Event> {
        if let Some(line) = self.finished.get(&key) {
            return vec![
                Event::Log(format!("{key} was seen before: sent its outcome again")),
                Event::Write(line.clone()),
            ];
        }
        if self.running.contains_key(&key) {
            return vec![Event::Log(format!("{key} is running: its reply goes out when it ends"))];
        }
        match start(self) {
            Ok(started) => {
                self.insert_running(key, &started);
                vec![Event::Start(Box::new(started))]
            }
            Err(reason) => {
                let line = write_reply(&key, &Outcome::NotRun(reason));
                self.remember(key, &line);
                vec![Event::Write(line)]
            }
        }
    }

    /// Everything checked before author code runs.
    fn start(&self, call: CallMessage) -> std::result::Result<StartedCall, String> {
        let CallMessage { key, tool, args, schema, types } = call;
        let index = *self.by_identity.get(&tool).ok_or_else(|| {
            Error::at(params_path().key("tool"), Rule::Unresolved, format!("this process serves no Tool {tool}"))
                .to_string()
        })?;
        let served = &self.tools[index];
        let (call_types, params, generic) = match &served.types {
            Some(call_types) => {
                for (name, member) in [("schema", &schema), ("types", &types)] {
                    if member.is_some() {
                        let why = format!("a call of the nongeneric Tool {tool} carries no {name}");
                        return Err(Error::at(params_path().key(name), Rule::Shape, why).to_string());
                    }
                }
                (call_types.clone(), &served.decl.params, None)
            }
            None => {
                let (view, schema, call_types) =
                    self.generic_views(served, schema, types).map_err(|e| e.to_string())?;
                (call_types, &served.decl.params, Some((view, schema)))
            }
        };
        if served.own_args && generic.is_none() {
            return Ok(StartedCall {
                key,
                tool: index,
                identity: served.identity.clone(),
                args: Vec::new(),
                undecoded: Some(args),
                generic: None,
                cancel: CancelToken::new(),
                types: call_types,
            });
        }
        let args = decode_args(args, params, &call_types).map_err(|e| e.to_string())?;
        let generic = match generic {
            None => None,
            Some((view, schema)) => Some(GenericCall {
                view,
                schema,
                types: call_types.clone(),
                args_json: args
                    .iter()
                    .map(|v| value_json(v, &self.limits))
                    .collect::<Result<_>>()
                    .map_err(|e| e.to_string())?,
            }),
        };
        Ok(StartedCall {
            key,
            tool: index,
            identity: served.identity.clone(),
            args,
            undecoded: None,
            generic,
            cancel: CancelToken::new(),
            types: call_types,
        })
    }

    /// A generic call's `types` and `schema`, both required and non-null,
    /// validated and checked against the served TypeSpec, and its concrete
    /// roots compiled.
    fn generic_views(
        &self,
        served: &ServedTool,
        schema: Option<Json>,
        types: Option<Json>,
    ) -> Result<(CallView, Json, Arc<CallTypes>)> {
        let required = |member: Option<Json>, name: &str| match member {
            None | Some(Json::Null) => Err(Error::at(
                params_path().key(name),
                Rule::MissingField,
                format!("a call of the generic Tool {} requires {name}, not null or missing", served.identity),
            )),
            Some(json) => Ok(json),
        };
        let schema = required(schema, "schema")?;
        let types = required(types, "types")?;
        let types_path = params_path().key("types");
        let view = call_view_from_json(&types).map_err(|e| e.under_path(&types_path))?;
        check_call_view(&served.spec, &view).map_err(|e| e.under_path(&types_path))?;
        check_call_schema(&view, &schema).map_err(|e| e.under_path(&params_path().key("schema")))?;
        let call_types = CallTypes::compile(&view.declarations, &view.params, &view.ok, &view.err)
            .map_err(|e| e.under_path(&types_path))?;
        Ok((view, schema, Arc::new(call_types)))
    }

    /// The reply of a started call whose handler returned. Returns nothing for
    /// a pair that is not running (finished twice, or never started).
    pub fn finish(&mut self, key: &CallKey, result: HandlerResult) -> Vec<String> {
        // The running entry's own key is the one remembered: no copy of it.
        let Some((owned, running)) = self.running.remove_entry(key) else { return Vec::new() };
        self.running_bytes -= running.bytes;
        let mut line = match checked(result, &running.types) {
            // Written in place, into a line the size of the last one.
            Ok((tag, Body::Value(value))) => write_value_reply(key, tag, &value, self.reply_capacity),
            Ok((tag, Body::Text(text))) => write_text_reply(key, tag, &text, self.reply_capacity),
            Err(outcome) => write_reply(key, &outcome),
        };
        // The host reads the reply under the same limits: a reply it would
        // refuse is not sent, and the call is Unknown, saying which limit.
        if let Some(why) = past_limit(&line, &self.limits) {
            line = write_reply(key, &Outcome::Unknown(format!("the handler's reply could not be sent: {why}")));
        }
        self.reply_capacity = line.len().min(REPLY_CAPACITY_MAX);
        self.remember(owned, &line);
        vec![line]
    }

    /// Ends a running call: its handler's result checked at the declared
    /// type, as [`ServerCore::finish`] does, but not written or remembered.
    /// What a front that writes its own replies (MCP) builds on; `None` for a
    /// pair that is not running.
    pub fn settle(&mut self, key: &CallKey, result: HandlerResult) -> Option<Outcome> {
        let running = self.running.remove(key)?;
        self.running_bytes -= running.bytes;
        Some(encode(result, &running.types))
    }

    fn insert_running(&mut self, key: CallKey, started: &StartedCall) {
        let bytes = self.line_bytes;
        self.running_bytes += bytes;
        self.running.insert(key, Running { cancel: started.cancel.clone(), types: started.types.clone(), bytes });
    }

    /// Sets a running call's cancel token; false when it is not running.
    pub fn cancel(&self, key: &CallKey) -> bool {
        match self.running.get(key) {
            Some(running) => {
                running.cancel.cancel();
                true
            }
            None => false,
        }
    }

    /// Starts a call whose args a front decoded under its own rules (MCP's
    /// arguments, whose Option parameters may be left out): the core keeps
    /// its bookkeeping, so `cancel`, `settle` and `finish` work on it as on
    /// any call. `None` when the pair is already running. `args` must be of
    /// `types`' parameter types, and `generic` present exactly for a generic
    /// Tool: the front decoded them there.
    pub fn start_decoded(
        &mut self,
        key: CallKey,
        tool: usize,
        args: Vec<Value>,
        generic: Option<GenericCall>,
        types: Arc<CallTypes>,
    ) -> Option<StartedCall> {
        if self.running.contains_key(&key) {
            return None;
        }
        let started = StartedCall {
            key: key.clone(),
            tool,
            identity: self.tools[tool].identity.clone(),
            args,
            undecoded: None,
            generic,
            cancel: CancelToken::new(),
            types,
        };
        self.insert_running(key, &started);
        Some(started)
    }

    /// How many Tools are served.
    pub fn tool_count(&self) -> usize {
        self.tools.len()
    }

    /// A served Tool's declaration, by index.
    pub fn tool_decl(&self, tool: usize) -> &ToolDecl {
        &self.tools[tool].decl
    }

    /// A served Tool's TypeSpec, by index: what a generic call's view is
    /// checked against.
    pub fn tool_spec(&self, tool: usize) -> &TypeSpec {
        &self.tools[tool].spec
    }

    /// A nongeneric Tool's compiled types, by index (`None` for a generic one,
    /// whose types are each call's).
    pub fn tool_types(&self, tool: usize) -> Option<&Arc<CallTypes>> {
        self.tools[tool].types.as_ref()
    }

    /// Sets every running call's cancel token (for a driver shutting down).
    pub fn cancel_all(&self) {
        for running in self.running.values() {
            running.cancel.cancel();
        }
    }

    /// Remembers `line` as the reply of `key`, forgetting the oldest pair
    /// past the memory's bound. Once the memory is full, the forgotten pair's
    /// buffers take the new copies of the line and the key, so a call
    /// allocates nothing here (and frees no cold memory).
    fn remember(&mut self, key: CallKey, line: &str) {
        if self.memory == 0 {
            return;
        }
        if let Some(held) = self.finished.get_mut(&key) {
            held.clear();
            held.push_str(line);
            return;
        }
        let reused = if self.finished_order.len() >= self.memory { self.finished_order.pop_front() } else { None };
        let (order_key, text) = match reused {
            Some(mut oldest) => {
                let mut text = self.finished.remove(&oldest).unwrap_or_default();
                text.clear();
                text.push_str(line);
                oldest.run.clear();
                oldest.run.push_str(&key.run);
                oldest.call.clear();
                oldest.call.push_str(&key.call);
                (oldest, text)
            }
            None => (key.clone(), line.to_owned()),
        };
        self.finished.insert(key, text);
        self.finished_order.push_back(order_key);
        while self.finished_order.len() > self.memory {
            if let Some(oldest) = self.finished_order.pop_front() {
                self.finished.remove(&oldest);
            }
        }
    }
}

/// Args in parameter order: each present, each decoding at its type, no
/// other member. Paths are from the message root (`$.params.args.days`).
fn decode_args(mut args: Object, params: &[Param], types: &CallTypes) -> Result<Vec<Value>> {
    let mut values = Vec::with_capacity(params.len());
    for (param, &node) in params.iter().zip(&types.params) {
        let json = call_args::take(&mut args, &param.name)?;
        values.push(from_json(json, &types.plan, node).map_err(|e| call_args::under(e, &param.name))?);
    }
    call_args::no_others(&args)?;
    Ok(values)
}

/// A decoded value as canonical JSON, read back from its canonical text: it
/// nests no deeper and holds no longer numbers than the args it was decoded
/// from under `limits`, and is no longer than it in bytes but for escapes.
pub fn value_json(value: &Value, limits: &Limits) -> Result<Json> {
    let limits = Limits { max_bytes: usize::MAX, ..*limits };
    flow_core::json::parse_str(&value.to_canonical(), &limits)
}

fn encode(result: HandlerResult, types: &CallTypes) -> Outcome {
    match checked(result, types) {
        Ok(("Ok", body)) => Outcome::Ok(body.into_text()),
        Ok((_, body)) => Outcome::Failed(body.into_text()),
        Err(outcome) => outcome,
    }
}

/// The body of a checked outcome: a value, or the canonical text a typed
/// writer made of one.
enum Body {
    Value(Value),
    Text(String),
}

impl Body {
    fn into_text(self) -> String {
        match self {
            Body::Value(value) => value.to_canonical(),
            Body::Text(text) => text,
        }
    }
}

/// A handler's result checked at the declared type: `Ok` with the outcome's
/// tag (`"Ok"` or `"Failed"`) and its body, or the outcome it is instead.
fn checked(result: HandlerResult, types: &CallTypes) -> std::result::Result<(&'static str, Body), Outcome> {
    let unknown =
        |what: &str, e: Error| Outcome::Unknown(format!("the handler's {what} is not of the declared type: {e}"));
    let value = |tag: &'static str| move |v: Value| (tag, Body::Value(v));
    match result {
        HandlerResult::Ok(v) => match check(&v, &types.plan, types.ok) {
            Ok(()) => Ok(value("Ok")(v)),
            Err(e) => Err(unknown("result", e)),
        },
        HandlerResult::Failed(v) => match check(&v, &types.plan, types.err) {
            Ok(()) => Ok(value("Failed")(v)),
            Err(e) => Err(unknown("error", e)),
        },
        HandlerResult::OkJson(j) => types.decode_ok(j).map(value("Ok")).map_err(|e| unknown("result", e)),
        HandlerResult::FailedJson(j) => types.decode_err(j).map(value("Failed")).map_err(|e| unknown("error", e)),
        // Vouched for by its writer: what the check would have refused, it
        // cannot hold (`flow_runtime::codec::CanonicalText`).
        HandlerResult::OkText(text) => Ok(("Ok", Body::Text(text))),
        HandlerResult::FailedText(text) => Ok(("Failed", Body::Text(text))),
        HandlerResult::Error(why) => Err(Outcome::Unknown(format!("the handler failed: {why}"))),
        HandlerResult::NotRun(why) => Err(Outcome::NotRun(why)),
        HandlerResult::Unknown(why) => Err(Outcome::Unknown(why)),
    }
}

#[cfg(test)]
mod tests {
    //! Every message rule of the server core, against the weather listing.

    use super::*;
    use crate::message::{METHOD_NOT_FOUND, PARSE_ERROR};
    use flow_core::json::parse_str;
    use flow_core::types::parse::listing_from_text;
    use flow_core::Number;

    const WEATHER: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");
    const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
    const HISTORY: &str = "github.com/acme/weather@1.2.0/weather.flow.station_history";
    const ECHO: &str = "github.com/acme/weather@1.2.0/weather.flow.echo";

    fn core() -> ServerCore {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        ServerCore::from_listing(&listing).unwrap()
    }

    fn call_line(run: &str, call: &str, tool: &str, args: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","method":"call","params":{{"run":"{run}","call":"{call}","tool":"{tool}","args":{args}}}}}"#
        )
    }

    fn forecast(call: &str, days: &str) -> String {
        call_line("r1", call, FORECAST, &format!(r#"{{"city":"Oslo","days":{days},"units":"None"}}"#))
    }

    fn writes(events: &[Event]) -> Vec<Json> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Write(line) => {
                    assert!(line.ends_with('\n'));
                    Some(parse_str(line.trim_end(), &Limits::default()).unwrap())
                }
                _ => None,
            })
            .collect()
    }

    fn only_write(events: &[Event]) -> Json {
        let w = writes(events);
        assert_eq!(w.len(), 1, "{events:?}");
        w.into_iter().next().unwrap()
    }

    fn started(events: Vec<Event>) -> StartedCall {
        let mut starts: Vec<StartedCall> = events
            .into_iter()
            .filter_map(|e| match e {
                Event::Start(s) => Some(*s),
                _ => None,
            })
            .collect();
        assert_eq!(starts.len(), 1);
        starts.pop().unwrap()
    }

    fn member<'a>(json: &'a Json, path: &[&str]) -> &'a Json {
        path.iter().fold(json, |j, k| {
            j.as_object().and_then(|o| o.get(k)).unwrap_or_else(|| panic!("no {k} in {}", j.to_canonical()))
        })
    }

    /// The NotRun reason of a single reply.
    fn not_run(events: &[Event]) -> String {
        let reply = only_write(events);
        member(&reply, &["params", "outcome", "NotRun"]).as_str().unwrap().to_owned()
    }

    #[test]
    fn describe_answers_with_data_version_fingerprints_and_signatures() {
        let mut core = core();
        let reply = only_write(&core.receive(br#"{"jsonrpc":"2.0","id":"d1","method":"describe","params":{}}"#));
        assert_eq!(member(&reply, &["id"]), &Json::str("d1"));
        assert_eq!(member(&reply, &["result", "data"]), &Json::str("0.1"));
        let tools = member(&reply, &["result", "tools"]).as_array().unwrap();
        assert_eq!(tools.len(), 4);
        assert_eq!(member(&tools[0], &["tool"]), &Json::str(FORECAST));
        assert_eq!(
            member(&tools[0], &["fingerprint"]),
            &Json::str("sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077")
        );
        assert_eq!(
            member(&tools[3], &["fingerprint"]),
            &Json::str("sha256:f0c47b163440554ce0fde4a4817bdfe8b3caaa2407160dfab854468af3778ff7")
        );
        // The describe form keeps docs.
        assert!(member(&tools[0], &["signature"])
            .to_canonical()
            .contains("\"description\":\"One entry per day, today first.\""));
    }

    #[test]
    fn json_rpc_errors_and_ignored_notifications() {
        let mut core = core();
        let error = only_write(&core.receive(br#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#));
        assert_eq!(member(&error, &["error", "code"]), &Json::Number(Number::from_i64(METHOD_NOT_FOUND)));
        assert_eq!(member(&error, &["id"]), &Json::Number(Number::from_i64(5)));

        let error = only_write(&core.receive(b"this is not json"));
        assert_eq!(member(&error, &["error", "code"]), &Json::Number(Number::from_i64(PARSE_ERROR)));
        assert_eq!(member(&error, &["id"]), &Json::Null);

        let events = core.receive(br#"{"jsonrpc":"2.0","method":"progress","params":{"x":1}}"#);
        assert!(writes(&events).is_empty());
        assert!(matches!(&events[..], [Event::Log(m)] if m.contains("unknown notification")));

        // A call without its pair cannot be answered: logged, nothing written.
        let events = core.receive(br#"{"jsonrpc":"2.0","method":"call","params":{"tool":"x","args":{}}}"#);
        assert!(writes(&events).is_empty());
        assert!(matches!(&events[..], [Event::Log(m)] if m.contains("$.params.run")));
    }

    #[test]
    fn args_that_do_not_decode_are_not_run_with_path_and_rule() {
        let mut core = core();
        assert_eq!(
            not_run(&core.receive(forecast("c1", "\"three\"").as_bytes())),
            "$.params.args.days: expected an Int (a number), found a string [type]"
        );
        assert_eq!(
            not_run(&core.receive(forecast("c2", "1.5").as_bytes())),
            "$.params.args.days: expected an Int, found 1.5 [not-whole]"
        );
        let missing = call_line("r1", "c3", FORECAST, r#"{"city":"Oslo","days":1}"#);
        assert_eq!(not_run(&core.receive(missing.as_bytes())), "$.params.args.units: missing argument [missing-field]");
        let extra = call_line("r1", "c4", FORECAST, r#"{"city":"Oslo","days":1,"units":"None","x":1}"#);
        assert_eq!(not_run(&core.receive(extra.as_bytes())), "$.params.args.x: not a parameter of the Tool [shape]");
        let history = call_line(
            "r1",
            "c5",
            HISTORY,
            r#"{"station":1,"since":"2024-13-01T00:00:00Z","window":"PT1S","counts":[]}"#,
        );
        assert!(not_run(&core.receive(history.as_bytes())).starts_with("$.params.args.since: "));
        let unknown = call_line("r1", "c6", "github.com/acme/weather@1.2.0/weather.flow.nope", "{}");
        assert!(not_run(&core.receive(unknown.as_bytes())).ends_with("[unresolved]"));
        let deep = forecast("c7", &format!("{}1{}", "[".repeat(300), "]".repeat(300)));
        assert!(not_run(&core.receive(deep.as_bytes())).ends_with("[too-deep]"));
        assert_eq!(core.running(), 0);
    }

    #[test]
    fn a_started_call_carries_decoded_args_and_its_reply_is_checked() {
        let mut core = core();
        let call = started(core.receive(forecast("c1", "2e0").as_bytes()));
        assert_eq!(call.key, CallKey::new("r1", "c1"));
        assert_eq!(call.tool, 0);
        assert_eq!(call.args[0], Value::Text("Oslo".into()));
        assert_eq!(call.args[1], Value::Int(2.into()));
        assert_eq!(call.args[2], Value::none());
        let error = parse_str(r#"{"RateLimited":null}"#, &Limits::default()).unwrap();
        let lines = core.finish(&call.key, HandlerResult::FailedJson(error));
        let reply = parse_str(lines[0].trim_end(), &Limits::default()).unwrap();
        // {"RateLimited": null} is not the encoding of a payload-less constructor.
        assert!(member(&reply, &["params", "outcome", "Unknown"])
            .as_str()
            .unwrap()
            .contains("not of the declared type"));

        let call = started(core.receive(forecast("c2", "1").as_bytes()));
        let lines = core.finish(&call.key, HandlerResult::FailedJson(Json::str("RateLimited")));
        assert_eq!(lines, vec!["{\"jsonrpc\":\"2.0\",\"method\":\"reply\",\"params\":{\"call\":\"c2\",\"outcome\":{\"Failed\":\"RateLimited\"},\"run\":\"r1\"}}\n"]);

        let call = started(core.receive(forecast("c3", "1").as_bytes()));
        let lines = core.finish(&call.key, HandlerResult::Ok(Value::Int(3.into())));
        assert!(lines[0].contains("\"Unknown\":\"the handler's result is not of the declared type: "), "{}", lines[0]);

        let call = started(core.receive(forecast("c4", "1").as_bytes()));
        let lines = core.finish(&call.key, HandlerResult::Error("boom".into()));
        assert!(lines[0].contains("\"Unknown\":\"the handler failed: boom\""));
        // Finishing twice writes nothing.
        assert!(core.finish(&call.key, HandlerResult::Error("again".into())).is_empty());

        let call = started(core.receive(forecast("c5", "1").as_bytes()));
        let lines = core.finish(&call.key, HandlerResult::NotRun("the args did not convert".into()));
        assert!(lines[0].contains("\"outcome\":{\"NotRun\":\"the args did not convert\"}"), "{}", lines[0]);

        let call = started(core.receive(forecast("c6", "1").as_bytes()));
        let lines = core.finish(&call.key, HandlerResult::Unknown("cancelled".into()));
        assert!(lines[0].contains("\"outcome\":{\"Unknown\":\"cancelled\"}"), "{}", lines[0]);
    }

    #[test]
    fn a_pair_seen_again_never_runs_twice() {
        let mut core = core();
        let line = forecast("c1", "1");
        let call = started(core.receive(line.as_bytes()));
        // While it runs: not started again, nothing written now.
        let events = core.receive(line.as_bytes());
        assert!(events.iter().all(|e| matches!(e, Event::Log(_))), "{events:?}");
        let reply = core.finish(&call.key, HandlerResult::FailedJson(Json::str("RateLimited")));
        assert_eq!(reply.len(), 1);
        // Finished: the same line again, even with other args.
        for again in [line.clone(), forecast("c1", "\"bad\"")] {
            let events = core.receive(again.as_bytes());
            let lines: Vec<&String> =
                events.iter().filter_map(|e| if let Event::Write(l) = e { Some(l) } else { None }).collect();
            assert_eq!(lines, vec![&reply[0]]);
            assert!(!events.iter().any(|e| matches!(e, Event::Start(_))));
        }
        // A NotRun is remembered too.
        let bad = forecast("c2", "\"x\"");
        let first = only_write(&core.receive(bad.as_bytes()));
        assert_eq!(only_write(&core.receive(forecast("c2", "1").as_bytes())), first);
    }

    #[test]
    fn the_memory_of_finished_pairs_is_bounded() {
        let mut core = core().with_memory(2);
        for c in ["a", "b", "c"] {
            let call = started(core.receive(forecast(c, "1").as_bytes()));
            core.finish(&call.key, HandlerResult::FailedJson(Json::str("RateLimited")));
        }
        // "a" is the oldest and was forgotten: it runs again. "c" is remembered.
        started(core.receive(forecast("a", "1").as_bytes()));
        assert!(only_write(&core.receive(forecast("c", "1").as_bytes())).to_canonical().contains("RateLimited"));
    }

    #[test]
    fn a_full_memory_remembers_each_new_pair_with_its_own_line() {
        // The forgotten pairs' buffers are reused: keys and lines of other
        // lengths must still come back exactly.
        let mut core = core().with_memory(3);
        let mut lines: Vec<(String, String)> = Vec::new();
        for n in 0..40 {
            let id = format!("{}{n}", "c".repeat(n % 7));
            let call = started(core.receive(forecast(&id, "1").as_bytes()));
            let error =
                if n % 2 == 0 { Json::str("RateLimited") } else { Json::object([("Unavailable", Json::str("PT5S"))]) };
            let reply = core.finish(&call.key, HandlerResult::FailedJson(error)).remove(0);
            lines.push((id, reply));
            for (id, reply) in lines.iter().rev().take(3) {
                let again = core.receive(forecast(id, "1").as_bytes());
                let written: Vec<&String> =
                    again.iter().filter_map(|e| if let Event::Write(l) = e { Some(l) } else { None }).collect();
                assert_eq!(written, vec![reply], "{id} after {n}");
            }
        }
        // The fourth newest was forgotten: it runs again.
        started(core.receive(forecast(&lines[36].0, "1").as_bytes()));
    }

    #[test]
    fn cancel_reaches_the_running_calls_token() {
        let mut core = core();
        let call = started(core.receive(forecast("c1", "1").as_bytes()));
        assert!(!call.cancel.is_cancelled());
        let events = core.receive(br#"{"jsonrpc":"2.0","method":"cancel","params":{"run":"r1","call":"c1"}}"#);
        assert!(matches!(&events[..], [Event::Cancel(k)] if *k == call.key));
        assert!(call.cancel.is_cancelled());
        // A cancel of a call that is not running changes nothing.
        let events = core.receive(br#"{"jsonrpc":"2.0","method":"cancel","params":{"run":"r1","call":"zz"}}"#);
        assert!(matches!(&events[..], [Event::Log(_)]));
    }

    fn echo_call(call: &str, schema: Option<&str>, types: Option<&str>, value: &str) -> String {
        let mut params = format!(r#""run":"r","call":"{call}","tool":"{ECHO}","args":{{"value":{value}}}"#);
        if let Some(s) = schema {
            params.push_str(&format!(r#","schema":{s}"#));
        }
        if let Some(t) = types {
            params.push_str(&format!(r#","types":{t}"#));
        }
        format!(r#"{{"jsonrpc":"2.0","method":"call","params":{{{params}}}}}"#)
    }

    const INT_VIEW: &str = r#"{"bindings":[{"name":"T","type":"Int"}],"params":[{"name":"value","type":"Int"}],"ok":"Int","err":"Never","declarations":{}}"#;

    #[test]
    fn generic_calls_need_valid_views() {
        let mut core = core();
        let reason = not_run(&core.receive(echo_call("g1", None, Some(INT_VIEW), "1").as_bytes()));
        assert!(reason.starts_with("$.params.schema: ") && reason.ends_with("[missing-field]"), "{reason}");
        let reason =
            not_run(&core.receive(echo_call("g2", Some(r#"{"type":"integer"}"#), Some("null"), "1").as_bytes()));
        assert!(reason.starts_with("$.params.types: ") && reason.ends_with("[missing-field]"), "{reason}");
        let reason =
            not_run(&core.receive(echo_call("g3", Some(r#"{"type":"string"}"#), Some(INT_VIEW), "1").as_bytes()));
        assert!(reason.starts_with("$.params.schema: ") && reason.ends_with("[view-mismatch]"), "{reason}");
        let bad_view = INT_VIEW.replace(r#""ok":"Int""#, r#""ok":"Text""#);
        let reason =
            not_run(&core.receive(echo_call("g4", Some(r#"{"type":"string"}"#), Some(&bad_view), "1").as_bytes()));
        assert!(reason.starts_with("$.params.types") && reason.ends_with("[view-mismatch]"), "{reason}");
        let reason = not_run(
            &core.receive(echo_call("g5", Some(r#"{"type":"integer"}"#), Some(INT_VIEW), "\"one\"").as_bytes()),
        );
        assert!(reason.starts_with("$.params.args.value: ") && reason.ends_with("[type]"), "{reason}");

        // A nongeneric call carrying a view is refused too.
        let line = forecast("g6", "1").replace(r#""args""#, r#""types":{},"args""#);
        assert_eq!(
            not_run(&core.receive(line.as_bytes())),
            format!("$.params.types: a call of the nongeneric Tool {FORECAST} carries no types [shape]")
        );

        let call =
            started(core.receive(echo_call("g7", Some(r#"{"type":"integer"}"#), Some(INT_VIEW), "10.0").as_bytes()));
        let generic = call.generic.as_ref().unwrap();
        assert_eq!(call.args, vec![Value::Int(10.into())]);
        assert_eq!(generic.args_json, vec![Json::Number(Number::from_i64(10))]);
        assert_eq!(generic.schema.to_canonical(), r#"{"type":"integer"}"#);
        let lines = core.finish(&call.key, HandlerResult::OkJson(generic.args_json[0].clone()));
        assert!(lines[0].contains(r#""outcome":{"Ok":10}"#));
    }

    #[test]
    fn oversized_calls_are_not_run_and_oversized_replies_unknown() {
        let mut core = core().with_limits(Limits { max_bytes: 400, ..Limits::default() });
        let line = forecast("big", &format!("\"{}\"", "x".repeat(500)));
        assert!(not_run(&core.receive(line.as_bytes())).ends_with("[too-large]"));
        let call = started(core.receive(forecast("c1", "1").as_bytes()));
        let lines = core.finish(&call.key, HandlerResult::OkJson(Json::str("y".repeat(500))));
        // Not of the type anyway; a big value of the right type:
        assert!(lines[0].contains("Unknown"));
        let call = started(core.receive(
            echo_call("g", Some(r#"{"type":"string"}"#), Some(&INT_VIEW.replace("Int", "Text")), "\"a\"").as_bytes(),
        ));
        let lines = core.finish(&call.key, HandlerResult::OkJson(Json::str("y".repeat(500))));
        assert!(lines[0].len() <= 401);
        assert!(lines[0].contains("more than the message size limit of 400 [too-large]"), "{}", lines[0]);
    }

    /// The reply line of `value`, a JSON text the Text/json echo returns.
    fn reply_of(core: &mut ServerCore, call: &str, schema: &str, view: &str, value: Json) -> String {
        let call = started(core.receive(echo_call(call, Some(schema), Some(view), "\"a\"").as_bytes()));
        let mut lines = core.finish(&call.key, HandlerResult::OkJson(value));
        assert_eq!(lines.len(), 1);
        lines.pop().unwrap()
    }

    #[test]
    fn a_reply_of_exactly_the_size_limit_is_sent_one_more_byte_is_unknown() {
        let limit = 400;
        let mut core = core().with_limits(Limits { max_bytes: limit, ..Limits::default() });
        let view = INT_VIEW.replace("Int", "Text");
        let schema = r#"{"type":"string"}"#;
        let base = reply_of(&mut core, "size0", schema, &view, Json::str("")).len() - 1;
        // The same call id length, so only the value's length differs.
        let at = reply_of(&mut core, "size1", schema, &view, Json::str("y".repeat(limit - base)));
        assert_eq!(at.len(), limit + 1, "the line is the limit plus its \\n");
        assert!(at.contains(r#""outcome":{"Ok":"yyy"#), "{at}");
        let over = reply_of(&mut core, "size2", schema, &view, Json::str("y".repeat(limit - base + 1)));
        assert!(
            over.contains(
                r#""outcome":{"Unknown":"the handler's reply could not be sent: $: the message would be 401 bytes"#
            ),
            "{over}"
        );
        assert!(over.contains("more than the message size limit of 400 [too-large]"), "{over}");
    }

    #[test]
    fn a_reply_deeper_than_the_limit_counted_from_the_message_is_unknown() {
        let mut core = core();
        let view = r#"{"bindings":[{"name":"T","type":"json.Value"}],"params":[{"name":"value","type":"json.Value"}],"ok":"json.Value","err":"Never","declarations":{}}"#;
        let nested = |n: usize| parse_str(&format!("{}{}", "[".repeat(n), "]".repeat(n)), &Limits::default()).unwrap();
        // The message 1, params 2, outcome 3: the value starts at level 4.
        let fits = reply_of(&mut core, "d125", "{}", view, nested(125));
        assert!(fits.contains(r#""outcome":{"Ok":[[[["#), "{fits}");
        assert_eq!(crate::outgoing::depth(fits.trim_end().as_bytes()), 128);
        let deep = reply_of(&mut core, "d126", "{}", view, nested(126));
        assert!(
            deep.contains(
                r#""outcome":{"Unknown":"the handler's reply could not be sent: $: the message would nest 129 levels deep"#
            ),
            "{deep}"
        );
        assert!(deep.contains(r#"[too-deep]"},"run":"r"}}"#), "{deep}");
    }
}
