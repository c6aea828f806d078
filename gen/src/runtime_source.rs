//! Where a crate that `flow-gen --lang rust` writes gets the Rust Tool
//! runtime from (flow-toolkit-runtime, library `flow_runtime`: the one crate
//! generated code names; the crates it is built on come with it).
//!
//! flow-gen never writes a dependency cargo cannot resolve. Until
//! flow-toolkit-runtime is on crates.io that is a path: the one it was told
//! (`--flow-runtime-path`), or the checkout this flow-gen was built from, when it
//! is still there; knowing neither, it refuses and says how to tell it. Once
//! published, the crates.io version.

use std::path::{Path, PathBuf};

use flow_core::json::write_string;

/// The runtime's package name on crates.io; its library name is `flow_runtime`.
pub const PACKAGE: &str = "flow-toolkit-runtime";

/// The runtime version a generated crate asks for: this flow-gen's own.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Whether [`PACKAGE`] [`VERSION`] is on crates.io. Set to `true` in the
/// release that publishes it, and generated crates ask crates.io for it.
pub const PUBLISHED: bool = false;

/// The runtime source a generated Cargo.toml names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuntimeSource {
    /// The path given with `--flow-runtime-path`, written as given (relative to
    /// the generated crate, or absolute).
    Told(String),
    /// The checkout this flow-gen was built from (its `runtime/`, absolute).
    Checkout(PathBuf),
    /// crates.io, at [`VERSION`].
    Published,
}

impl RuntimeSource {
    /// The source for a new crate: the path told, else crates.io once
    /// published, else this flow-gen's checkout if it is still there; an
    /// error that says how to tell it otherwise.
    pub fn find(told: Option<&str>) -> Result<Self, String> {
        Self::choose(told, PUBLISHED, built_from_checkout())
    }

    /// [`RuntimeSource::find`] with what it looks at given, for the tests.
    pub fn choose(told: Option<&str>, published: bool, checkout: Option<PathBuf>) -> Result<Self, String> {
        if let Some(path) = told {
            return Ok(Self::Told(path.to_owned()));
        }
        if published {
            return Ok(Self::Published);
        }
        checkout.map(Self::Checkout).ok_or_else(|| {
            format!(
                "the generated crate needs the Rust Tool runtime ({PACKAGE} {VERSION}), which is not on crates.io yet, \
                 and this flow-gen knows no copy of it: pass --flow-runtime-path DIR, DIR being the runtime's folder \
                 relative to the generated crate (or absolute): runtime/ of a flow-toolkit checkout, or {PACKAGE}-{VERSION}.crate \
                 unpacked (`tar xzf {PACKAGE}-{VERSION}.crate`, from the dist/crates/ folder of `make dist`)"
            )
        })
    }

    /// The value of the `flow-runtime = ...` line in `[dependencies]`.
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
        let published = format!("`flow-runtime = {}`", Self::Published.dependency());
        match self {
            Self::Told(_) => {
                format!("# flow-runtime from the path given to flow-gen (--flow-runtime-path); from crates.io: {published}.")
            }
            Self::Checkout(_) => {
                format!(
                    "# flow-runtime from the flow-toolkit checkout flow-gen was built from; from crates.io: {published}."
                )
            }
            Self::Published => format!("# flow-runtime ({PACKAGE}) from crates.io."),
        }
    }
}

/// `runtime/` of the checkout this flow-gen was compiled in, if it is still
/// there and still holds [`PACKAGE`]. Packaged builds (wheels, npm packages;
/// `FLOW_TOOLKIT_PACKAGED` set when compiling) never look: the machine that
/// built them is not the one they run on.
fn built_from_checkout() -> Option<PathBuf> {
    if option_env!("FLOW_TOOLKIT_PACKAGED").is_some() {
        return None;
    }
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?.join("runtime");
    let manifest = std::fs::read_to_string(runtime.join("Cargo.toml")).ok()?;
    manifest.contains(&format!("name = \"{PACKAGE}\"")).then_some(runtime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_told_wins_and_is_written_as_given() {
        let source = RuntimeSource::choose(Some("../runtime"), true, Some(PathBuf::from("/x/runtime"))).unwrap();
        assert_eq!(source, RuntimeSource::Told("../runtime".to_owned()));
        assert_eq!(source.dependency(), "{ package = \"flow-toolkit-runtime\", path = \"../runtime\" }");
        assert!(source.comment().contains("--flow-runtime-path"), "{}", source.comment());
    }

    #[test]
    fn once_published_the_version() {
        let source = RuntimeSource::choose(None, true, Some(PathBuf::from("/x/runtime"))).unwrap();
        assert_eq!(source.dependency(), format!("{{ package = \"flow-toolkit-runtime\", version = \"{VERSION}\" }}"));
    }

    #[test]
    fn unpublished_a_checkout_then_a_refusal_that_says_how() {
        let source = RuntimeSource::choose(None, false, Some(PathBuf::from("/x/my \"runtime\""))).unwrap();
        assert_eq!(source.dependency(), "{ package = \"flow-toolkit-runtime\", path = \"/x/my \\\"runtime\\\"\" }");
        let refusal = RuntimeSource::choose(None, false, None).unwrap_err();
        assert!(refusal.contains("--flow-runtime-path DIR") && refusal.contains("not on crates.io"), "{refusal}");
    }

    #[test]
    fn this_checkout_is_found() {
        // Tests are never packaged builds, and run inside the checkout.
        let runtime = built_from_checkout().expect("runtime/ beside gen/");
        assert!(runtime.join("src/lib.rs").is_file(), "{}", runtime.display());
    }
}
