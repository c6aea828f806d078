//! The runtime of generated Rust Tools (`flow-gen --lang rust`).
//!
//! A generated package holds a trait with one async method per Tool, the
//! types of its declarations with their codecs ([`crate::codec`]), and
//! metadata embedded at generation time. Its `serve` builds a [`server`] for
//! that metadata and registers one handler per Tool; each handler ([`handle`])
//! converts the args the server core decoded, runs the method with
//! [`block_on`] on the call's own thread, and turns its `Result` into the
//! reply ([`Call::reply`]). Everything else, decoding, `describe`, re-sent
//! calls, cancellation, panics (Unknown) and checking results before they are
//! written, is the protocol's ([`crate::protocol`]), shared with every other
//! toolkit.
//!
//! - [`call`](Call): what a method sees of its call: cancellation, and for a
//!   generic Tool the types view, success schema and [`Codec`]s.
//! - [`Codec`]: one concrete type's decoding, encoding, equality and order.
//! - [`block_on`]: the executor.
//! - [`server`], [`handle`], [`Args`], [`serve_process`]: what generated
//!   `serve` code calls (the last reads `--mcp` off the command line).

mod call;
mod codec;
mod executor;
mod serve;

pub use call::{Call, Cancelled};
pub use codec::Codec;
pub use executor::block_on;
pub use serve::{handle, serve_process, server, Args};

#[cfg(test)]
mod tests;
