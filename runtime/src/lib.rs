//! flow-runtime: the runtime of Flow Tools written in Rust (`flow-gen --lang
//! rust`), and the threaded driver that serves them on stdin and stdout.
//!
//! - [`codec`]: Rust types to and from Flow values and JSON, and their
//!   canonical text: what a generated package's types are made of.
//! - `toolkit`: what a Tool method sees of its call ([`Call`]), a generic
//!   call's [`Codec`]s, the executor ([`block_on`]), and the glue generated
//!   `serve` code calls ([`typed_server`], [`handle_typed`], [`serve_process`]).
//! - [`StdioServer`] (`stdio`): the threaded driver of a server core
//!   (`flow_protocol`), speaking the Flow protocol or MCP (`flow_mcp`):
//!   `schedule` runs a call on the thread that read it, within set bounds;
//!   `pace` tells which Tools run long, so that their calls go to other
//!   threads; `batch_writer` writes every line, batching what is ready.
//! - [`thread_state`]: whether a thread is blocked or how long it ran, from
//!   `/proc`: how the standby tells a long call from a descheduled leader,
//!   and the Python runtime's pool a blocked worker from a computing one.
//!
//! Every rule of the protocol (decoding, describe, re-sent calls,
//! cancellation, checking results) is `flow_protocol`'s; this crate only runs
//! handlers and moves lines. The protocol types a handler meets are
//! re-exported, so a generated package depends on this crate alone.

// Warn, so a local build with a missing doc still runs; `make lint` (clippy
// -D warnings) turns the warning into a failure.
#![warn(missing_docs)]

pub(crate) mod batch_writer;
pub mod codec;
pub(crate) mod pace;
pub(crate) mod schedule;
pub(crate) mod stdio;
pub mod thread_state;
mod toolkit;

pub use flow_protocol::{HandlerResult, StartedCall};
pub use stdio::{Bounds, Handler, StdioServer};
pub use toolkit::{
    block_on, handle, handle_typed, serve_process, server, typed_server, Args, Call, Cancelled, Codec, TypedArgs,
};
