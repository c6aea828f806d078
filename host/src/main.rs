//! flow-host: run and check Tool processes from the command line, through the
//! flow-core host client. Results go to stdout; refusals and the host's log
//! to stderr.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use flow_core::host::{Connection, Host, HostOptions, ProcessSpec, Resolver};
use flow_core::json::{self, Json};
use flow_core::protocol::CallKey;
use flow_core::types::parse::{listing_from_text, term_from_json};
use flow_core::types::{Listing, Term};
use flow_core::Limits;

const MANIFEST_HELP: &str = "\
How Tools are bound: a Tool identity's FILE part is its flow.toml table key
(REPO@VERSION/FILE.NAME -> FILE; PATH.NAME -> PATH). With --manifest DIR,
DIR/flow.toml binds every Tool of the listing and commands run in DIR.
Without it, a local identity (PATH.NAME) uses the nearest flow.toml in PATH's
directory or above (an absent table there leaves it unbound; no further search),
and a repository identity is unbound.";

#[derive(Parser)]
#[command(name = "flow-host", version, about = "Run and check Flow Tool processes", after_help = MANIFEST_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start a Tool process, describe it and print what it serves: one line per
    /// Tool, identity and fingerprint (--json: the describe result).
    Describe {
        /// Print the describe result as canonical JSON.
        #[arg(long)]
        json: bool,
        /// The command and its arguments, run as given (no shell), after `--`.
        #[arg(last = true, required = true, num_args = 1..)]
        command: Vec<String>,
    },
    /// Bind LISTING's Tools through flow.toml, call TOOL once and print its
    /// outcome as canonical JSON: exit 0 for Ok, 1 for anything else.
    #[command(after_help = MANIFEST_HELP)]
    Call {
        /// The tools listing (`flow tools` output).
        listing: PathBuf,
        /// The Tool's identity, or its NAME when that is unique in the listing.
        tool: String,
        /// The args object, keyed by parameter name.
        #[arg(long)]
        args: String,
        /// The directory holding the flow.toml to bind through.
        #[arg(long)]
        manifest: Option<PathBuf>,
        /// The run id sent with the call.
        #[arg(long, default_value = "flow-host")]
        run: String,
        /// The call id sent with the call.
        #[arg(long = "call", default_value = "1")]
        call_id: String,
        /// A generic Tool's type argument NAME=TERM, TERM a type term as JSON
        /// resolved in LISTING (e.g. T='"Int"'); once per type parameter.
        #[arg(long = "type-arg")]
        type_args: Vec<String>,
    },
    /// Bind every Tool of LISTING through flow.toml: exit 0 when each is bound
    /// and fits, else 1, listing each Tool that is not and why.
    #[command(after_help = MANIFEST_HELP)]
    Check {
        listing: PathBuf,
        #[arg(long)]
        manifest: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Describe { json, command } => describe(json, command),
        Command::Call { listing, tool, args, manifest, run, call_id, type_args } => {
            call(&listing, &tool, &args, manifest, CallKey::new(run, call_id), &type_args)
        }
        Command::Check { listing, manifest } => check(&listing, manifest),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("flow-host: {message}");
            ExitCode::FAILURE
        }
    }
}

fn describe(as_json: bool, mut command: Vec<String>) -> Result<ExitCode, String> {
    let program = command.remove(0);
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    let connection = Connection::new(ProcessSpec { program, args: command, dir }, HostOptions::default());
    let described = connection.describe()?;
    connection.stop();
    if as_json {
        println!("{}", described.raw.to_canonical());
    } else {
        let width = described.tools.keys().map(String::len).max().unwrap_or(0).max("TOOL".len());
        println!("data {}", described.data);
        println!("{:width$}  FINGERPRINT", "TOOL");
        for tool in described.tools.values() {
            println!("{:width$}  {}", tool.tool, tool.fingerprint);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn load_listing(path: &std::path::Path) -> Result<Listing, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    listing_from_text(&bytes, &Limits::default()).map_err(|e| format!("{}: {e}", path.display()))
}

fn resolver(manifest: Option<PathBuf>) -> Resolver {
    Resolver { manifest_dir: manifest, ..Resolver::default() }
}

fn bind(listing: &Listing, manifest: Option<PathBuf>) -> Result<Host, String> {
    Host::bind(listing, &resolver(manifest), HostOptions::default()).map_err(|refusals| {
        let lines: Vec<String> = refusals.iter().map(ToString::to_string).collect();
        format!("not every Tool is bound:\n  {}", lines.join("\n  "))
    })
}

fn call(listing_path: &std::path::Path, tool: &str, args: &str, manifest: Option<PathBuf>, key: CallKey, type_args: &[String]) -> Result<ExitCode, String> {
    let listing = load_listing(listing_path)?;
    let decl = match listing.tool(tool) {
        Some(decl) => decl,
        None => {
            let mut named = listing.tools.iter().filter(|t| t.name() == tool);
            match (named.next(), named.next()) {
                (Some(decl), None) => decl,
                (Some(_), Some(_)) => return Err(format!("{tool} names several Tools of the listing: give the identity")),
                (None, _) => return Err(format!("no Tool {tool} in {}", listing_path.display())),
            }
        }
    };
    let args = json::parse_str(args, &Limits::default()).map_err(|e| format!("--args: {e}"))?;
    let terms = type_terms(&decl.generic, type_args)?;
    let identity = decl.tool.clone();
    let host = bind(&listing, manifest)?;
    let handle = host.call_with(&identity, key, &args, &terms).map_err(|e| format!("the call was not made: {e}"))?;
    let outcome = handle.wait();
    println!("{}", outcome.to_canonical());
    Ok(if outcome.is_ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `--type-arg NAME=TERM` values, in the Tool's type parameter order.
fn type_terms(generic: &[String], type_args: &[String]) -> Result<Vec<Term>, String> {
    let mut given: Vec<(String, Term)> = Vec::new();
    for arg in type_args {
        let (name, text) = arg.split_once('=').ok_or_else(|| format!("--type-arg {arg}: expected NAME=TERM"))?;
        let json: Json = json::parse_str(text, &Limits::default()).map_err(|e| format!("--type-arg {name}: {e}"))?;
        let term = term_from_json(&json).map_err(|e| format!("--type-arg {name}: {e}"))?;
        given.push((name.to_owned(), term));
    }
    if let Some((extra, _)) = given.iter().find(|(n, _)| !generic.contains(n)) {
        return Err(format!("--type-arg {extra}: the Tool has no such type parameter"));
    }
    generic
        .iter()
        .map(|name| {
            given.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone()).ok_or_else(|| format!("the Tool is generic: give --type-arg {name}=TERM"))
        })
        .collect()
}

fn check(listing_path: &std::path::Path, manifest: Option<PathBuf>) -> Result<ExitCode, String> {
    let listing = load_listing(listing_path)?;
    match Host::bind(&listing, &resolver(manifest), HostOptions::default()) {
        Ok(_) => {
            println!("ok: {} Tools bound and fitting", listing.tools.len());
            Ok(ExitCode::SUCCESS)
        }
        Err(refusals) => {
            for refusal in &refusals {
                println!("{refusal}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
