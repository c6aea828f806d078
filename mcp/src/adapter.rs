//! The MCP adapter (`host-boundary.md`, "Adapters"): an MCP server's tools
//! answering Flow calls. One library, two ways to use it:
//!
//! - in process: the host binds a declaration to an [`McpAdapter`] and gets
//!   the five outcomes straight from it, BadReply included
//!   (the host client's `Host` does this for `mcp = "..."` in flow.toml);
//! - as a process speaking the Flow protocol ([`super::serve`]), so any host
//!   can bind it as a `command`.
//!
//! Each declaration is offered as the MCP tool of the same NAME (the last
//! part of its identity); a declaration the server offers no tool of its name
//! for is unbound. A call is `tools/call` with the call's history id as the
//! JSON-RPC id, the args as `arguments` ([`super::arguments`]), and the
//! answer mapped by [`super::outcome`].

use std::collections::BTreeMap;
use std::sync::Arc;

use flow_core::types::{identity_name, Listing, Param, ToolDecl};
use flow_core::value::Value;
use flow_process::ProcessSpec;
use flow_protocol::outcome::CallOutcome;
use flow_protocol::server::CallTypes;

use super::arguments::arguments;
use super::client::{CallEnd, McpConnection, McpOptions, Sent};
use super::messages::Tool;
use super::outcome::map_answer;

/// An MCP server whose tools answer Flow calls. Clones share the server;
/// dropping the last one ends it, as for [`McpConnection`].
#[derive(Clone)]
pub struct McpAdapter {
    connection: McpConnection,
}

/// Which of a listing's declarations a server offers a tool for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    /// Identities of the declarations offered, in listing order.
    pub bound: Vec<String>,
    /// Identities not offered, each with why.
    pub unbound: Vec<(String, String)>,
}

/// Splits `listing`'s declarations by whether `tools` holds a tool of each
/// one's NAME.
pub fn offered(listing: &Listing, tools: &BTreeMap<String, Tool>) -> Offered {
    let mut bound = Vec::new();
    let mut unbound = Vec::new();
    for decl in &listing.tools {
        let name = identity_name(&decl.tool);
        if tools.contains_key(name) {
            bound.push(decl.tool.clone());
        } else {
            unbound.push((decl.tool.clone(), no_tool(name, tools)));
        }
    }
    Offered { bound, unbound }
}

/// Why a NAME is unbound, naming what the server does offer.
pub fn no_tool(name: &str, tools: &BTreeMap<String, Tool>) -> String {
    const SHOWN: usize = 20;
    let mut names: Vec<&str> = tools.keys().map(String::as_str).take(SHOWN).collect();
    if tools.len() > SHOWN {
        names.push("...");
    }
    format!("the MCP server offers no tool named {name:?} (it offers: {})", names.join(", "))
}

impl McpAdapter {
    /// An adapter for the server `spec` starts; it starts on first use.
    pub fn new(spec: ProcessSpec, options: McpOptions) -> McpAdapter {
        McpAdapter { connection: McpConnection::new(spec, options) }
    }

    /// The MCP connection the adapter calls through.
    pub fn connection(&self) -> &McpConnection {
        &self.connection
    }

    /// Calls the tool named like `decl` for the Flow call `call_id`, with
    /// `args` in parameter order decoded at `types` (for a generic Tool, the
    /// call's concrete types). `deliver` gets the outcome exactly once;
    /// `None` when the call did not go out (it has been delivered NotRun).
    pub fn call(
        &self,
        call_id: &str,
        decl: &ToolDecl,
        params: &[Param],
        args: &[Value],
        types: Arc<CallTypes>,
        deliver: impl FnOnce(CallOutcome) + Send + 'static,
    ) -> Option<Sent> {
        let limits = self.connection.options().limits;
        let arguments = match arguments(params, args, &limits) {
            Ok(arguments) => arguments,
            Err(why) => {
                deliver(CallOutcome::NotRun(why));
                return None;
            }
        };
        self.connection.call(call_id, identity_name(&decl.tool), arguments, move |end| {
            deliver(match end {
                CallEnd::Answered(answer) => map_answer(answer, &types, &limits),
                CallEnd::NotRun(why) => CallOutcome::NotRun(why),
                CallEnd::Unknown(why) => CallOutcome::Unknown(why),
            })
        })
    }

    /// Cancels a call that went out: it ends Unknown.
    pub fn cancel(&self, sent: &Sent) {
        self.connection.cancel(sent);
    }
}
