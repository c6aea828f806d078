//! Type descriptions (`host-boundary.md`, "Type descriptions"; `decisions.md`
//! sections 2a, 5, 6): the model of terms and templates, tools listings,
//! TypeSpecs and generic call views.
//!
//! - [`model`]: the Rust shapes of terms, templates, listings, TypeSpecs, views.
//! - [`parse`]: reading them from JSON with exact object shapes.
//! - [`validate`]: every structural rule (names, owners, arity, reachability,
//!   expanding recursion, identities) and the agreement of a call view with the
//!   served TypeSpec.

pub mod model;

pub use model::*;
