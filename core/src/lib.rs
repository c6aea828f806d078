//! flow-core: the host boundary of the Flow language in one library.
//!
//! Where each rule of `host-boundary.md` and `decisions.md` lives:
//! - [`json`]: JSON reading (RFC 8259, limits) and "The canonical form".
//! - [`number`]: exact numbers and their canonical text.
//! - [`limits`]: `decisions.md` section 2.
//! - [`error`]: refusals, with their JSON path and rule.

pub mod error;
pub mod fingerprint;
pub mod json;
pub mod limits;
pub mod number;
pub mod schema;
pub mod types;

pub use error::{Error, Path, Result, Rule};
pub use json::Json;
pub use limits::Limits;
pub use number::Number;
