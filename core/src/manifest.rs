//! flow.toml (`host-boundary.md`, "flow.toml" and "Binding"): how to run each
//! file's Tool implementations, and which manifest a local declaration uses.
//!
//! ```toml
//! [tools."openai.flow"]
//! command = "acme-tools openai"
//!
//! [tools."search.flow"]
//! mcp = "npx @acme/search-mcp"
//! ```
//!
//! Each table is keyed by a file path relative to the manifest's directory and
//! names exactly one of `command` or `mcp`. Anything else (an unknown key, a
//! table naming none or both, a value that is not a non-empty string, a key
//! that is not a relative path) is a configuration error naming the file and
//! line. The file is read with its spans, not into Rust structs, so that every
//! refusal can point at its line.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Component, Path, PathBuf};

use toml::de::{DeTable, DeValue};

/// The file's name.
pub const FILE_NAME: &str = "flow.toml";

/// How one file's Tools are run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runner {
    /// A process speaking the Tool process protocol; the text is split as
    /// shell words, without a shell.
    Command(String),
    /// An MCP server, through the MCP adapter.
    Mcp(String),
}

/// One `[tools."FILE"]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// How the table's implementation is started.
    pub runner: Runner,
    /// The table's line in the file (1-based), for messages.
    pub line: usize,
}

/// A read flow.toml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    /// The flow.toml file itself.
    pub file: PathBuf,
    /// Its directory: table keys are relative to it and commands run in it.
    pub dir: PathBuf,
    /// Tables by key (a `/`-separated relative file path).
    pub tools: BTreeMap<String, Entry>,
}

/// A configuration error: it refuses the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestError {
    /// The flow.toml file the error is in.
    pub file: PathBuf,
    /// 1-based, when the error has a place.
    pub line: Option<usize>,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

impl std::error::Error for ManifestError {}

fn line_of(text: &str, span: &Range<usize>) -> usize {
    let end = span.start.min(text.len());
    text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

impl Manifest {
    /// Reads a manifest's text; `file` names it in errors and gives `dir`.
    pub fn parse(text: &str, file: &Path) -> Result<Manifest, ManifestError> {
        let error = |span: Option<&Range<usize>>, message: String| ManifestError {
            file: file.to_path_buf(),
            line: span.map(|s| line_of(text, s)),
            message,
        };
        let document = DeTable::parse(text).map_err(|e| error(e.span().as_ref(), e.message().to_owned()))?;
        let mut tools = BTreeMap::new();
        for (key, value) in document.get_ref().iter() {
            if key.get_ref() != "tools" {
                return Err(error(
                    Some(&key.span()),
                    format!("unknown key {:?}: flow.toml holds only [tools.\"FILE\"] tables", key.get_ref()),
                ));
            }
            let DeValue::Table(table) = value.get_ref() else {
                return Err(error(Some(&key.span()), "tools must be a table of [tools.\"FILE\"] tables".to_owned()));
            };
            for (file_key, entry) in table.iter() {
                let name = file_key.get_ref().as_ref();
                let span = file_key.span();
                check_key(name).map_err(|why| error(Some(&span), format!("table key {name:?} {why}")))?;
                let DeValue::Table(members) = entry.get_ref() else {
                    return Err(error(Some(&span), format!("tools.{name:?} must be a table naming command or mcp")));
                };
                let mut runner = None;
                for (member, value) in members.iter() {
                    let make: fn(String) -> Runner = match member.get_ref().as_ref() {
                        "command" => Runner::Command,
                        "mcp" => Runner::Mcp,
                        other => {
                            return Err(error(
                                Some(&member.span()),
                                format!("unknown key {other:?} in tools.{name:?}: a table names exactly one of command or mcp"),
                            ));
                        }
                    };
                    let text = match value.get_ref() {
                        DeValue::String(s) if !s.trim().is_empty() => s.to_string(),
                        _ => {
                            return Err(error(
                                Some(&member.span()),
                                format!("{} in tools.{name:?} must be a non-empty string", member.get_ref()),
                            ));
                        }
                    };
                    if runner.is_some() {
                        return Err(error(
                            Some(&member.span()),
                            format!("tools.{name:?} names both command and mcp; it names exactly one"),
                        ));
                    }
                    runner = Some(make(text));
                }
                let Some(runner) = runner else {
                    return Err(error(
                        Some(&span),
                        format!("tools.{name:?} names neither command nor mcp; it names exactly one"),
                    ));
                };
                tools.insert(name.to_owned(), Entry { runner, line: line_of(text, &span) });
            }
        }
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        Ok(Manifest { file: file.to_path_buf(), dir, tools })
    }

    /// Reads `dir/flow.toml`: `Ok(None)` when there is none.
    pub fn load(dir: &Path) -> Result<Option<Manifest>, ManifestError> {
        let file = dir.join(FILE_NAME);
        match std::fs::read(&file) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|e| ManifestError {
                    file: file.clone(),
                    line: None,
                    message: format!("not UTF-8 at byte {}", e.utf8_error().valid_up_to()),
                })?;
                Manifest::parse(&text, &file).map(Some)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(ManifestError { file, line: None, message: e.to_string() }),
        }
    }

    /// The table for `key`, if any.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.tools.get(key)
    }
}

/// A table key is a relative file path: no empty, `.` or `..` parts.
fn check_key(key: &str) -> Result<(), &'static str> {
    if key.is_empty() {
        return Err("is empty");
    }
    if key.starts_with('/') {
        return Err("is an absolute path; keys are relative to the manifest's directory");
    }
    if key.split('/').any(|part| part.is_empty() || part == "." || part == "..") {
        return Err("has an empty, . or .. part");
    }
    Ok(())
}

/// A path made absolute and lexically normalized (`.` dropped, `..` popped),
/// so that its ancestors are the directories a person means.
fn normalized(path: &Path) -> std::io::Result<PathBuf> {
    let absolute = std::path::absolute(path)?;
    let mut out = PathBuf::new();
    for part in absolute.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

/// Where the nearest-manifest rule leads for one declaring file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nearest {
    /// The manifest that governs the file.
    pub manifest: Manifest,
    /// The declaring file's path relative to the manifest's directory, `/`-separated.
    pub key: String,
}

impl Nearest {
    /// The table for the declaring file. `None` means unbound: an absent table
    /// does not search more distant manifests.
    pub fn entry(&self) -> Option<&Entry> {
        self.manifest.entry(&self.key)
    }
}

/// The nearest flow.toml in the declaring file's directory or an ancestor
/// ("Binding": the nearest manifest is the boundary). `Ok(None)` when no
/// directory up to the root has one.
pub fn nearest(declaring_file: &Path) -> Result<Option<Nearest>, ManifestError> {
    let file = normalized(declaring_file).map_err(|e| ManifestError {
        file: declaring_file.to_path_buf(),
        line: None,
        message: e.to_string(),
    })?;
    let Some(start) = file.parent() else { return Ok(None) };
    for dir in start.ancestors() {
        if let Some(manifest) = Manifest::load(dir)? {
            let relative = file.strip_prefix(dir).expect("an ancestor is a prefix");
            let key = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            return Ok(Some(Nearest { manifest, key }));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Manifest, ManifestError> {
        Manifest::parse(text, Path::new("/app/flow.toml"))
    }

    fn refusal(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn reads_command_and_mcp_tables() {
        let m = parse("[tools.\"openai.flow\"]\ncommand = \"acme-tools openai\"\n\n[tools.\"sub/search.flow\"]\nmcp = 'npx @acme/search-mcp'\n").unwrap();
        assert_eq!(m.dir, Path::new("/app"));
        assert_eq!(
            m.entry("openai.flow"),
            Some(&Entry { runner: Runner::Command("acme-tools openai".into()), line: 1 })
        );
        assert_eq!(
            m.entry("sub/search.flow"),
            Some(&Entry { runner: Runner::Mcp("npx @acme/search-mcp".into()), line: 4 })
        );
        assert!(parse("").unwrap().tools.is_empty());
    }

    #[test]
    fn refusals_name_file_and_line() {
        assert_eq!(
            refusal("[tools.\"a.flow\"]\ncommand = \"x\"\ntimeout = 3\n"),
            "/app/flow.toml:3: unknown key \"timeout\" in tools.\"a.flow\": a table names exactly one of command or mcp"
        );
        assert_eq!(
            refusal("\n[tools.\"a.flow\"]\n"),
            "/app/flow.toml:2: tools.\"a.flow\" names neither command nor mcp; it names exactly one"
        );
        assert!(refusal("[tools.\"a.flow\"]\ncommand = \"x\"\nmcp = \"y\"\n")
            .starts_with("/app/flow.toml:3: tools.\"a.flow\" names both"));
        assert!(refusal("title = 1\n").starts_with("/app/flow.toml:1: unknown key \"title\""));
        assert!(refusal("[tools.\"a.flow\"]\ncommand = 3\n")
            .starts_with("/app/flow.toml:2: command in tools.\"a.flow\" must be a non-empty string"));
        assert!(refusal("[tools.\"a.flow\"]\ncommand = \" \"\n").contains("non-empty"));
        assert!(refusal("[tools]\n\"a.flow\" = \"cmd\"\n")
            .starts_with("/app/flow.toml:2: tools.\"a.flow\" must be a table"));
        assert!(refusal("[tools.\"../a.flow\"]\ncommand = \"x\"\n").contains("has an empty, . or .. part"));
        assert!(refusal("[tools.\"/a.flow\"]\ncommand = \"x\"\n").contains("absolute"));
        assert!(refusal("[tools.\"a.flow\"\ncommand = \"x\"\n").starts_with("/app/flow.toml:1: "));
    }

    #[test]
    fn the_nearest_manifest_is_the_boundary() {
        let root = std::env::temp_dir().join(format!("flow-manifest-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("app/lib/deep")).unwrap();
        std::fs::create_dir_all(root.join("app/other")).unwrap();
        std::fs::write(root.join("flow.toml"), "[tools.\"app/other/x.flow\"]\ncommand = \"outer\"\n").unwrap();
        std::fs::write(root.join("app/flow.toml"), "[tools.\"lib/deep/tools.flow\"]\ncommand = \"inner\"\n").unwrap();

        // An ancestor manifest, keyed by the path relative to it.
        let found = nearest(&root.join("app/lib/deep/tools.flow")).unwrap().unwrap();
        assert_eq!(found.manifest.dir, root.join("app"));
        assert_eq!(found.key, "lib/deep/tools.flow");
        assert_eq!(found.entry().unwrap().runner, Runner::Command("inner".into()));

        // app/flow.toml is nearest for app/other/x.flow and has no table for it:
        // unbound, even though the outer manifest has one.
        let found = nearest(&root.join("app/other/x.flow")).unwrap().unwrap();
        assert_eq!(found.manifest.dir, root.join("app"));
        assert_eq!(found.key, "other/x.flow");
        assert_eq!(found.entry(), None);

        // `..` in the given path is resolved before searching.
        let found = nearest(&root.join("app/lib/../other/x.flow")).unwrap().unwrap();
        assert_eq!(found.key, "other/x.flow");

        // A broken nearer manifest is an error, not a reason to look further.
        std::fs::write(root.join("app/lib/flow.toml"), "[tools.\"deep/tools.flow\"]\n").unwrap();
        let err = nearest(&root.join("app/lib/deep/tools.flow")).unwrap_err();
        assert_eq!(err.file, root.join("app/lib/flow.toml"));
        assert_eq!(err.line, Some(1));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
