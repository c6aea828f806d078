//! Child processes, supervised: the one place that starts, stops and reaps
//! the processes the host client runs (Tool processes) and the MCP client
//! runs (MCP servers).
//!
//! - `spec`: how to start one (program, arguments, environment, directory).
//! - `child`: a started child: stdin, stdout and stderr taken apart, the
//!   child in its own process group, the whole group killed when it ends,
//!   reaped once.
//! - `lifeline`: on Linux, the child tied to this process's life, so that
//!   a SIGKILLed host or adapter leaves neither the child nor what the child
//!   started running.
//! - `stderr`: a child's stderr passed through, discarded, or read into log
//!   lines labelled with its command.
//! - `retire`: a retired child given the stop grace after its stdin is
//!   closed, then killed; the last handle waits for every retired child.
//! - `log`: where log lines go.
//!
//! The stop sequence is the one MCP's stdio transport names, without its
//! SIGTERM step: close the child's stdin, wait the stop grace, kill the group.
//! A child that exits within the grace exits as it chose; one that does not
//! is killed, and either way the group goes with it.

// Warn, so a local build with a missing doc still runs; `make lint` (clippy
// -D warnings) turns the warning into a failure.
#![warn(missing_docs)]

pub(crate) mod child;
pub(crate) mod lifeline;
pub(crate) mod log;
pub mod retire;
pub(crate) mod spec;
pub(crate) mod stderr;

pub use child::{start, Started, Supervised};
pub use log::LogSink;
pub use retire::DEFAULT_STOP_GRACE;
pub use spec::ProcessSpec;
pub use stderr::StderrMode;
