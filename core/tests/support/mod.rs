//! Helpers shared by the integration tests. Each test crate uses a different
//! subset, hence the allowance.
#![allow(dead_code)]

pub mod weather_model;
