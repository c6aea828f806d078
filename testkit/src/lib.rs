//! Test support shared by flow-core's property tests and the hardening
//! runners: random Flow types and values (every type form, generics,
//! recursion) and random JSON texts (hostile but valid, and broken).
//!
//! A crate of its own (not a `flow-core` feature) so that binaries can use it
//! while flow-core's public API carries no test code.

pub mod listing;
pub mod random_json;
pub mod random_types;
pub mod random_values;
pub mod rng;

pub use rng::Rng;
