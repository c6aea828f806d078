//! flow-gen: code generation from Flow tools listings, and the utility
//! commands of the `flow-gen` CLI. A library so that the Python and Node
//! packages ship the same command compiled into their native modules.

pub mod cli;
pub mod commands;
pub mod generate;
pub mod generate_command;
pub mod manifest_update;
pub mod naming;
pub mod runtime_source;
