//! Type descriptions (`host-boundary.md`, "Type descriptions"; `decisions.md`
//! sections 2a, 5, 6): the model of terms and templates, tools listings,
//! TypeSpecs and generic call views.
//!
//! - `model`: the Rust shapes of terms, templates, listings, TypeSpecs, views.
//! - [`parse`]: reading them from JSON with exact object shapes.
//! - [`write`](mod@write): writing them back to JSON (and short type text for messages).
//! - [`validate`]: every structural rule (names, owners, arity, reachability,
//!   expanding recursion, identities), with the rules of its own in
//!   [`identity`] (format, uniqueness), [`reach`] (reachability, one Tool's
//!   TypeSpec) and [`recursion`] (expanding cycles).
//! - [`view`]: the agreement of a call view with the served TypeSpec.
//! - `hint`: the fix a listing refusal says for the common mistakes
//!   (type text such as `"Option<Text>"`, a declaration or type parameter by
//!   name, a null err, a misspelt member or tag).
//! - [`crossing`](mod@crossing): which types can cross at all (no function,
//!   Task or nondata type inside, no host token in a Set element or a Dict
//!   key), decided on the type, whatever the value.
//!
//! Where the spec is silent, these choices hold (tests in `core/tests/types/`
//! pin each):
//! - A term that is none of the forms (an unknown tag, a Dict without exactly
//!   two terms, a Tuple with fewer than two) is `UnknownTerm` at the term's own
//!   object. The object under a Named, Param or Function tag is held to its
//!   exact shape like other metadata: `Shape` at an unknown or mistyped member
//!   (`$.ok.Named.args`, a Param index of `-1`, `1.5` or `true`), or at the
//!   object when a member is missing. A Param index too large for any owner is
//!   well formed and refused as `ParamIndex`.
//! - `lexical_ordinal` past `u64` is a `Shape` refusal.
//! - A data version is `MAJOR.MINOR` (decimal, no leading zeros); any `0.x` is
//!   read; a malformed one and another major are both `Version` at `$.data`,
//!   and the version is looked at before any shape error.
//! - Empty names (type parameters, parameters, bindings, fields, constructors)
//!   are `Invalid`. An empty Named declaration is `Unresolved`; an empty local
//!   id as a declarations key is `Shape`.
//! - Identities equal also after removing versions are `Identity` at the
//!   later one's `.tool` or `.identity`; Tools count before declarations.
//!   Call views do not require unique identities (caller-private
//!   same-spelling declarations stay distinct), but a served identity may be
//!   claimed by one view template only (`ViewMismatch`, at `.identity`).
//! - View templates match served ones by identity without version, since the
//!   fingerprint ignores versions; `opaque` and `kind` must agree too.
//! - Expanding recursion is reported at the Named term that passes the
//!   expanding argument.
//! - Order of refusals: data version, shapes (whole document), then Tools in
//!   order, declarations in key order, reachability, expanding recursion.

pub mod crossing;
mod hint;
pub mod identity;
mod model;
pub mod parse;
pub mod reach;
pub mod recursion;
mod rules;
pub mod validate;
pub mod view;
mod walk;
pub mod write;

pub use crossing::{crossing, tool_crossing};
pub use identity::check_identity;
pub use model::*;
pub use parse::{
    call_view_from_json, check_data_version, listing_from_json, listing_from_text, term_from_json, term_from_json_in,
    type_spec_from_json, DATA_VERSION,
};
pub use reach::reachable;
pub use validate::{validate_call_view, validate_listing, validate_type_spec};
pub use view::check_call_view;
pub use write::{call_view_to_json, listing_to_json, template_to_json, term_to_json, type_spec_to_json};
