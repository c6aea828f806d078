//! The flow-gen command line, as a library so that the Python and Node packages
//! can ship the same command inside their native modules.
//!
//! `flow-gen --lang LANG [LISTING] [--out DIR] [--check] [--no-manifest | --rebind] [--flow-runtime-path PATH]`
//! generates a Tool package (see `generate`). Utility subcommands (`check`,
//! `fingerprint`, `signature`, `canonical`, `decode`) print their result on
//! stdout; a refusal exits with status 1 and one line on stderr naming the path
//! and the rule.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::{commands, generate_command};

#[derive(Parser)]
#[command(
    name = "flow-gen",
    version,
    about = "Generate Flow Tool packages; validate listings, compute fingerprints, canonicalize and decode values",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    generate: GenerateArgs,
}

/// Code generation.
#[derive(clap::Args)]
struct GenerateArgs {
    /// The language to generate.
    #[arg(long, value_enum)]
    lang: Option<generate_command::Lang>,
    /// The tools listing. Without it, the listing piped on stdin
    /// (`flow tools | flow-gen --lang python`), else `flow.tools.json`.
    listing: Option<PathBuf>,
    /// The package folder to write. Default: PROJECT_tools (Python),
    /// PROJECT-tools (TypeScript, Rust), PROJECT being the repository's name.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write nothing; exit 1 naming every generated file that is not what
    /// generation would write (for CI in Tool repositories).
    #[arg(long)]
    check: bool,
    /// Do not add or update the flow.toml tables that bind the package.
    #[arg(long)]
    no_manifest: bool,
    /// Rebind a flow.toml table that runs another command (another
    /// language's package, an MCP server) to this package. Without it such a
    /// table is refused, naming it and its command, and nothing is written.
    #[arg(long, conflicts_with = "no_manifest")]
    rebind: bool,
    /// Rust: the Tool runtime (flow-toolkit-runtime) the generated Cargo.toml
    /// depends on, as a path relative to the package folder (default: from crates.io at
    /// this flow-gen's version). Only a new Cargo.toml is written with it.
    #[arg(long, value_name = "PATH")]
    flow_runtime_path: Option<String>,
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

/// Runs flow-gen with `args` (the first is the program name) and returns the
/// exit status. Output goes to stdout and stderr.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are "errors" that print and succeed.
            let _ = e.print();
            return e.exit_code();
        }
    };
    let result = match cli.command {
        None => match cli.generate.lang {
            Some(lang) => generate_command::run(
                lang,
                cli.generate.listing.as_deref(),
                cli.generate.out.as_deref(),
                &generate_command::Options {
                    check: cli.generate.check,
                    no_manifest: cli.generate.no_manifest,
                    runtime_path: cli.generate.flow_runtime_path,
                    rebind: cli.generate.rebind,
                },
            ),
            None => Err("nothing to do: pass --lang LANG to generate, or a subcommand (see --help)".to_owned()),
        },
        Some(Command::Check { listing }) => commands::check(&listing),
        Some(Command::Fingerprint { listing, tool }) => commands::fingerprint(&listing, tool.as_deref()),
        Some(Command::Signature { listing, tool, stripped }) => commands::signature(&listing, &tool, stripped),
        Some(Command::Canonical { file }) => commands::canonical(file.as_deref()),
        Some(Command::Decode { listing, ty, file }) => commands::decode(&listing, &ty, file.as_deref()),
    };
    match result {
        Ok(output) => {
            print!("{output}");
            0
        }
        Err(message) => {
            eprintln!("flow-gen: {message}");
            1
        }
    }
}
