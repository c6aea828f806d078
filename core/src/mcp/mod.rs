//! MCP: the Model Context Protocol, as the MCP adapter speaks it
//! (`host-boundary.md`, "Adapters"; the facts in `../shared/research/mcp.md`).
//!
//! - [`version`]: the two eras and their versions.
//! - [`jsonrpc`]: JSON-RPC 2.0 lines as MCP uses them, read without ever failing.
//! - [`shapes`]: the message shapes of both eras, read and written both ways
//!   (an MCP server serving Flow Tools reuses them).
//! - [`session`]: one client session, sans-IO: the dual-era probe, the
//!   handshake, `tools/list` pages, calls and cancels.
//! - [`arguments`]: a Flow call's args as an MCP tool's `arguments` (Option
//!   parameters: None left out, Some as its value).
//! - [`outcome`]: an answer to `tools/call` as a Flow outcome, BadReply for
//!   what cannot be mapped.

pub mod jsonrpc;
pub mod session;
pub mod shapes;
pub mod version;
pub mod arguments;
pub mod outcome;
