//! `flow_core::json`, one file per module exercised: `read` (RFC 8259
//! conformance with JSONTestSuite, the reader's events) and `canonical` (the
//! streaming canonical writer against the tree).

mod canonical;
mod read;
