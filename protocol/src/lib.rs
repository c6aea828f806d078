//! flow-protocol: the Tool process protocol (`host-boundary.md`, "The Tool
//! process protocol"; `decisions.md` section 7), sans-IO: JSON-RPC 2.0 on a
//! process's stdin and stdout, one message per line. The implementation side
//! every toolkit serves through, and the message and outcome rules the host
//! side (`flow_host`) reads replies with. No threads, no clocks, no reading:
//! the drivers that own IO are the runtime's (`flow_runtime`) and each
//! binding's.
//!
//! # Design: one server core, many drivers
//!
//! Every rule of the protocol lives once, in Rust, and every toolkit (Rust
//! now; Python through pyo3 and Node through napi) serves through it:
//!
//! ```text
//!   stdin ──► framing ──► ServerCore::receive(line) ──► Vec<Event>
//!             (bounded      │ message: strict reading, JSON-RPC errors
//!              lines)       │ describe from generated metadata
//!                           │ args decoded at the declared types,
//!                           │ generic views checked  (else NotRun)
//!                           │ (run, call) bookkeeping, cancel tokens
//!                           ▼
//!        Event::Write(line) → write it whole
//!        Event::Start(call) → run the author's handler (the language's part)
//!        Event::Cancel(key) → the token is already set; tell the handler if it
//!                             needs more than the token
//!        Event::Log(text)   → stderr
//!
//!   handler returns ──► ServerCore::finish(key, result) ──► reply line(s)
//!                       (checked at the declared type, else Unknown)
//! ```
//!
//! [`server::ServerCore`] is sans-IO: no threads, no clocks, no reading. A
//! driver owns IO and decides how handlers run. It drives a [`Front`]: the
//! core itself, or the core wrapped to speak MCP (`flow_mcp::front`),
//! which starts calls with the same `Start` and only writes replies
//! otherwise; `--mcp` on a Tool process's command line chooses it. `flow_runtime::StdioServer` is the
//! driver for Rust handlers (a call runs on the thread that read it, within set bounds; one batching writer). A binding
//! reuses the same core from its own event loop: Python would read stdin on a
//! thread, call `receive` for each line, and run each `Start` in an executor,
//! converting `StartedCall::args` ([`flow_core::value::Value`]s) with its generated
//! codecs and the result back into a [`server::HandlerResult`]; Node likewise
//! from libuv. Nothing about decoding, encoding, pairs or memory is written
//! twice.
//!
//! # Files
//!
//! - [`message`]: reading one line into an [`message::Incoming`]; writing every
//!   outgoing line (canonical text, one `\n`).
//! - `call_fast`: a canonical `call` line read without the envelope's tree
//!   (the full parser judges every other line).
//! - `skim`: a bounded scan that finds the (run, call) pair of a line too
//!   large or too broken to read, so such a call or reply still gets its outcome.
//! - `framing`: bounded line reading.
//! - [`outcome`]: the four outcomes on the wire, and the host's fifth, BadReply.
//! - `outgoing`: the size and depth limits a line is held to before it is sent.
//! - `cancel`: the cancellation token a handler watches.
//! - [`server`]: the sans-IO server core.
//! - `front`: which protocol a process speaks: the core itself, or MCP
//!   (`flow_mcp::front`, wrapping the core); drivers hold a [`Front`].
//! - `in_flight`: the bound on calls in flight for the Python and Node runtimes.
//! - `pair_hash`: the keyed hasher of the (run, call) maps.
//!
//! # Decided where the spec is silent
//!
//! - A line over the size limit is never read into a tree. A call line whose
//!   pair is found is NotRun; a describe or anything else is answered -32700
//!   (the JSON was not read) with id null.
//! - A JSON text that reading refuses for a limit or a duplicate key is still
//!   JSON in form, but it is treated like a line that is not: -32700, unless its
//!   pair is found (then NotRun for a call, BadReply for a reply).
//! - A JSON array (a JSON-RPC batch) is -32600: one message per line.
//! - Unknown members in the envelope or in a call's params are refused
//!   (-32600, and NotRun naming the member, respectively); so is an args member
//!   that is no parameter.
//! - `describe` takes `{}` or no params; other params are -32602.
//! - A NotRun for a call that could not start is remembered like any outcome,
//!   so a re-sent pair gets the same answer.
//! - A re-sent call that is still running is not answered twice: its one reply
//!   goes out when it ends.
//! - At stdin's end running calls are waited for, not cancelled.

// Warn, so a local build with a missing doc still runs; `make lint` (clippy
// -D warnings) turns the warning into a failure.
#![warn(missing_docs)]

pub mod args;
pub(crate) mod call_fast;
pub(crate) mod cancel;
pub(crate) mod framing;
pub(crate) mod front;
pub(crate) mod in_flight;
pub mod message;
pub mod outcome;
pub(crate) mod outgoing;
pub(crate) mod pair_hash;
pub mod server;
pub(crate) mod skim;

pub use cancel::CancelToken;
pub use framing::{Frame, LineReader};
pub use front::{Front, FrontKind};
pub use in_flight::{bound_text, InFlight, DEFAULT_IN_FLIGHT, DEFAULT_IN_FLIGHT_BYTES};
pub use message::{CallKey, Incoming};
pub use outcome::{CallOutcome, Outcome};
pub use outgoing::past_limit;
pub use server::{CallTypes, Event, GenericCall, HandlerResult, ServedEntry, ServerCore, StartedCall};
pub use skim::Skim;
