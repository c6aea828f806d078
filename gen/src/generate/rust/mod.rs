//! `flow-gen --lang rust`: a crate on the Rust Tool runtime (`flow_runtime`) for the Tools of a listing,
//! which their author fills in and builds into a Tool process binary.
//!
//! Files (`@generated` ones are rewritten on every run; scaffolds are written
//! once and belong to the author):
//! - `src/types.rs`: a struct per record, an enum per enum, an alias per host
//!   token type, each with its doc and identity, deriving `Ord` where the
//!   order is Flow's.
//! - `src/codec.rs`: their `FromValue` and `IntoValue` impls.
//! - `src/tools.rs`: a trait with one async method per Tool.
//! - `src/serve.rs`: `serve` and `server`, on the runtime's stdio driver.
//! - `src/metadata.rs`, `src/flow.tools.json`, `src/describe.json`: the
//!   listing and the `describe` result, embedded.
//! - `src/lib.rs`: the modules and re-exports.
//! - Scaffolds: `src/implementation.rs` (a stub per Tool), `src/main.rs`
//!   (the binary: where an author sets up logging or a runtime) and
//!   `Cargo.toml` (where an author adds dependencies).
//!
//! Names: see [`names`]. A built-in that a declaration's name would hide is
//! written with its path ([`terms`]). The shape of each type (which type
//! parameters it keeps, what it boxes, whether it has `Ord`) comes from
//! [`analysis`].
//!
//! flow.toml runs `cargo run --quiet --release --manifest-path
//! PACKAGE/Cargo.toml`: it builds the binary on first use and whenever the
//! source changed, so the binding never runs a stale build. A deployment can
//! bind the built binary's path instead.

mod analysis;
mod compare;
mod items;
mod layout;
mod methods;
mod names;
mod templates;
mod terms;
mod writers;

use std::path::{Path, PathBuf};

use super::{GenInput, Language, Output, DESCRIBE_FILE, LISTING_FILE};
use crate::runtime_source::RuntimeSource;
use templates::*;
use terms::{FileScope, Terms};

/// The generator, with the runtime dependency the generated Cargo.toml names.
pub struct Rust {
    /// A path to the runtime (flow-toolkit-runtime), relative to the generated crate; when `None`,
    /// what [`RuntimeSource::find`] finds.
    pub runtime_path: Option<String>,
}

fn header(input: &GenInput) -> String {
    crate::naming::Lang::Rust.header(&input.source)
}

/// The implementation type of the scaffold.
const IMPLEMENTATION: &str = "Implementation";

/// `weather` -> `weather-tools`: lower case letters, digits and `-`, not
/// starting with a digit (Cargo refuses that).
fn crate_name(project: &str) -> String {
    let mut name: String =
        project.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    name = name.split('-').filter(|s| !s.is_empty()).collect::<Vec<_>>().join("-");
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert_str(0, "flow-");
    }
    format!("{name}-tools")
}

use crate::naming::render;

/// A word of a command line as the host splits it: quoted when it holds
/// anything but plain path characters.
fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c)) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

impl Language for Rust {
    fn default_out(&self, input: &GenInput) -> PathBuf {
        PathBuf::from(crate_name(&input.project))
    }

    fn generate(&self, input: &GenInput, out: &Path) -> Result<Output, String> {
        let listing = input.listing;
        let project = input.project.as_str();
        let crate_name = crate_name(project);
        let lib_name = crate_name.replace('-', "_");
        let trait_name = format!("{}Tools", names::pascal(project).trim_end_matches('_'));
        let header = header(input);

        let facts = analysis::Facts::new(&listing.declarations, &listing.tools);
        let type_names = items::names(&listing.declarations, &facts, &[]);
        let terms = Terms {
            facts: &facts,
            declarations: &listing.declarations,
            type_names: &type_names.types,
            param_names: &type_names.params,
        };
        let all_types = type_names.types.values();

        let types_scope = FileScope::new(all_types.clone(), &[], None);
        let items = items::items(&listing.declarations, &facts, &type_names, &terms, &types_scope)?;

        let tool_names = methods::tool_names(&listing.tools);
        let fingerprints: Vec<String> = input.tools.iter().map(|t| t.fingerprint.clone()).collect();
        let tools_scope = FileScope::new(all_types.clone(), &[&trait_name], Some("crate::types"));
        let trait_methods = methods::methods(
            &listing.tools,
            &tool_names,
            &fingerprints,
            &terms,
            &tools_scope,
            methods::Form::Declaration,
            &trait_name,
        )?;
        let types_module = format!("{lib_name}::types");
        let stub_scope = FileScope::new(all_types.clone(), &[IMPLEMENTATION, &trait_name], Some(&types_module));
        let stubs = methods::methods(
            &listing.tools,
            &tool_names,
            &fingerprints,
            &terms,
            &stub_scope,
            methods::Form::Stub,
            &trait_name,
        )?;

        let handler_pairs: Vec<String> =
            trait_methods.iter().map(|m| format!("(metadata::{}.identity, {})", m.constant, m.handler)).collect();
        let mut output = Output::default();
        output.generated(
            "src/types.rs",
            render(&TypesFile { header: &header, project, imports: types_scope.imports(&[]), items: &items })?,
        );
        output.generated(
            "src/codec.rs",
            render(&CodecFile { header: &header, items: &items, converts: items.iter().any(|i| i.host.is_none()) })?,
        );
        output.generated(
            "src/tools.rs",
            render(&ToolsFile {
                header: &header,
                project,
                imports: tools_scope.imports(&[]),
                trait_name: &trait_name,
                methods: &trait_methods,
            })?,
        );
        output.generated(
            "src/serve.rs",
            render(&ServeFile {
                header: &header,
                project,
                trait_name: &trait_name,
                methods: &trait_methods,
                handlers: layout::list(
                    4,
                    4 + "let handlers: [(&str, Handler<T>); N] = ".len(),
                    "",
                    "[",
                    "]",
                    &handler_pairs,
                    "",
                ),
            })?,
        );
        let constants: Vec<&str> = trait_methods.iter().map(|m| m.constant.as_str()).collect();
        output.generated(
            "src/metadata.rs",
            render(&MetadataFile { header: &header, methods: &trait_methods, constants: constants.join(", ") })?,
        );
        output.generated(format!("src/{LISTING_FILE}"), input.listing_file());
        output.generated(format!("src/{DESCRIBE_FILE}"), input.describe_file());
        output.generated("src/lib.rs", render(&LibFile { header: &header, project, trait_name: &trait_name })?);

        let trait_import = format!("use {lib_name}::{trait_name};");
        output.scaffold(
            "src/implementation.rs",
            render(&ImplementationFile {
                project,
                imports: stub_scope.imports(&[trait_import]),
                implementation: IMPLEMENTATION,
                trait_name: &trait_name,
                methods: &stubs,
            })?,
        );
        // For people reading main.rs: the command as run from the folder above.
        let manifest_path = out.join("Cargo.toml");
        let command =
            format!("cargo run --quiet --release --manifest-path {}", shell_word(&manifest_path.to_string_lossy()));
        output.scaffold(
            "src/main.rs",
            render(&MainFile { project, command: &command, lib_name: &lib_name, implementation: IMPLEMENTATION })?,
        );
        // Cargo.toml is written once: an existing one keeps its source.
        if !out.join("Cargo.toml").exists() {
            let source = RuntimeSource::find(self.runtime_path.as_deref())?;
            let (runtime, runtime_comment) = (source.dependency(), source.comment());
            let cargo =
                CargoFile { project, crate_name: &crate_name, runtime: &runtime, runtime_comment: &runtime_comment };
            output.scaffold("Cargo.toml", render(&cargo)?);
        }
        Ok(output)
    }

    fn serve_command(&self, _input: &GenInput, out: &Path, _folder: &Path) -> Result<String, String> {
        // A relative path is the manifest's folder's, where the command runs.
        let manifest = out.join("Cargo.toml");
        Ok(format!("cargo run --quiet --release --manifest-path {}", shell_word(&manifest.to_string_lossy())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crate_names() {
        assert_eq!(crate_name("weather"), "weather-tools");
        assert_eq!(crate_name("My Repo!"), "my-repo-tools");
        assert_eq!(crate_name("2fa"), "flow-2fa-tools");
    }

    #[test]
    fn shell_words_are_quoted_when_needed() {
        assert_eq!(shell_word("weather-tools/Cargo.toml"), "weather-tools/Cargo.toml");
        assert_eq!(shell_word("my tools/Cargo.toml"), "'my tools/Cargo.toml'");
        assert_eq!(shell_word("it's/Cargo.toml"), r"'it'\''s/Cargo.toml'");
    }
}
