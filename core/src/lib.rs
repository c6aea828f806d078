//! flow-core: the rules of the Flow language's host boundary, with no IO:
//! every other flow-toolkit crate is built on them.
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
//! - [`schema`]: "Schemas" and `decisions.md` section 4.
//! - [`fingerprint`]: "Identity and fingerprints": signatures, fingerprints, describe entries.
//! - [`manifest`]: flow.toml and the nearest-manifest rule.
//! - [`suggest`]: the nearest known name to a misspelt one, for refusals that say the fix.
//!
//! Built on it: the Tool process protocol (`flow_protocol`), MCP
//! (`flow_mcp`), the runtime of Rust Tools (`flow_runtime`), the host client
//! (`flow_host`).

// Warn, so a local build with a missing doc still runs; `make lint` (clippy
// -D warnings) turns the warning into a failure.
#![warn(missing_docs)]

pub mod base64;
pub mod check;
pub mod decode;
pub mod error;
pub mod fingerprint;
pub mod json;
pub mod limits;
pub mod manifest;
pub mod number;
pub mod plan;
pub mod schema;
pub mod suggest;
pub mod time;
pub mod types;
pub mod value;

pub use error::{Error, Path, Result, Rule};
pub use json::Json;
pub use limits::Limits;
pub use number::Number;
pub use value::Value;
