//! Conversions between Rust types and [`Value`]s: what generated Rust Tools use
//! so that an author never decodes or encodes by hand (`host-boundary.md`,
//! "Toolkits").
//!
//! Decoding and the canonical text stay where they are: the server core
//! decodes args into [`Value`]s at the declared types and writes results from
//! [`Value`]s, checked at the declared types. This module only moves values
//! between that model and Rust types, so a generated type encodes to exactly
//! the canonical text of the core.
//!
//! | Flow | Rust |
//! |---|---|
//! | Int | [`BigInt`] |
//! | Decimal | [`BigDecimal`] (normalized when decoded) |
//! | Text, Bool, Bytes, Unit | `String`, `bool`, `Vec<u8>`, `()` |
//! | Instant, Duration | [`Instant`], [`Duration`] |
//! | json.Value | [`Json`] |
//! | Never | [`Never`] |
//! | List, Set, Dict, Option, tuples | `Vec`, `BTreeSet`, `BTreeMap`, `Option`, tuples of 2 to 12 |
//! | a host token | [`HostToken`] |
//! | a generic Tool's type parameter | [`GenericValue`] (JSON), in [`ContextSet`] and [`ContextDict`] |
//! | records, enums | generated structs and enums, with generated impls |
//!
//! A generated Tool's nongeneric calls skip the values on the way in:
//! [`FromJson`] decodes the args' JSON straight into these types, with the
//! core decoder's own rules (`flow_core::decode::rules` holds them for both).
//!
//! The Rust order of these types (`Ord`) is the order of `decisions.md`
//! section 3 wherever they have one, so `BTreeSet` iterates in the order a Set
//! is encoded in; the core checks that before anything is written.
//!
//! A typed value can also write its canonical text itself ([`CanonicalText`]),
//! the same bytes without the [`Value`] tree: a generated Tool's reply takes
//! that way for a nongeneric call.

mod canonical_text;
mod containers;
mod from_json;
mod host_token;
mod json_records_and_enums;
mod names;
mod records_and_enums;
mod scalars;
mod type_params;

pub use canonical_text::{write_member, write_value, CanonicalText, NeedsCheck, Written};
pub use from_json::FromJson;
pub use host_token::HostToken;
pub use json_records_and_enums::{JsonConstructor, JsonFields, JsonParts};
pub use records_and_enums::{constructor, named, positional, record, Constructor, Fields, Parts};
pub use type_params::{resolve, ContextDict, ContextSet, GenericValue};

pub use bigdecimal::BigDecimal;
pub use flow_core::error::{Error, Result};
pub use flow_core::json::Json;
pub use flow_core::time::{Duration, Instant};
pub use flow_core::value::{EnumPayload as Payload, Value};
pub use num_bigint::BigInt;

/// Flow's Never: a type without values. `Result<T, Never>` is a Tool that
/// cannot fail in a declared way.
pub type Never = std::convert::Infallible;

/// Builds a Rust value from a [`Value`] of its type.
///
/// The value comes from the core's decoding, so it is of the declared type; a
/// refusal here means the Rust type and the declared type disagree.
pub trait FromValue: Sized {
    /// The Rust value of `value`, or a refusal naming where the types disagree.
    fn from_value(value: Value) -> Result<Self>;
}

/// Turns a Rust value into the [`Value`] of its type. Infallible: whether the
/// value is of the declared type (a set in order, say) is checked by the core
/// before it is written.
pub trait IntoValue {
    /// The [`Value`] of this Rust value.
    fn into_value(self) -> Value;

    /// Whether this type is Text. A Dict keyed by Text is a JSON object (an
    /// empty one is `{}`), every other Dict an array of pairs (`[]`), so a
    /// map's encoding depends on its key type even when it is empty.
    const IS_TEXT: bool = false;
}

/// The refusal of a value of another shape than the Rust type expects.
pub(crate) fn mismatch(expected: &str, found: &Value) -> Error {
    Error::new(flow_core::error::Rule::Type, format!("expected {expected}, found {}", found.kind()))
}
