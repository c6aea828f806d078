//! Which protocol a Tool process speaks on its stdio: the Flow Tool process
//! protocol ([`ServerCore`] itself) or MCP (`flow_mcp::front::McpFront`,
//! wrapping it). A driver holds a `Box<dyn Front>` and calls the same
//! methods either way, and either way a call starts as the same
//! [`Event::Start`], so each toolkit's handler dispatch serves both: choosing
//! MCP is choosing a front, not rewriting a rule.
//!
//! [`Front`] is a trait so that this module names no protocol but its own:
//! the MCP front implements it where it lives, and the choice of a front for
//! a [`FrontKind`] (`flow_mcp::front::front_for`) sits above both.
//!
//! The command line chooses ([`FrontKind::from_args`]), one rule for every
//! toolkit's runtime: no argument is the Flow protocol, `--mcp` is MCP.

use flow_core::limits::Limits;

use super::framing::Frame;
use super::message::CallKey;
use super::server::{Event, HandlerResult, ServerCore};

/// How to run a Tool process, for a usage line.
pub const USAGE: &str = "usage: TOOL [--mcp]
  (no argument)  speak the Flow Tool process protocol on stdin and stdout
  --mcp          serve the Tools to MCP clients on stdin and stdout";

/// Which protocol a process speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontKind {
    /// The Tool process protocol of `host-boundary.md`.
    Flow,
    /// MCP, serving the Tools to MCP clients.
    Mcp,
}

impl FrontKind {
    /// From a Tool process's arguments (the program name left out). `Err`
    /// holds the usage, naming what was not understood.
    pub fn from_args<I, S>(args: I) -> std::result::Result<FrontKind, String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let args: Vec<S> = args.into_iter().collect();
        match args.iter().map(AsRef::as_ref).collect::<Vec<&str>>()[..] {
            [] => Ok(FrontKind::Flow),
            ["--mcp"] => Ok(FrontKind::Mcp),
            ref other => Err(format!("not understood: {}\n{USAGE}", other.join(" "))),
        }
    }
}

/// A server core, speaking one protocol: what a driver reads lines into and
/// finishes calls through.
pub trait Front: Send {
    /// The protocol it speaks.
    fn kind(&self) -> FrontKind;

    /// The core: the served Tools, the limits, the running calls.
    fn core(&self) -> &ServerCore;

    /// The core, given back (to speak another protocol before anything was read).
    fn into_core(self: Box<Self>) -> ServerCore;

    /// Reads one line (without its `\n`).
    fn receive(&mut self, line: &[u8]) -> Vec<Event>;

    /// Reads one frame of a [`super::framing::LineReader`].
    fn receive_frame(&mut self, frame: Frame) -> Vec<Event>;

    /// The lines answering a started call whose handler returned.
    fn finish(&mut self, key: &CallKey, result: HandlerResult) -> Vec<String>;

    /// The core's reading limits.
    fn limits(&self) -> &Limits {
        self.core().limits()
    }

    /// Sets every running call's cancel token (for a driver shutting down).
    fn cancel_all(&self) {
        self.core().cancel_all();
    }
}

impl Front for ServerCore {
    fn kind(&self) -> FrontKind {
        FrontKind::Flow
    }

    fn core(&self) -> &ServerCore {
        self
    }

    fn into_core(self: Box<Self>) -> ServerCore {
        *self
    }

    fn receive(&mut self, line: &[u8]) -> Vec<Event> {
        ServerCore::receive(self, line)
    }

    fn receive_frame(&mut self, frame: Frame) -> Vec<Event> {
        ServerCore::receive_frame(self, frame)
    }

    fn finish(&mut self, key: &CallKey, result: HandlerResult) -> Vec<String> {
        ServerCore::finish(self, key, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_chooses() {
        assert_eq!(FrontKind::from_args(Vec::<String>::new()), Ok(FrontKind::Flow));
        assert_eq!(FrontKind::from_args(["--mcp"]), Ok(FrontKind::Mcp));
        let err = FrontKind::from_args(["--mcp", "extra"]).unwrap_err();
        assert!(err.starts_with("not understood: --mcp extra\nusage: TOOL [--mcp]"), "{err}");
        assert!(FrontKind::from_args(["--MCP"]).is_err());
    }
}
