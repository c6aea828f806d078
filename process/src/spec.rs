//! How to start a child process.

use std::path::PathBuf;

/// A child's command: no shell, every word given.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ProcessSpec {
    /// The program to run, found on PATH when it has no `/`.
    pub program: String,
    /// The arguments, each one word.
    pub args: Vec<String>,
    /// The working directory (a Tool's: its manifest's directory).
    pub dir: PathBuf,
    /// Variables set for the child on top of this process's environment.
    pub env: Vec<(String, String)>,
}

impl ProcessSpec {
    /// `program` with `args`, run in `dir`, with this process's environment.
    pub fn new(program: impl Into<String>, args: Vec<String>, dir: impl Into<PathBuf>) -> ProcessSpec {
        ProcessSpec { program: program.into(), args, dir: dir.into(), env: Vec::new() }
    }

    /// The command as a person would type it, for messages.
    pub fn display(&self) -> String {
        std::iter::once(&self.program).chain(&self.args).cloned().collect::<Vec<_>>().join(" ")
    }
}
