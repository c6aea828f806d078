//! `flow-gen --lang LANG`: read and validate the listing, generate everything
//! in memory, then write it (or, with `--check`, compare it), then bind the
//! package in flow.toml. Progress goes to stderr.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

use flow_core::types::parse::listing_from_text;
use flow_core::Limits;

use crate::generate::{self, GenInput, Language};

/// The listing read when none is named and nothing is piped.
pub const DEFAULT_LISTING: &str = "flow.tools.json";
/// The manifest updated in the current folder (the Tool repository's root).
pub const MANIFEST: &str = "flow.toml";

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Lang {
    Python,
    Typescript,
    Rust,
}

fn language(lang: Lang, runtime_path: Option<&str>) -> Result<Box<dyn Language>, String> {
    match lang {
        Lang::Python => Ok(Box::new(generate::python::Python)),
        Lang::Rust => Ok(Box::new(generate::rust::Rust { runtime_path: runtime_path.map(str::to_owned) })),
        Lang::Typescript => Ok(Box::new(generate::typescript::TypeScript)),
    }
}

fn read_listing(listing: Option<&Path>) -> Result<(String, Vec<u8>), String> {
    if let Some(path) = listing {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok((path.display().to_string(), bytes));
    }
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        let mut bytes = Vec::new();
        stdin.lock().read_to_end(&mut bytes).map_err(|e| format!("stdin: {e}"))?;
        if !bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(("stdin".to_owned(), bytes));
        }
    }
    let bytes = std::fs::read(DEFAULT_LISTING)
        .map_err(|e| format!("no listing given, none piped on stdin, and {DEFAULT_LISTING} cannot be read: {e}"))?;
    Ok((DEFAULT_LISTING.to_owned(), bytes))
}

/// What `--lang` takes beside the listing and the output folder.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--check`: compare, write nothing.
    pub check: bool,
    /// `--no-manifest`: leave flow.toml alone.
    pub no_manifest: bool,
    /// `--flow-runtime-path` (Rust): the runtime's path for the generated Cargo.toml.
    pub runtime_path: Option<String>,
    /// `--rebind`: replace a flow.toml table that runs another command.
    pub rebind: bool,
}

/// A generated TypeScript package's .gitignore (a scaffold): `tsc` and `npm
/// install` write dist/ and node_modules/ inside it.
const TYPESCRIPT_GITIGNORE: &str = include_str!("../templates/typescript/gitignore");
/// A generated Python package's .gitignore (a scaffold): the folder is its
/// own setuptools project, so a build writes build/ and egg-info inside it.
const PYTHON_GITIGNORE: &str = include_str!("../templates/python/gitignore");

/// What a run wrote, in words that do not read as a failure when nothing
/// needed writing.
fn written_summary(written: usize, total: usize, out: &Path) -> String {
    match written {
        0 => format!("up to date: {} ({total} files)", out.display()),
        n if n == total => format!("wrote {n} files under {}", out.display()),
        n => format!("wrote {n} of {total} files under {} (the others were up to date)", out.display()),
    }
}

pub fn run(lang: Lang, listing: Option<&Path>, out: Option<&Path>, options: &Options) -> Result<String, String> {
    let Options { check, no_manifest, runtime_path, rebind } = options;
    let (name, bytes) = read_listing(listing)?;
    let listing = listing_from_text(&bytes, &Limits::default()).map_err(|e| format!("{name}: {e}"))?;
    let input = GenInput::prepare(&listing).map_err(|e| format!("{name}: {e}"))?;
    let language = language(lang, runtime_path.as_deref())?;
    let out: PathBuf = out.map_or_else(|| language.default_out(&input), Path::to_path_buf);
    let mut output = language.generate(&input, &out).map_err(|e| format!("{name}: {e}"))?;
    match lang {
        Lang::Typescript => output.scaffold(".gitignore", TYPESCRIPT_GITIGNORE.to_owned()),
        Lang::Python => output.scaffold(".gitignore", PYTHON_GITIGNORE.to_owned()),
        Lang::Rust => {}
    }
    if *check {
        let stale = generate::check(&out, &output);
        if stale.is_empty() {
            return Ok(format!("up to date: {}\n", out.display()));
        }
        return Err(stale.join("\nflow-gen: "));
    }
    // flow.toml is checked before anything is written: a refused rebind
    // leaves the folder as it was.
    let manifest = if *no_manifest {
        None
    } else {
        // Commands run in the manifest's folder: the current one.
        let folder = std::env::current_dir().map_err(|e| format!("the current folder: {e}"))?;
        let command = language.serve_command(&input, &out, &folder)?;
        let update = crate::manifest_update::plan(Path::new(MANIFEST), &listing, &command, *rebind)?;
        Some((update, command))
    };
    let written = generate::write(&out, &output)?;
    eprintln!("flow-gen: {}", written_summary(written.len(), output.files.len(), &out));
    if let Some((update, command)) = manifest {
        if update.write()? {
            eprintln!("flow-gen: {MANIFEST} binds the Tools with `{command}`");
        }
    }
    Ok(String::new())
}
