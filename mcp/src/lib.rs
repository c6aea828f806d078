//! flow-mcp: the Model Context Protocol, as the MCP adapter speaks it
//! (`host-boundary.md`, "Adapters"; the facts in `docs/research/mcp.md`).
//!
//! - [`version`]: the two eras and their versions.
//! - [`jsonrpc`]: JSON-RPC 2.0 lines as MCP uses them, read without ever failing.
//! - `messages`: the message shapes of both eras, read and written both ways
//!   (an MCP server serving Flow Tools reuses them).
//! - [`session`]: one client session, sans-IO: the dual-era probe, the
//!   handshake, `tools/list` pages, calls and cancels.
//! - [`arguments`]: a Flow call's args as an MCP tool's `arguments` (Option
//!   parameters: None left out, Some as its value).
//! - [`outcome`]: an answer to `tools/call` as a Flow outcome, BadReply for
//!   what cannot be mapped.
//! - [`client`]: one MCP server process: threads, restarts, calls settled
//!   when it ends, stopped with the stop grace as a Tool process is.
//! - [`adapter`]: the MCP adapter: declarations offered by NAME, calls, the
//!   five outcomes (used in process by the host, and served as a Flow Tool
//!   process by `flow-host mcp-adapter`).
//!
//! The other direction, Flow Tools served to MCP clients, reuses the shapes,
//! JSON-RPC lines, arguments and outcome mapping above:
//!
//! - [`schemas`]: a Tool's schemas as `inputSchema` and `outputSchema`.
//! - `tools`: the served Tools as MCP tools (a generic one at json.Value).
//! - [`front`]: the MCP front, sans-IO, wrapping the server core every
//!   toolkit serves through (`flow_protocol`).
//!
//! Built on `flow_core` (the rules), `flow_protocol` (the Flow side of every
//! call) and `flow_process` (the MCP server's process); the Tool runtime
//! (`flow_runtime`) and the host client (`flow_host`) are built on it.

// Warn, so a local build with a missing doc still runs; `make lint` (clippy
// -D warnings) turns the warning into a failure.
#![warn(missing_docs)]

pub mod adapter;
pub mod arguments;
pub mod client;
pub mod front;
pub mod jsonrpc;
pub(crate) mod messages;
pub mod outcome;
pub mod schemas;
pub mod session;
pub(crate) mod tools;
pub mod version;

pub use messages::Tool;
