//! Shared pieces of the benchmarks: a deterministic corpus and a timer.

pub mod corpus;
pub mod report;
pub mod timing;
