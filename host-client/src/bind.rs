//! Binding a listing's declarations to Tool processes, and calling them.
//!
//! Every declaration is bound before anything runs ("Binding": nothing is
//! bound lazily at a first call): resolved to a command, its process started
//! and described, and its fingerprint compared. The refusals are distinct:
//! no binding, a fingerprint that does not match, a data version whose major
//! differs (a version refusal), a process that cannot be used, and a
//! configuration error.
//!
//! A flow.toml `mcp = "..."` binding is answered in process by the MCP
//! adapter ([`flow_mcp::adapter`]): the server is started and its tools
//! listed when binding, and a declaration whose NAME it offers no tool for is
//! unbound. The adapter describes from the same declarations it is handed,
//! as a toolkit does, so it fits by construction; and since it runs in the
//! host, what it cannot map is BadReply itself, not a reply standing for it.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use flow_core::error::{Error, Result, Rule};
use flow_core::fingerprint::fingerprint;
use flow_core::json::Json;
use flow_core::manifest::Runner;
use flow_core::types::parse::check_data_version;
use flow_core::types::{identity_name, Declarations, Listing, Term, ToolDecl};
use flow_mcp::adapter::{no_tool, McpAdapter};
use flow_mcp::client::McpOptions;
use flow_protocol::message::CallKey;
use flow_protocol::server::CallTypes;

use super::call_line::{call_line, decode_args};
use super::connection::{CallHandle, Connection};
use super::described::Described;
use super::generic_views::views;
use super::handle::Cancel;
use super::options::HostOptions;
use super::resolve::{Resolution, Resolver};
use super::shell_words;
use flow_process::ProcessSpec;

/// Why a declaration could not be bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// No binding covers it, the process bound to it does not serve it, or
    /// the MCP server bound to it offers no tool of its NAME.
    Unbound,
    /// The process serves it with another fingerprint.
    Mismatch,
    /// The process's data version has another major.
    Version,
    /// The process (or MCP server) could not be started or described.
    Unavailable,
    /// A manifest or command that cannot be read.
    Config,
}

impl RefusalKind {
    /// The kind as refusal messages name it (`"fingerprint mismatch"`).
    pub fn name(self) -> &'static str {
        match self {
            RefusalKind::Unbound => "unbound",
            RefusalKind::Mismatch => "fingerprint mismatch",
            RefusalKind::Version => "version",
            RefusalKind::Unavailable => "unavailable",
            RefusalKind::Config => "configuration",
        }
    }
}

/// Why one declaration of a listing cannot be bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The identity of the declaration refused.
    pub tool: String,
    /// Which kind of refusal it is.
    pub kind: RefusalKind,
    /// What went wrong and, where it can, the fix.
    pub reason: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.tool, self.kind.name(), self.reason)
    }
}

/// Whether a described process fits a declaration with `expected` fingerprint.
pub fn fits(described: &Described, tool: &str, expected: &str) -> std::result::Result<(), (RefusalKind, String)> {
    check_data_version(&described.data).map_err(|e| (RefusalKind::Version, e.message))?;
    let served =
        described.tools.get(tool).ok_or_else(|| (RefusalKind::Unbound, "its process does not serve it".to_owned()))?;
    if served.fingerprint != expected {
        return Err((
            RefusalKind::Mismatch,
            format!("the declaration is {expected}, its process serves {}", served.fingerprint),
        ));
    }
    Ok(())
}

/// What answers a bound declaration's calls.
enum Implementation {
    /// A Tool process speaking the protocol.
    Process(Connection),
    /// An MCP server, through the adapter in process.
    Mcp(McpAdapter),
}

struct Bound {
    decl: ToolDecl,
    fingerprint: String,
    /// Compiled once for a nongeneric Tool.
    types: Option<Arc<CallTypes>>,
    implementation: Implementation,
}

/// Every declaration of a listing, bound.
pub struct Host {
    tools: HashMap<String, Bound>,
    declarations: Declarations,
    connections: Vec<Connection>,
    adapters: Vec<McpAdapter>,
    options: HostOptions,
}

impl Drop for Host {
    fn drop(&mut self) {
        stop_all(&self.connections, &self.adapters);
    }
}

/// Asks every process to finish, all at once so that their stop graces
/// overlap, and returns when each has ended: a Tool process or MCP server
/// that has not exited within the grace is killed. A Tool process's
/// connection waits for that when its last clone is dropped, with the host;
/// an MCP server is waited for here, since a call handle holds its adapter
/// (to cancel through it) and may outlive the host. Neither may outlive the
/// host: a server busy with a cancelled call may not exit at the end of its
/// input (Node keeps running while a timer is pending).
fn stop_all(connections: &[Connection], adapters: &[McpAdapter]) {
    for connection in connections {
        connection.stop();
    }
    for adapter in adapters {
        adapter.connection().stop();
    }
    for adapter in adapters {
        adapter.connection().shutdown();
    }
}

/// Each process started while binding, with what it described, once per
/// command however many declarations it binds.
type Started<T, L> = HashMap<ProcessSpec, (T, std::result::Result<L, String>)>;
type McpTools = Arc<std::collections::BTreeMap<String, flow_mcp::Tool>>;

impl Host {
    /// Binds every declaration of `listing`, or refuses with every refusal.
    pub fn bind(
        listing: &Listing,
        resolver: &Resolver,
        options: HostOptions,
    ) -> std::result::Result<Host, Vec<Refusal>> {
        let mut refusals = Vec::new();
        let mut connections: Started<Connection, Arc<Described>> = HashMap::new();
        let mut adapters: Started<McpAdapter, McpTools> = HashMap::new();
        let mut tools = HashMap::new();
        for decl in &listing.tools {
            let refuse = |kind, reason: String| Refusal { tool: decl.tool.clone(), kind, reason };
            let binding = match resolver.resolve(&decl.tool) {
                Ok(Resolution::Bound(binding)) => binding,
                Ok(Resolution::Unbound(why)) => {
                    refusals.push(refuse(RefusalKind::Unbound, why));
                    continue;
                }
                Err(why) => {
                    refusals.push(refuse(RefusalKind::Config, why));
                    continue;
                }
            };
            let command = match &binding.runner {
                Runner::Command(command) | Runner::Mcp(command) => command,
            };
            let spec = match shell_words::split(command) {
                Ok(words) if !words.is_empty() => {
                    let mut words = words.into_iter();
                    ProcessSpec::new(words.next().expect("one word"), words.collect(), binding.dir.clone())
                }
                Ok(_) => {
                    refusals.push(refuse(RefusalKind::Config, format!("{}: the command is empty", binding.origin)));
                    continue;
                }
                Err(why) => {
                    refusals.push(refuse(
                        RefusalKind::Config,
                        format!("{}: the command cannot be split: {why}", binding.origin),
                    ));
                    continue;
                }
            };
            let expected = match fingerprint(decl, &listing.declarations) {
                Ok(fp) => fp,
                Err(e) => {
                    refusals.push(refuse(RefusalKind::Unavailable, format!("it cannot cross: {e}")));
                    continue;
                }
            };
            let implementation = if let Runner::Mcp(_) = binding.runner {
                let (adapter, tools) = adapters.entry(spec.clone()).or_insert_with(|| {
                    let adapter = McpAdapter::new(spec, McpOptions::from(&options));
                    let tools = adapter.connection().tools();
                    (adapter, tools)
                });
                let tools = match tools {
                    Ok(tools) => tools,
                    Err(why) => {
                        refusals
                            .push(refuse(RefusalKind::Unavailable, format!("{} (bound by {})", why, binding.origin)));
                        continue;
                    }
                };
                let name = identity_name(&decl.tool);
                if !tools.contains_key(name) {
                    refusals.push(refuse(
                        RefusalKind::Unbound,
                        format!("{} (bound by {})", no_tool(name, tools), binding.origin),
                    ));
                    continue;
                }
                Implementation::Mcp(adapter.clone())
            } else {
                let (connection, described) = connections.entry(spec.clone()).or_insert_with(|| {
                    let connection = Connection::new(spec, options.clone());
                    let described = connection.describe();
                    (connection, described)
                });
                let described = match described {
                    Ok(d) => d,
                    Err(why) => {
                        refusals
                            .push(refuse(RefusalKind::Unavailable, format!("{} (bound by {})", why, binding.origin)));
                        continue;
                    }
                };
                if let Err((kind, why)) = fits(described, &decl.tool, &expected) {
                    refusals.push(refuse(kind, format!("{why} (bound by {})", binding.origin)));
                    continue;
                }
                Implementation::Process(connection.clone())
            };
            let types = if decl.is_generic() {
                None
            } else {
                match CallTypes::compile(&listing.declarations, &decl.params, &decl.ok, &decl.err) {
                    Ok(types) => Some(Arc::new(types)),
                    Err(e) => {
                        refusals.push(refuse(RefusalKind::Unavailable, format!("its types cannot be compiled: {e}")));
                        continue;
                    }
                }
            };
            tools.insert(decl.tool.clone(), Bound { decl: decl.clone(), fingerprint: expected, types, implementation });
        }
        let connections: Vec<Connection> = connections.into_values().map(|(c, _)| c).collect();
        let adapters: Vec<McpAdapter> = adapters.into_values().map(|(a, _)| a).collect();
        if refusals.is_empty() {
            Ok(Host { tools, declarations: listing.declarations.clone(), connections, adapters, options })
        } else {
            stop_all(&connections, &adapters);
            Err(refusals)
        }
    }

    /// The connection serving a bound Tool, when a Tool process serves it.
    pub fn connection(&self, tool: &str) -> Option<&Connection> {
        match &self.tools.get(tool)?.implementation {
            Implementation::Process(connection) => Some(connection),
            Implementation::Mcp(_) => None,
        }
    }

    /// The MCP adapter serving a bound Tool, when an MCP server serves it.
    pub fn mcp_adapter(&self, tool: &str) -> Option<&McpAdapter> {
        match &self.tools.get(tool)?.implementation {
            Implementation::Mcp(adapter) => Some(adapter),
            Implementation::Process(_) => None,
        }
    }

    /// The options this host starts and calls processes with.
    pub fn options(&self) -> &HostOptions {
        &self.options
    }

    /// Calls a nongeneric Tool. `args` is an object keyed by parameter name;
    /// each is decoded at its declared type and sent as canonical text. `Err`
    /// means the call was not made (an unbound Tool, args that do not decode),
    /// with the path (`$.args.days`) and the rule.
    pub fn call(&self, tool: &str, key: CallKey, args: &Json) -> Result<CallHandle> {
        self.call_with(tool, key, args, &[])
    }

    /// Calls a Tool, generic or not, with `type_args` binding its type
    /// parameters (terms resolved in the listing's declarations).
    pub fn call_with(&self, tool: &str, key: CallKey, args: &Json, type_args: &[Term]) -> Result<CallHandle> {
        let bound = self.tools.get(tool).ok_or_else(|| Error::new(Rule::Unresolved, format!("{tool} is not bound")))?;
        let compiled;
        let (types, params, generic) = match &bound.types {
            Some(types) => {
                if !type_args.is_empty() {
                    return Err(Error::new(Rule::Arity, format!("{tool} takes no type arguments")));
                }
                (types.clone(), bound.decl.params.as_slice(), None)
            }
            None => {
                let v = views(&bound.decl, &self.declarations, type_args)?;
                let types =
                    Arc::new(CallTypes::compile(&v.view.declarations, &v.view.params, &v.view.ok, &v.view.err)?);
                compiled = v;
                (types, compiled.view.params.as_slice(), Some((&compiled.schema, &compiled.types)))
            }
        };
        match &bound.implementation {
            Implementation::Process(connection) => {
                let line = call_line(&key, tool, args, params, &types, generic)?;
                // Judged against each call's process (a restart may change
                // what it serves), borrowing: nothing copied per call.
                Ok(connection.send(key, line, types, |described| {
                    fits(described, tool, &bound.fingerprint)
                        .map_err(|(_, why)| format!("the restarted Tool process no longer fits: {why}"))
                }))
            }
            // The MCP request's id is the call's history id alone: MCP has no
            // place for the run id (see `flow_mcp::session`).
            Implementation::Mcp(adapter) => {
                let values = decode_args(args, params, &types)?;
                let (mut handle, settle) = CallHandle::open(key, None);
                let sent = adapter.call(&handle.key().call, &bound.decl, params, &values, types, move |outcome| {
                    settle.settle(outcome);
                });
                if let Some(sent) = sent {
                    let adapter = adapter.clone();
                    handle.set_cancel(Cancel::Direct(Box::new(move || adapter.cancel(&sent))));
                }
                Ok(handle)
            }
        }
    }
}
