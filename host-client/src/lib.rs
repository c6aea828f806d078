//! flow-host-client: the host side of the Tool process protocol, a client library of threads,
//! no async runtime. A call returns a [`CallHandle`] at once, so one thread
//! can keep many calls outstanding.
//!
//! - `resolve`: which implementation answers a declaration: host overrides
//!   by identity, then flow.toml ([`flow_core::manifest`]).
//! - `shell_words`: a flow.toml `command` split into words, no shell.
//! - `connection`: one Tool process: started on demand, described first,
//!   calls multiplexed and correlated by (run, call) only, at most one reply
//!   per call, BadReply decided, restarted after it ends.
//! - `handle`: [`CallHandle`], a pending call: waited on, polled or
//!   cancelled, one slot per call.
//! - `call_line`: a call's line, its args' canonical text written in place.
//! - `outbox`: the lines queued for one process, written in batches by a
//!   caller about to wait or by its writer thread.
//! - `reply`: the one reader of a process's lines: a canonical reply split
//!   without a tree and its outcome decoded at its declared types
//!   straight from its text.
//! - [`described`]: the describe result, read with exact shapes.
//! - `bind`: binding every declaration of a listing by fingerprint, with
//!   distinct refusals, and calling bound Tools; flow.toml `mcp` bindings
//!   through the MCP adapter in process ([`flow_mcp`]).
//! - `generic_views`: the `types` and `schema` views of a generic call.
//! - `options`: limits, describe timeout, stop grace, logging.
//!
//! Starting, stopping and reaping the processes is [`flow_process`]'s.
//!
//! ```no_run
//! use flow_host::{Host, HostOptions, Resolver};
//! use flow_protocol::CallKey;
//! # fn demo(listing: &flow_core::types::Listing, args: &flow_core::Json) {
//! let resolver = Resolver { manifest_dir: Some("tools".into()), ..Resolver::default() };
//! let host = Host::bind(listing, &resolver, HostOptions::default()).expect("every Tool bound");
//! let call = host.call("github.com/acme/weather@1.2.0/weather.flow.get_forecast", CallKey::new("run-1", "call-1"), args);
//! let outcome = call.expect("args decode").wait();
//! # }
//! ```

// Warn, so a local build with a missing doc still runs; `make lint` (clippy
// -D warnings) turns the warning into a failure.
#![warn(missing_docs)]

pub(crate) mod bind;
pub(crate) mod call_line;
pub(crate) mod connection;
pub mod described;
pub(crate) mod generic_views;
mod handle;
pub(crate) mod options;
mod outbox;
mod reply;
pub(crate) mod resolve;
pub(crate) mod shell_words;

pub use bind::{fits, Host, Refusal, RefusalKind};
pub use call_line::{decode_args, encode_args};
pub use connection::{CallHandle, Connection};
pub use described::{Described, DescribedTool};
pub use flow_process::ProcessSpec;
pub use generic_views::{views, GenericViews};
pub use options::{HostOptions, LogSink};
pub use resolve::{declaring_file, Binding, Resolution, Resolver};
