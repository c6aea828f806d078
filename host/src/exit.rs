//! flow-host's exit statuses: one per outcome of `call`, so a script can
//! branch on each, and one for a command that could not be understood or
//! configured, which prints no outcome.

use std::process::ExitCode;

use flow_protocol::CallOutcome;

/// The outcome was Ok.
pub const OK: u8 = 0;
/// The outcome was Failed, the declared error (`check`: some Tool is not bound).
pub const FAILED: u8 = 1;
/// The outcome was NotRun: the call definitely did not happen.
pub const NOT_RUN: u8 = 2;
/// The outcome was Unknown: the call may or may not have happened.
pub const UNKNOWN: u8 = 3;
/// The outcome was BadReply: the reply did not decode at the declared type.
pub const BAD_REPLY: u8 = 4;
/// Usage or configuration: bad flags, an unreadable listing or flow.toml, a
/// missing --manifest. Nothing is printed on stdout (BSD's EX_USAGE).
pub const USAGE: u8 = 64;

/// The text `--help` ends with.
pub const HELP: &str = "\
Exit status: 0 Ok, 1 Failed, 2 NotRun, 3 Unknown, 4 BadReply, each with the
outcome printed as one line of JSON on stdout ({\"NotRun\":\"reason\"} for a call
refused before it was sent: an unknown Tool, args that do not decode, a Tool
that is not bound or does not fit); 64 for a usage or configuration error (bad
flags, an unreadable listing or flow.toml, a missing --manifest), with no
outcome printed, the reason on stderr.";

/// The exit status of an outcome.
pub fn of(outcome: &CallOutcome) -> ExitCode {
    ExitCode::from(match outcome {
        CallOutcome::Ok(_) => OK,
        CallOutcome::Failed(_) => FAILED,
        CallOutcome::NotRun(_) => NOT_RUN,
        CallOutcome::Unknown(_) => UNKNOWN,
        CallOutcome::BadReply(_) => BAD_REPLY,
    })
}
