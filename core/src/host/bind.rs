//! Binding a listing's declarations to Tool processes, and calling them.
//!
//! Every declaration is bound before anything runs ("Binding": nothing is
//! bound lazily at a first call): resolved to a command, its process started
//! and described, and its fingerprint compared. The refusals are distinct:
//! no binding, a fingerprint that does not match, a data version whose major
//! differs (a version refusal), a process that cannot be used, and a
//! configuration error.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::decode::from_json;
use crate::error::{Error, Path, Result, Rule};
use crate::fingerprint::fingerprint;
use crate::json::{write_string, Json};
use crate::manifest::Runner;
use crate::protocol::message::{write_call, CallKey};
use crate::protocol::server::CallTypes;
use crate::types::parse::check_data_version;
use crate::types::{Declarations, Listing, Param, Term, ToolDecl};

use super::connection::{CallHandle, Connection, ProcessSpec};
use super::described::Described;
use super::generic::views;
use super::options::HostOptions;
use super::resolve::{Resolution, Resolver};
use super::shell_words;

/// Why a declaration could not be bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefusalKind {
    /// No binding covers it, or the process bound to it does not serve it.
    Unbound,
    /// The process serves it with another fingerprint.
    Mismatch,
    /// The process's data version has another major.
    Version,
    /// The process could not be started or described, or the binding names
    /// something this host cannot run (an MCP server).
    Unavailable,
    /// A manifest or command that cannot be read.
    Config,
}

impl RefusalKind {
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub tool: String,
    pub kind: RefusalKind,
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
    let served = described.tools.get(tool).ok_or_else(|| (RefusalKind::Unbound, "its process does not serve it".to_owned()))?;
    if served.fingerprint != expected {
        return Err((RefusalKind::Mismatch, format!("the declaration is {expected}, its process serves {}", served.fingerprint)));
    }
    Ok(())
}

struct Bound {
    decl: ToolDecl,
    fingerprint: String,
    /// Compiled once for a nongeneric Tool.
    types: Option<Arc<CallTypes>>,
    connection: Connection,
}

/// Every declaration of a listing, bound.
pub struct Host {
    tools: HashMap<String, Bound>,
    declarations: Declarations,
    connections: Vec<Connection>,
    options: HostOptions,
}

impl Drop for Host {
    fn drop(&mut self) {
        for connection in &self.connections {
            connection.stop();
        }
    }
}

impl Host {
    /// Binds every declaration of `listing`, or refuses with every refusal.
    pub fn bind(listing: &Listing, resolver: &Resolver, options: HostOptions) -> std::result::Result<Host, Vec<Refusal>> {
        let mut refusals = Vec::new();
        let mut connections: HashMap<ProcessSpec, (Connection, std::result::Result<Arc<Described>, String>)> = HashMap::new();
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
                Runner::Command(command) => command,
                Runner::Mcp(_) => {
                    let why = format!("{} binds it to an MCP server, and this host has no MCP adapter", binding.origin);
                    refusals.push(refuse(RefusalKind::Unavailable, why));
                    continue;
                }
            };
            let spec = match shell_words::split(command) {
                Ok(words) if !words.is_empty() => {
                    let mut words = words.into_iter();
                    ProcessSpec { program: words.next().expect("one word"), args: words.collect(), dir: binding.dir.clone() }
                }
                Ok(_) => {
                    refusals.push(refuse(RefusalKind::Config, format!("{}: the command is empty", binding.origin)));
                    continue;
                }
                Err(why) => {
                    refusals.push(refuse(RefusalKind::Config, format!("{}: the command cannot be split: {why}", binding.origin)));
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
            let (connection, described) = connections.entry(spec.clone()).or_insert_with(|| {
                let connection = Connection::new(spec, options.clone());
                let described = connection.describe();
                (connection, described)
            });
            let described = match described {
                Ok(d) => d,
                Err(why) => {
                    refusals.push(refuse(RefusalKind::Unavailable, format!("{} (bound by {})", why, binding.origin)));
                    continue;
                }
            };
            if let Err((kind, why)) = fits(described, &decl.tool, &expected) {
                refusals.push(refuse(kind, format!("{why} (bound by {})", binding.origin)));
                continue;
            }
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
            tools.insert(decl.tool.clone(), Bound { decl: decl.clone(), fingerprint: expected, types, connection: connection.clone() });
        }
        let connections: Vec<Connection> = connections.into_values().map(|(c, _)| c).collect();
        if refusals.is_empty() {
            Ok(Host { tools, declarations: listing.declarations.clone(), connections, options })
        } else {
            for connection in &connections {
                connection.stop();
            }
            Err(refusals)
        }
    }

    /// The connection serving a bound Tool.
    pub fn connection(&self, tool: &str) -> Option<&Connection> {
        self.tools.get(tool).map(|b| &b.connection)
    }

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
        let (types, params, generic) = match &bound.types {
            Some(types) => {
                if !type_args.is_empty() {
                    return Err(Error::new(Rule::Arity, format!("{tool} takes no type arguments")));
                }
                (types.clone(), bound.decl.params.clone(), None)
            }
            None => {
                let v = views(&bound.decl, &self.declarations, type_args)?;
                let types = Arc::new(CallTypes::compile(&v.view.declarations, &v.view.params, &v.view.ok, &v.view.err)?);
                (types, v.view.params.clone(), Some((v.schema, v.types)))
            }
        };
        let args = encode_args(args, &params, &types)?;
        let line = write_call(&key, tool, &args, generic.as_ref().map(|(s, t)| (s, t)));
        let expected = bound.fingerprint.clone();
        let identity = tool.to_owned();
        Ok(bound.connection.send(key, line, types, move |described| {
            fits(described, &identity, &expected).map_err(|(_, why)| format!("the restarted Tool process no longer fits: {why}"))
        }))
    }
}

/// The canonical text of a call's args object: each parameter present and
/// decoding at its type, no other member.
pub fn encode_args(args: &Json, params: &[Param], types: &CallTypes) -> Result<String> {
    let base = Path::root().key("args");
    let object = args.as_object().ok_or_else(|| Error::at(base.clone(), Rule::Type, format!("expected an object, found {}", args.kind_name())))?;
    if let Some(extra) = object.keys().find(|k| !params.iter().any(|p| p.name == *k)) {
        return Err(Error::at(base.key(extra), Rule::Shape, "not a parameter of the Tool"));
    }
    let mut members = Vec::with_capacity(params.len());
    for (param, &node) in params.iter().zip(&types.params) {
        let at = base.clone().key(param.name.as_str());
        let json = object.get(&param.name).ok_or_else(|| Error::at(at.clone(), Rule::MissingField, "missing argument"))?;
        let value = from_json(json.clone(), &types.plan, node).map_err(|e| e.under_path(&at))?;
        members.push((param.name.as_str(), value.to_canonical()));
    }
    // Canonical text: keys in code-point order, which is byte order.
    members.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = String::from("{");
    for (i, (name, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(&mut out, name);
        out.push(':');
        out.push_str(value);
    }
    out.push('}');
    Ok(out)
}
