//! Type descriptions (`host-boundary.md`, "Type descriptions"; `decisions.md`
//! sections 2a, 5, 6): the model of terms and templates, tools listings,
//! TypeSpecs and generic call views.
//!
//! - [`model`]: the Rust shapes of terms, templates, listings, TypeSpecs, views.
//! - [`parse`]: reading them from JSON with exact object shapes.
//! - [`write`]: writing them back to JSON (and short type text for messages).
//! - [`validate`]: every structural rule (names, owners, arity, reachability,
//!   expanding recursion, identities), with the rules of its own in
//!   [`identity`] (format, uniqueness), [`reach`] (reachability, one Tool's
//!   TypeSpec) and [`recursion`] (expanding cycles).
//! - [`view`]: the agreement of a call view with the served TypeSpec.

pub mod identity;
pub mod model;
pub mod parse;
pub mod reach;
mod recursion;
pub mod validate;
pub mod view;
mod walk;
pub mod write;

pub use identity::check_identity;
pub use model::*;
pub use parse::{
    call_view_from_json, check_data_version, listing_from_json, listing_from_text, term_from_json,
    type_spec_from_json, DATA_VERSION,
};
pub use reach::reachable;
pub use validate::{validate_call_view, validate_listing, validate_type_spec};
pub use view::check_call_view;
pub use write::{call_view_to_json, listing_to_json, template_to_json, term_to_json, type_spec_to_json};
