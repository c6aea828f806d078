//! Test support shared by flow-core's property tests and the hardening
//! runners: random Flow types and values (every type form, generics,
//! recursion), random JSON texts (hostile but valid, and broken), hostile
//! messages past every limit, and peak-memory readings.
//!
//! A crate of its own (not a `flow-core` feature) so that binaries can use it
//! while flow-core's public API carries no test code.

pub mod agreement;
pub mod hostile;
pub mod listing;
pub mod random_json;
pub mod random_listing;
pub mod random_types;
pub mod random_values;
pub mod rng;
pub mod rss;

pub use rng::Rng;
