//! Code generation: `flow-gen --lang LANG [LISTING] [--out DIR] [--check]`.
//!
//! The shape every language follows (one module per language beside this one,
//! one askama template per concept under `templates/LANG/`):
//! 1. [`GenInput::prepare`] validates the listing, refuses every Tool whose
//!    types cannot cross (`flow_core::types::tool_crossing`), and computes
//!    everything the languages embed (fingerprints, describe-form signatures,
//!    TypeSpecs) before anything is written, so such a listing writes nothing
//!    in any language.
//! 2. A [`Language`] turns it into an [`Output`]: a sorted map of relative paths to
//!    contents, so output order never changes. Names, keyword escaping and imports
//!    are computed in Rust; templates only place them.
//! 3. [`write`] writes the files; [`check`] compares them with a directory and
//!    names every file that is not what generation would write.
//!
//! Files are of two kinds. Generated files are rewritten on every run; each code
//! file carries an `@generated` header naming the listing's Flow files
//! ([`GenInput::source`]), and the listing and the `describe` result are JSON
//! files ([`LISTING_FILE`], [`DESCRIBE_FILE`]) that every language writes with
//! the same bytes and reads beside its metadata module. Scaffold files (the
//! author's implementation stubs and build files) are written only when absent
//! and never checked: they belong to the author.

pub mod pretty;
pub mod python;
pub mod rust;
pub mod typescript;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use flow_core::fingerprint::{describe_entry, fingerprint};
use flow_core::json::Json;
use flow_core::types::{identity_name, tool_crossing, Listing, ToolDecl, TypeSpec};

/// What every language generator reads: the validated listing and, per Tool,
/// what `describe` must answer.
pub struct GenInput<'a> {
    pub listing: &'a Listing,
    pub tools: Vec<ToolInfo<'a>>,
    /// The Tool repository's short name (`weather` for `github.com/acme/weather`),
    /// from which default package names are made.
    pub project: String,
    /// What the listing declares, as every generated file's header names it:
    /// the Flow files its Tools come from (`github.com/acme/weather@1.2.0/weather.flow`).
    pub source: Vec<String>,
}

pub struct ToolInfo<'a> {
    pub decl: &'a ToolDecl,
    pub fingerprint: String,
    /// The `describe` entry: `{"tool", "fingerprint", "signature"}`.
    pub describe: Json,
    /// The Tool's TypeSpec: its roots and the declarations they reach.
    pub type_spec: TypeSpec,
}

impl<'a> GenInput<'a> {
    pub fn prepare(listing: &'a Listing) -> Result<GenInput<'a>, String> {
        // What cannot cross is refused here, once for every language, before
        // anything is generated (the one predicate the core decodes by too).
        for (index, decl) in listing.tools.iter().enumerate() {
            tool_crossing(decl, index, &listing.declarations).map_err(|e| e.to_string())?;
        }
        let mut tools = Vec::with_capacity(listing.tools.len());
        for decl in &listing.tools {
            let fail = |e: flow_core::Error| format!("{}: {e}", decl.tool);
            tools.push(ToolInfo {
                decl,
                fingerprint: fingerprint(decl, &listing.declarations).map_err(fail)?,
                describe: describe_entry(decl, &listing.declarations).map_err(fail)?,
                type_spec: TypeSpec::for_tool(listing, &decl.tool)
                    .ok_or_else(|| format!("{}: no TypeSpec could be made", decl.tool))?,
            });
        }
        Ok(GenInput { listing, tools, project: project_name(listing), source: source(listing) })
    }
}

/// The Flow files a listing's Tools are declared in (its declarations' files
/// when it has no Tool), in the listing's order, without repeats: an identity
/// of the listing that does not depend on where it was read from.
fn source(listing: &Listing) -> Vec<String> {
    let module = |identity: &str| {
        let name = identity_name(identity);
        identity.strip_suffix(name).unwrap_or(identity).trim_end_matches('.').to_owned()
    };
    let mut files: Vec<String> = Vec::new();
    let identities: Vec<&str> = if listing.tools.is_empty() {
        crate::naming::ordered(&listing.declarations).into_iter().map(|(_, d)| d.identity.as_str()).collect()
    } else {
        listing.tools.iter().map(|t| t.tool.as_str()).collect()
    };
    for identity in identities {
        let file = module(identity);
        if !file.is_empty() && !files.contains(&file) {
            files.push(file);
        }
    }
    files
}

/// The repository's last path segment, or the declaring file's stem outside a
/// repository; `tools` when the listing is empty.
fn project_name(listing: &Listing) -> String {
    let Some(tool) = listing.tools.first() else { return "tools".to_owned() };
    let without_name = tool.tool.strip_suffix(identity_name(&tool.tool)).unwrap_or(&tool.tool).trim_end_matches('.');
    let base = match without_name.split_once('@') {
        Some((repository, _)) => repository.rsplit('/').next().unwrap_or(repository),
        None => {
            let file = without_name.rsplit('/').next().unwrap_or(without_name);
            file.split('.').next().unwrap_or(file)
        }
    };
    if base.is_empty() {
        "tools".to_owned()
    } else {
        base.to_owned()
    }
}

/// The JSON file of the listing a package was generated from, beside the
/// metadata module that reads it (in every language: the same bytes).
pub const LISTING_FILE: &str = "flow.tools.json";
/// The JSON file of the `describe` result, beside [`LISTING_FILE`].
pub const DESCRIBE_FILE: &str = "describe.json";

impl GenInput<'_> {
    /// [`LISTING_FILE`]'s text: the listing as pretty JSON.
    pub fn listing_file(&self) -> String {
        pretty::json_file(&flow_core::types::listing_to_json(self.listing))
    }

    /// [`DESCRIBE_FILE`]'s text: what `describe` answers, each Tool's identity,
    /// fingerprint and describe-form signature, as pretty JSON.
    pub fn describe_file(&self) -> String {
        let describe = Json::object([
            ("data", Json::str(flow_core::types::DATA_VERSION)),
            ("tools", Json::Array(self.tools.iter().map(|t| t.describe.clone()).collect())),
        ]);
        pretty::json_file(&describe)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Generated,
    Scaffold,
}

#[derive(Debug, Clone, Default)]
pub struct Output {
    pub files: BTreeMap<PathBuf, (FileKind, String)>,
}

impl Output {
    pub fn generated(&mut self, path: impl Into<PathBuf>, contents: String) {
        self.files.insert(path.into(), (FileKind::Generated, contents));
    }

    pub fn scaffold(&mut self, path: impl Into<PathBuf>, contents: String) {
        self.files.insert(path.into(), (FileKind::Scaffold, contents));
    }
}

/// One target language.
pub trait Language {
    /// The folder written when `--out` is not given.
    fn default_out(&self, input: &GenInput) -> PathBuf;
    /// Everything generation writes, relative to the output folder.
    fn generate(&self, input: &GenInput, out: &Path) -> Result<Output, String>;
    /// The command that serves the generated package, run in the manifest's
    /// folder `folder`, for flow.toml; `Err` says why no command run there
    /// can serve a package at `out`, and what to do instead.
    fn serve_command(&self, input: &GenInput, out: &Path, folder: &Path) -> Result<String, String>;
}

/// Writes generated files (creating folders) and scaffold files that are absent.
/// Returns the paths written.
pub fn write(out: &Path, output: &Output) -> Result<Vec<PathBuf>, String> {
    let mut written = Vec::new();
    for (relative, (kind, contents)) in &output.files {
        let path = out.join(relative);
        if *kind == FileKind::Scaffold && path.exists() {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        if std::fs::read(&path).ok().as_deref() != Some(contents.as_bytes()) {
            std::fs::write(&path, contents).map_err(|e| format!("{}: {e}", path.display()))?;
            written.push(path);
        }
    }
    Ok(written)
}

/// The generated files under `out` that differ from what generation would
/// write: `not up to date: FILE` lines, empty when all agree.
pub fn check(out: &Path, output: &Output) -> Vec<String> {
    output
        .files
        .iter()
        .filter(|(_, (kind, _))| *kind == FileKind::Generated)
        .filter(|(relative, (_, contents))| {
            std::fs::read(out.join(relative)).ok().as_deref() != Some(contents.as_bytes())
        })
        .map(|(relative, _)| format!("not up to date: {}", out.join(relative).display()))
        .collect()
}
