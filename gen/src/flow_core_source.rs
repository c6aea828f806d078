//! Where a crate that `flow-gen --lang rust` writes gets flow-core from.
//!
//! flow-gen never writes a dependency cargo cannot resolve. Until
//! flow-toolkit-core is on crates.io that is a path: the one it was told
//! (`--flow-core-path`), or the checkout this flow-gen was built from, when it
//! is still there; knowing neither, it refuses and says how to tell it. Once
//! published, the crates.io version.

use std::path::{Path, PathBuf};

use flow_core::json::write_string;

/// flow-core's package name on crates.io; its library name stays `flow_core`.
pub const PACKAGE: &str = "flow-toolkit-core";

/// The flow-core version a generated crate asks for: this flow-gen's own.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Whether [`PACKAGE`] [`VERSION`] is on crates.io. Set to `true` in the
/// release that publishes it, and generated crates ask crates.io for it.
pub const PUBLISHED: bool = false;

/// The flow-core source a generated Cargo.toml names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlowCoreSource {
    /// The path given with `--flow-core-path`, written as given (relative to
    /// the generated crate, or absolute).
    Told(String),
    /// The checkout this flow-gen was built from (its `core/`, absolute).
    Checkout(PathBuf),
    /// crates.io, at [`VERSION`].
    Published,
}

impl FlowCoreSource {
    /// The source for a new crate: the path told, else crates.io once
    /// published, else this flow-gen's checkout if it is still there; an
    /// error that says how to tell it otherwise.
    pub fn find(told: Option<&str>) -> Result<Self, String> {
        Self::choose(told, PUBLISHED, built_from_checkout())
    }

    /// [`FlowCoreSource::find`] with what it looks at given, for the tests.
    pub fn choose(told: Option<&str>, published: bool, checkout: Option<PathBuf>) -> Result<Self, String> {
        if let Some(path) = told {
            return Ok(Self::Told(path.to_owned()));
        }
        if published {
            return Ok(Self::Published);
        }
        checkout.map(Self::Checkout).ok_or_else(|| {
            format!(
                "the generated crate needs flow-core ({PACKAGE} {VERSION}), which is not on crates.io yet, and this \
                 flow-gen knows no copy of it: pass --flow-core-path DIR, DIR being flow-core's folder relative to \
                 the generated crate (or absolute): core/ of a flow-toolkit checkout, or {PACKAGE}-{VERSION}.crate \
                 unpacked (`tar xzf {PACKAGE}-{VERSION}.crate`, from the dist/crates/ folder of `make dist`)"
            )
        })
    }

    /// The value of the `flow-core = ...` line in `[dependencies]`.
    pub fn dependency(&self) -> String {
        let path = match self {
            Self::Told(path) => path.clone(),
            Self::Checkout(path) => path.to_string_lossy().into_owned(),
            Self::Published => return format!("{{ package = \"{PACKAGE}\", version = \"{VERSION}\" }}"),
        };
        let mut quoted = String::new();
        write_string(&mut quoted, &path);
        format!("{{ package = \"{PACKAGE}\", path = {quoted} }}")
    }

    /// The comment above that line: where the source came from, and what to
    /// write once the crate is on crates.io.
    pub fn comment(&self) -> String {
        let published = format!("`flow-core = {}`", Self::Published.dependency());
        match self {
            Self::Told(_) => {
                format!("# flow-core from the path given to flow-gen (--flow-core-path); from crates.io: {published}.")
            }
            Self::Checkout(_) => {
                format!(
                    "# flow-core from the flow-toolkit checkout flow-gen was built from; from crates.io: {published}."
                )
            }
            Self::Published => format!("# flow-core ({PACKAGE}) from crates.io."),
        }
    }
}

/// `core/` of the checkout this flow-gen was compiled in, if it is still
/// there and still holds [`PACKAGE`]. Packaged builds (wheels, npm packages;
/// `FLOW_TOOLKIT_PACKAGED` set when compiling) never look: the machine that
/// built them is not the one they run on.
fn built_from_checkout() -> Option<PathBuf> {
    if option_env!("FLOW_TOOLKIT_PACKAGED").is_some() {
        return None;
    }
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?.join("core");
    let manifest = std::fs::read_to_string(core.join("Cargo.toml")).ok()?;
    manifest.contains(&format!("name = \"{PACKAGE}\"")).then_some(core)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_told_wins_and_is_written_as_given() {
        let source = FlowCoreSource::choose(Some("../core"), true, Some(PathBuf::from("/x/core"))).unwrap();
        assert_eq!(source, FlowCoreSource::Told("../core".to_owned()));
        assert_eq!(source.dependency(), "{ package = \"flow-toolkit-core\", path = \"../core\" }");
        assert!(source.comment().contains("--flow-core-path"), "{}", source.comment());
    }

    #[test]
    fn once_published_the_version() {
        let source = FlowCoreSource::choose(None, true, Some(PathBuf::from("/x/core"))).unwrap();
        assert_eq!(source.dependency(), format!("{{ package = \"flow-toolkit-core\", version = \"{VERSION}\" }}"));
    }

    #[test]
    fn unpublished_a_checkout_then_a_refusal_that_says_how() {
        let source = FlowCoreSource::choose(None, false, Some(PathBuf::from("/x/my \"core\""))).unwrap();
        assert_eq!(source.dependency(), "{ package = \"flow-toolkit-core\", path = \"/x/my \\\"core\\\"\" }");
        let refusal = FlowCoreSource::choose(None, false, None).unwrap_err();
        assert!(refusal.contains("--flow-core-path DIR") && refusal.contains("not on crates.io"), "{refusal}");
    }

    #[test]
    fn this_checkout_is_found() {
        // Tests are never packaged builds, and run inside the checkout.
        let core = built_from_checkout().expect("core/ beside gen/");
        assert!(core.join("src/lib.rs").is_file(), "{}", core.display());
    }
}
