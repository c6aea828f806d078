//! The Tool process protocol (`host-boundary.md`, "The Tool process protocol";
//! `decisions.md` section 7): JSON-RPC 2.0, one message per line.
//!
//! Placeholder; the design is written down below once the server lands.

pub mod cancel;
pub mod framing;
pub mod message;
pub mod outcome;
pub mod server;
pub mod skim;

pub use cancel::CancelToken;
pub use framing::{Frame, LineReader};
pub use message::{CallKey, Incoming};
pub use outcome::{CallOutcome, Outcome};
pub use server::{CallTypes, Event, GenericCall, HandlerResult, ServedEntry, ServerCore, StartedCall};
