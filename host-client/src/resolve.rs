//! Which implementation answers a declaration ("Binding"): the host's
//! override by identity first, then flow.toml. A repository's declarations
//! use the repository's manifest (the host says where it is); a local
//! declaration (`PATH.NAME`) uses the nearest manifest from PATH's directory.
//! A declaration covered by neither is unbound.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use flow_core::manifest::{self, Manifest, Runner};
use flow_core::types::identity_name;

/// Where a declaration's implementation runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// How the implementation is started: a command or an MCP server.
    pub runner: Runner,
    /// Where a command runs: the manifest's directory.
    pub dir: PathBuf,
    /// Where the binding came from, for messages: `FILE:LINE` or `override`.
    pub origin: String,
}

/// The outcome of resolving one declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// A binding was found.
    Bound(Binding),
    /// No binding, and why.
    Unbound(String),
}

/// The declaring file of an identity: FILE of `REPO@VERSION/FILE.NAME`, PATH
/// of `PATH.NAME`. This is the flow.toml table key.
pub fn declaring_file(identity: &str) -> &str {
    let without_name = &identity[..identity.len() - identity_name(identity).len()];
    let without_name = without_name.strip_suffix('.').unwrap_or(without_name);
    match without_name.split_once('@') {
        Some((_, version_and_file)) => version_and_file.split_once('/').map_or(version_and_file, |(_, file)| file),
        None => without_name,
    }
}

/// Overrides by identity, then a manifest.
#[derive(Debug, Clone, Default)]
pub struct Resolver {
    /// Bindings that win over any manifest, by declaration identity.
    pub overrides: HashMap<String, Binding>,
    /// The directory of the manifest to use for every declaration, keyed by
    /// its declaring file (a repository's root, or `--manifest DIR`). Without
    /// it, local declarations use the nearest-manifest rule and repository
    /// declarations are unbound.
    pub manifest_dir: Option<PathBuf>,
}

fn bound(manifest: &Manifest, key: &str) -> Resolution {
    match manifest.entry(key) {
        Some(entry) => Resolution::Bound(Binding {
            runner: entry.runner.clone(),
            dir: manifest.dir.clone(),
            origin: format!("{}:{}", manifest.file.display(), entry.line),
        }),
        None => Resolution::Unbound(format!("{} has no [tools.{key:?}] table", manifest.file.display())),
    }
}

impl Resolver {
    /// Resolves one identity. `Err` is a configuration error (a manifest that
    /// cannot be read), which refuses the run.
    pub fn resolve(&self, identity: &str) -> Result<Resolution, String> {
        if let Some(binding) = self.overrides.get(identity) {
            return Ok(Resolution::Bound(binding.clone()));
        }
        let key = declaring_file(identity);
        if let Some(dir) = &self.manifest_dir {
            return match Manifest::load(dir).map_err(|e| e.to_string())? {
                Some(manifest) => Ok(bound(&manifest, key)),
                None => Err(format!("no {} in {}", manifest::FILE_NAME, dir.display())),
            };
        }
        if identity.contains('@') {
            return Ok(Resolution::Unbound(format!(
                "a repository's declaration is bound by the repository's {}: name its directory",
                manifest::FILE_NAME
            )));
        }
        match manifest::nearest(Path::new(key)).map_err(|e| e.to_string())? {
            Some(nearest) => Ok(bound(&nearest.manifest, &nearest.key)),
            None => Ok(Resolution::Unbound(format!("no {} in {key}'s directory or above", manifest::FILE_NAME))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declaring_files() {
        assert_eq!(declaring_file("github.com/acme/weather@1.2.0/weather.flow.get_forecast"), "weather.flow");
        assert_eq!(declaring_file("github.com/acme/weather@1.2.0/sub/dir/x.flow.get-sum"), "sub/dir/x.flow");
        assert_eq!(declaring_file("app/tools.flow.run"), "app/tools.flow");
        assert_eq!(declaring_file("/abs/tools.flow.run"), "/abs/tools.flow");
    }

    #[test]
    fn overrides_win_and_absent_tables_are_unbound() {
        let root = std::env::temp_dir().join(format!("flow-resolve-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("app")).unwrap();
        std::fs::write(root.join("flow.toml"), "[tools.\"weather.flow\"]\ncommand = \"from-manifest\"\n").unwrap();
        std::fs::write(root.join("app/flow.toml"), "[tools.\"other.flow\"]\ncommand = \"x\"\n").unwrap();
        let id = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";

        let mut resolver = Resolver { manifest_dir: Some(root.clone()), ..Resolver::default() };
        match resolver.resolve(id).unwrap() {
            Resolution::Bound(b) => {
                assert_eq!(b.runner, Runner::Command("from-manifest".into()));
                assert_eq!(b.dir, root);
                assert!(b.origin.ends_with("flow.toml:1"));
            }
            other => panic!("{other:?}"),
        }
        let over = Binding { runner: Runner::Command("fake".into()), dir: root.clone(), origin: "override".into() };
        resolver.overrides.insert(id.to_owned(), over.clone());
        assert_eq!(resolver.resolve(id).unwrap(), Resolution::Bound(over));
        assert!(matches!(
            resolver.resolve("github.com/acme/weather@1.2.0/nope.flow.t").unwrap(),
            Resolution::Unbound(_)
        ));

        // Without a manifest directory: repository identities are unbound;
        // local ones use the nearest manifest, which is the boundary.
        let resolver = Resolver::default();
        assert!(matches!(resolver.resolve(id).unwrap(), Resolution::Unbound(_)));
        let local = format!("{}.get", root.join("app/weather.flow").display());
        match resolver.resolve(&local).unwrap() {
            Resolution::Unbound(why) => assert!(why.contains("app/flow.toml has no [tools.\"weather.flow\"]"), "{why}"),
            other => panic!("{other:?}"),
        }
        let local = format!("{}.get", root.join("weather.flow").display());
        assert!(matches!(resolver.resolve(&local).unwrap(), Resolution::Bound(_)));

        let missing = Resolver { manifest_dir: Some(root.join("nowhere")), ..Resolver::default() };
        assert!(missing.resolve(id).is_err());
        std::fs::remove_dir_all(&root).unwrap();
    }
}
