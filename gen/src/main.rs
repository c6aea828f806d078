//! flow-gen: the command line of flow-toolkit.
//!
//! Utility subcommands (`check`, `fingerprint`, `signature`, `canonical`,
//! `decode`) print their result on stdout; a refusal exits with status 1 and
//! one line on stderr naming the path and the rule.

mod commands;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "flow-gen", version, about = "Validate Flow tools listings, compute fingerprints, canonicalize and decode values")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate a tools listing; prints `ok`.
    Check {
        /// The tools listing (`flow tools` output).
        listing: PathBuf,
    },
    /// Print `IDENTITY FINGERPRINT`, one line per Tool.
    Fingerprint {
        listing: PathBuf,
        /// Only this Tool (its identity).
        #[arg(long)]
        tool: Option<String>,
    },
    /// Print a Tool's signature as canonical text: the describe form (docs and
    /// versions kept), or with --stripped the canonical signature that is hashed.
    Signature {
        listing: PathBuf,
        #[arg(long)]
        tool: String,
        #[arg(long)]
        stripped: bool,
    },
    /// Print the canonical text of any JSON (stdin without FILE).
    Canonical { file: Option<PathBuf> },
    /// Decode a value at a type and print its canonical text (stdin without FILE).
    Decode {
        listing: PathBuf,
        /// The type term as JSON, e.g. '{"List":"Int"}' or
        /// '{"Named":{"declaration":"1","args":[]}}' (resolved in LISTING).
        #[arg(long = "type")]
        ty: String,
        file: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { listing } => commands::check(&listing),
        Command::Fingerprint { listing, tool } => commands::fingerprint(&listing, tool.as_deref()),
        Command::Signature { listing, tool, stripped } => commands::signature(&listing, &tool, stripped),
        Command::Canonical { file } => commands::canonical(file.as_deref()),
        Command::Decode { listing, ty, file } => commands::decode(&listing, &ty, file.as_deref()),
    };
    match result {
        Ok(output) => {
            print!("{output}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("flow-gen: {message}");
            ExitCode::FAILURE
        }
    }
}
