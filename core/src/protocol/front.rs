//! Which protocol a Tool process speaks on its stdio: the Flow Tool process
//! protocol ([`ServerCore`] itself) or MCP ([`McpFront`], wrapping it). A
//! driver holds a [`Front`] and calls the same four methods either way, and
//! either way a call starts as the same [`Event::Start`], so each toolkit's
//! handler dispatch serves both: choosing MCP is choosing a front, not
//! rewriting a rule.
//!
//! The command line chooses ([`FrontKind::from_args`]), one rule for every
//! toolkit's runtime: no argument is the Flow protocol, `--mcp` is MCP.

use crate::error::Result;
use crate::limits::Limits;
use crate::mcp::front::McpFront;

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
    Flow,
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

/// A server core, speaking one protocol.
pub enum Front {
    Flow(ServerCore),
    Mcp(McpFront),
}

impl From<ServerCore> for Front {
    fn from(core: ServerCore) -> Front {
        Front::Flow(core)
    }
}

impl Front {
    /// `core` speaking `kind`. Refused when the Tools cannot be served that
    /// way (two MCP tools with one name).
    pub fn new(core: ServerCore, kind: FrontKind) -> Result<Front> {
        Ok(match kind {
            FrontKind::Flow => Front::Flow(core),
            FrontKind::Mcp => Front::Mcp(McpFront::new(core)?),
        })
    }

    /// The same core, speaking `kind` from now on (nothing has been read yet).
    pub fn speak(self, kind: FrontKind) -> Result<Front> {
        Front::new(self.into_core(), kind)
    }

    fn into_core(self) -> ServerCore {
        match self {
            Front::Flow(core) => core,
            Front::Mcp(front) => front.into_core(),
        }
    }

    pub fn kind(&self) -> FrontKind {
        match self {
            Front::Flow(_) => FrontKind::Flow,
            Front::Mcp(_) => FrontKind::Mcp,
        }
    }

    /// The core: the served Tools, the limits, the running calls.
    pub fn core(&self) -> &ServerCore {
        match self {
            Front::Flow(core) => core,
            Front::Mcp(front) => front.core(),
        }
    }

    pub fn limits(&self) -> &Limits {
        self.core().limits()
    }

    /// Reads one line (without its `\n`).
    pub fn receive(&mut self, line: &[u8]) -> Vec<Event> {
        match self {
            Front::Flow(core) => core.receive(line),
            Front::Mcp(front) => front.receive(line),
        }
    }

    /// Reads one frame of a [`super::framing::LineReader`].
    pub fn receive_frame(&mut self, frame: Frame) -> Vec<Event> {
        match self {
            Front::Flow(core) => core.receive_frame(frame),
            Front::Mcp(front) => front.receive_frame(frame),
        }
    }

    /// The lines answering a started call whose handler returned.
    pub fn finish(&mut self, key: &CallKey, result: HandlerResult) -> Vec<String> {
        match self {
            Front::Flow(core) => core.finish(key, result),
            Front::Mcp(front) => front.finish(key, result),
        }
    }

    /// Sets every running call's cancel token (for a driver shutting down).
    pub fn cancel_all(&self) {
        self.core().cancel_all();
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
