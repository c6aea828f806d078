//! The runtime dependency of a crate `flow-gen --lang rust` writes: one
//! cargo resolves as written, with a comment saying where it comes from.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

/// A fresh empty folder outside the workspace (cargo would take a crate
/// under the workspace root for an unlisted member).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flow-gen-core-source-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Generates the weather crate into `dir/weather-tools` and returns its Cargo.toml.
fn generate(dir: &Path, extra: &[&str]) -> String {
    let listing = repo().join("tests/examples/weather.tools.json");
    let output = Command::new(env!("CARGO_BIN_EXE_flow-gen"))
        .args(["--lang", "rust", listing.to_str().unwrap(), "--out", "weather-tools", "--no-manifest"])
        .args(extra)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    std::fs::read_to_string(dir.join("weather-tools/Cargo.toml")).unwrap()
}

/// `cargo metadata` resolves every dependency of the crate (offline: the
/// workspace's build has every crates.io dependency cached), or says why not.
fn resolves(manifest: &Path) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["metadata", "--offline", "--format-version", "1", "--manifest-path"])
        .arg(manifest)
        .stdout(Stdio::null())
        .output()
        .unwrap();
    output.status.success().then_some(()).ok_or_else(|| String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn untold_it_names_this_checkout_and_cargo_resolves_it() {
    let dir = scratch("checkout");
    let cargo = generate(&dir, &[]);
    assert!(cargo.contains("# flow-runtime from the flow-toolkit checkout flow-gen was built from"), "{cargo}");
    assert!(cargo.contains(&format!("path = \"{}\"", repo().join("runtime").display())), "{cargo}");
    resolves(&dir.join("weather-tools/Cargo.toml")).unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_path_told_is_written_as_given_and_resolves_when_it_is_the_runtime() {
    let dir = scratch("told");
    let runtime = repo().join("runtime");
    let cargo = generate(&dir, &["--flow-runtime-path", runtime.to_str().unwrap()]);
    assert!(cargo.contains("(--flow-runtime-path)"), "{cargo}");
    resolves(&dir.join("weather-tools/Cargo.toml")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();

    // A wrong path is written as told; cargo's refusal names it.
    let dir = scratch("wrong");
    generate(&dir, &["--flow-runtime-path", "../no-such-runtime"]);
    let refusal = resolves(&dir.join("weather-tools/Cargo.toml")).unwrap_err();
    assert!(refusal.contains("no-such-runtime"), "{refusal}");
    std::fs::remove_dir_all(dir).unwrap();
}
