//! flow-core: the host boundary of the Flow language in one library.
//!
//! Where each rule of `host-boundary.md` and `decisions.md` lives:
//! - [`json`]: JSON reading (RFC 8259, limits: `json::read`, which any sink builds from) and "The canonical form" of any JSON.
//! - [`number`]: exact numbers and their canonical text.
//! - [`limits`]: the limits of `decisions.md` section 2.
//! - [`error`]: refusals, with their JSON path and rule.
//! - [`types`]: "Type descriptions": terms, templates, listings, TypeSpecs, call views.
//! - [`value`]: the value model, the order of `decisions.md` section 3, canonical text of values.
//! - [`time`], [`base64`]: Instant, Duration and Bytes encodings of `decisions.md` section 1.
//! - [`plan`]: type terms resolved against declarations, generic arguments substituted.
//! - [`decode`]: "Decoding": typed decoding of JSON text.
//! - [`check`]: a value checked against its type before it is encoded.
//! - [`codec`]: Rust types to and from values, for generated Rust Tools.
//! - [`schema`]: "Schemas" and `decisions.md` section 4.
//! - [`fingerprint`]: "Identity and fingerprints": signatures, fingerprints, describe entries.
//! - [`protocol`]: "The Tool process protocol": messages, outcomes and the server runtime toolkits share.
//! - [`toolkit`]: the runtime of generated Rust Tools: call context, executor, serving.
//! - [`manifest`]: flow.toml and the nearest-manifest rule.
//! - [`suggest`]: the nearest known name to a misspelt one, for refusals that say the fix.
//! - [`mcp`]: MCP's messages, a client session, and the MCP adapter.

// Warn, so a local build with a missing doc still runs; `make lint` (clippy
// -D warnings) turns the warning into a failure.
#![warn(missing_docs)]

pub mod base64;
pub mod check;
pub mod codec;
pub mod decode;
pub mod error;
pub mod fingerprint;
pub mod json;
pub mod limits;
pub mod manifest;
pub mod mcp;
pub mod number;
pub mod plan;
pub mod protocol;
pub mod schema;
pub mod suggest;
pub mod time;
pub mod toolkit;
pub mod types;
pub mod value;

#[cfg(test)]
mod test_rng;

pub use error::{Error, Path, Result, Rule};
pub use json::Json;
pub use limits::Limits;
pub use number::Number;
pub use value::Value;
