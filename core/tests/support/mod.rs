//! Helpers shared by the integration tests. Each test crate uses a different
//! subset, hence the allowance.
#![allow(dead_code)]

pub mod random_types;
pub mod weather_model;
