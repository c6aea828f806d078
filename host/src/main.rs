//! flow-host: run and check Tool processes from the command line, through the
//! flow-core host client. Results go to stdout; refusals and the host's log
//! to stderr. `call` exits by its outcome (`exit`), for scripts.

mod exit;
mod mcp_adapter;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use crate::mcp_adapter::serve_stdio;
use clap::{Parser, Subcommand};
use flow_core::json::{self, Json};
use flow_core::types::parse::{listing_from_text, term_from_json_in};
use flow_core::types::{Declarations, Listing, Term};
use flow_core::Limits;
use flow_host::RefusalKind;
use flow_host::{Connection, Host, HostOptions, ProcessSpec, Resolver};
use flow_mcp::client::McpOptions;
use flow_protocol::{CallKey, CallOutcome};

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
    /// Bind TOOL through flow.toml (only TOOL: the listing's other Tools need
    /// not be bound), call it once and print its outcome as one line of
    /// canonical JSON; the exit status says which outcome it was (below).
    #[command(after_help = call_help())]
    Call {
        /// The tools listing (`flow tools` output).
        listing: PathBuf,
        /// The Tool's identity, or its NAME when that is unique in the listing.
        tool: String,
        /// The args object, keyed by parameter name.
        #[arg(long)]
        args: String,
        /// The directory holding the flow.toml to bind through (needed for a
        /// repository's Tool, REPO@VERSION/FILE.NAME).
        #[arg(long, value_name = "DIR")]
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
    /// and fits, else 1, listing each Tool that is not and why (64: a usage
    /// or configuration error).
    #[command(after_help = MANIFEST_HELP)]
    Check {
        listing: PathBuf,
        /// The directory holding the flow.toml to bind through.
        #[arg(long, value_name = "DIR")]
        manifest: Option<PathBuf>,
    },
    /// Serve LISTING's Tools from an MCP server, speaking the Flow protocol on
    /// stdin and stdout: a `command` any host can bind. Each declaration is
    /// the MCP tool of its NAME; what the server cannot answer as the declared
    /// types is Unknown with a reason starting `BadReply: `.
    #[command(name = "mcp-adapter")]
    McpAdapter {
        /// The tools listing (`flow tools` output) declaring the MCP tools.
        listing: PathBuf,
        /// The MCP server's command and its arguments (no shell), after `--`.
        #[arg(last = true, required = true, num_args = 1..)]
        command: Vec<String>,
    },
}

/// `call --help`'s ending: binding, then the exit statuses.
fn call_help() -> String {
    let binding = "\
How the Tool is bound: a Tool identity's FILE part is its flow.toml table key
(REPO@VERSION/FILE.NAME -> FILE; PATH.NAME -> PATH). With --manifest DIR,
DIR/flow.toml binds it and its command runs in DIR. Without it, a local
identity (PATH.NAME) uses the nearest flow.toml in PATH's directory or above,
and a repository identity needs --manifest.";
    format!("{binding}\n\n{}", exit::HELP)
}

/// Why a command ended without its result: usage or configuration (exit 64,
/// nothing on stdout), or something else that went wrong (exit 1).
enum Refused {
    Usage(String),
    Other(String),
}

impl From<String> for Refused {
    fn from(message: String) -> Refused {
        Refused::Other(message)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version are "errors" that print and succeed.
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(exit::USAGE) } else { ExitCode::SUCCESS };
        }
    };
    let result = match cli.command {
        Command::Describe { json, command } => describe(json, command).map_err(Refused::from),
        Command::Call { listing, tool, args, manifest, run, call_id, type_args } => {
            call(&listing, &tool, &args, manifest, CallKey::new(run, call_id), &type_args)
        }
        Command::Check { listing, manifest } => check(&listing, manifest),
        Command::McpAdapter { listing, command } => mcp_adapter(&listing, command).map_err(Refused::from),
    };
    match result {
        Ok(code) => code,
        Err(Refused::Usage(message)) => {
            eprintln!("flow-host: {message}");
            ExitCode::from(exit::USAGE)
        }
        Err(Refused::Other(message)) => {
            eprintln!("flow-host: {message}");
            ExitCode::FAILURE
        }
    }
}

fn describe(as_json: bool, mut command: Vec<String>) -> Result<ExitCode, String> {
    let program = command.remove(0);
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    let connection = Connection::new(ProcessSpec::new(program, command, dir), HostOptions::default());
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

/// `--manifest DIR` must hold a flow.toml; a repository's Tools need one.
/// Said here, naming the flag, rather than as each Tool's binding refusal.
fn check_manifest(listing: &Listing, manifest: Option<&std::path::Path>) -> Result<(), Refused> {
    match manifest {
        Some(dir) if !dir.join(flow_core::manifest::FILE_NAME).is_file() => Err(Refused::Usage(format!(
            "--manifest {}: no {} there; name the directory that holds the Tools' {}",
            dir.display(),
            flow_core::manifest::FILE_NAME,
            flow_core::manifest::FILE_NAME
        ))),
        None => match listing.tools.iter().find(|t| t.tool.contains('@')) {
            Some(tool) => Err(Refused::Usage(format!(
                "{} is a repository's Tool, bound by the repository's {}: pass --manifest DIR, the directory holding it (--manifest . in the repository)",
                tool.tool,
                flow_core::manifest::FILE_NAME
            ))),
            None => Ok(()),
        },
        Some(_) => Ok(()),
    }
}

/// Prints a call's outcome and exits by it.
fn outcome(outcome: &CallOutcome) -> ExitCode {
    println!("{}", outcome.to_canonical());
    exit::of(outcome)
}

/// A call refused before it was sent: NotRun, with the reason on stderr too.
fn not_run(reason: String) -> ExitCode {
    eprintln!("flow-host: the call was not made: {reason}");
    outcome(&CallOutcome::NotRun(reason))
}

fn call(
    listing_path: &std::path::Path,
    tool: &str,
    args: &str,
    manifest: Option<PathBuf>,
    key: CallKey,
    type_args: &[String],
) -> Result<ExitCode, Refused> {
    let listing = load_listing(listing_path).map_err(Refused::Usage)?;
    let decl = match listing.tool(tool) {
        Some(decl) => decl,
        None => {
            let mut named = listing.tools.iter().filter(|t| t.name() == tool);
            match (named.next(), named.next()) {
                (Some(decl), None) => decl,
                (Some(_), Some(_)) => {
                    return Ok(not_run(format!("{tool} names several Tools of the listing: give the identity")))
                }
                (None, _) => return Ok(not_run(format!("no Tool {tool} in {}", listing_path.display()))),
            }
        }
    };
    // Only the Tool called is bound: a listing whose other Tools are unbound
    // or broken does not stop a call that reaches none of them.
    let reached = Listing { tools: vec![decl.clone()], ..listing.clone() };
    check_manifest(&reached, manifest.as_deref())?;
    let args = match json::parse_str(args, &Limits::default()) {
        Ok(args) => args,
        Err(e) => return Ok(not_run(format!("--args: {e}"))),
    };
    let terms = match type_terms(&decl.generic, type_args, &listing.declarations) {
        Ok(terms) => terms,
        Err(why) => return Ok(not_run(why)),
    };
    let host = match Host::bind(&reached, &resolver(manifest), HostOptions::default()) {
        Ok(host) => host,
        Err(refusals) => {
            let lines: Vec<String> = refusals.iter().map(ToString::to_string).collect();
            if refusals.iter().any(|r| r.kind == RefusalKind::Config) {
                return Err(Refused::Usage(lines.join("\n")));
            }
            return Ok(not_run(format!("not bound: {}", lines.join("; "))));
        }
    };
    match host.call_with(&decl.tool, key, &args, &terms) {
        Ok(handle) => Ok(outcome(&handle.wait())),
        Err(e) => Ok(not_run(e.to_string())),
    }
}

/// `--type-arg NAME=TERM` values, in the Tool's type parameter order.
fn type_terms(generic: &[String], type_args: &[String], declarations: &Declarations) -> Result<Vec<Term>, String> {
    let mut given: Vec<(String, Term)> = Vec::new();
    for arg in type_args {
        let (name, text) = arg.split_once('=').ok_or_else(|| format!("--type-arg {arg}: expected NAME=TERM"))?;
        let json: Json = match json::parse_str(text, &Limits::default()) {
            Ok(json) => json,
            // `T=Int` or `T=Day`: the shell took the quotes, or there were none.
            Err(e) => {
                let fix = match term_from_json_in(&Json::String(text.to_owned()), declarations) {
                    Ok(_) => format!("; write {name}='{}'", Json::String(text.to_owned()).to_canonical()),
                    Err(refused) => {
                        refused.message.split_once("; ").map(|(_, fix)| format!("; {fix}")).unwrap_or_default()
                    }
                };
                return Err(format!("--type-arg {name}: the term is not JSON ({e}){fix}"));
            }
        };
        let term = term_from_json_in(&json, declarations).map_err(|e| format!("--type-arg {name}: {e}"))?;
        given.push((name.to_owned(), term));
    }
    if let Some((extra, _)) = given.iter().find(|(n, _)| !generic.contains(n)) {
        return Err(format!("--type-arg {extra}: the Tool has no such type parameter"));
    }
    generic
        .iter()
        .map(|name| {
            given
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, t)| t.clone())
                .ok_or_else(|| format!("the Tool is generic: give --type-arg {name}=TERM"))
        })
        .collect()
}

fn mcp_adapter(listing_path: &std::path::Path, mut command: Vec<String>) -> Result<ExitCode, String> {
    let listing = load_listing(listing_path)?;
    let program = command.remove(0);
    let dir = std::env::current_dir().map_err(|e| e.to_string())?;
    let options =
        McpOptions { log: Arc::new(|line| eprintln!("flow-host mcp-adapter: {line}")), ..McpOptions::default() };
    serve_stdio(&listing, ProcessSpec::new(program, command, dir), options)?;
    Ok(ExitCode::SUCCESS)
}

fn check(listing_path: &std::path::Path, manifest: Option<PathBuf>) -> Result<ExitCode, Refused> {
    let listing = load_listing(listing_path).map_err(Refused::Usage)?;
    check_manifest(&listing, manifest.as_deref())?;
    match Host::bind(&listing, &resolver(manifest), HostOptions::default()) {
        Ok(_) => {
            println!("ok: {} Tools bound and fitting", listing.tools.len());
            Ok(ExitCode::SUCCESS)
        }
        // A flow.toml that cannot be read is configuration, as for `call`.
        Err(refusals) if refusals.iter().any(|r| r.kind == RefusalKind::Config) => {
            let lines: Vec<String> = refusals.iter().map(ToString::to_string).collect();
            Err(Refused::Usage(lines.join("\n")))
        }
        Err(refusals) => {
            for refusal in &refusals {
                println!("{refusal}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}
