//! `flow-gen --lang rust`, run as a person runs it: the committed samples are
//! what generation writes, `--check` names stale files, an invalid listing
//! writes nothing, and with no arguments a Tool repository gets its package
//! and its flow.toml binding.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

fn flow_gen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flow-gen")).args(args).current_dir(dir).stdin(Stdio::null()).output().unwrap()
}

fn ok(output: &Output) -> String {
    assert!(output.status.success(), "failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A fresh empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flow-gen-rust-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir`, by relative path.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(path.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// Generates a sample as its committed copy was generated (from the
/// repository root, into `generated-samples/rust/NAME`), in a scratch folder,
/// and compares every file, scaffolds included.
fn regenerates(name: &str) {
    let dir = scratch(name);
    let listing = repo().join(format!("tests/examples/{name}.tools.json"));
    let out = format!("generated-samples/rust/{name}");
    let args = [
        "--lang",
        "rust",
        listing.to_str().unwrap(),
        "--out",
        &out,
        "--no-manifest",
        "--flow-runtime-path",
        "../../../runtime",
    ];
    ok(&flow_gen(&dir, &args));
    let fresh = files(&dir.join(&out));
    let committed = files(&repo().join(&out));
    assert_eq!(fresh.keys().collect::<Vec<_>>(), committed.keys().collect::<Vec<_>>(), "the file sets differ");
    for (path, contents) in &fresh {
        assert!(
            committed[path] == *contents,
            "{out}/{} differs from what flow-gen writes: regenerate it (see generated-samples/README.md)",
            path.display()
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_weather_sample_is_what_generation_writes() {
    regenerates("weather");
}

#[test]
fn the_keywords_sample_is_what_generation_writes() {
    regenerates("keywords");
}

#[test]
fn the_codec_sample_is_what_generation_writes() {
    // Its listing is the one the decode-custom vectors decode at.
    let vectors = std::fs::read_to_string(repo().join("tests/vectors/decode-custom.json")).unwrap();
    let vectors = flow_core::json::parse_str(&vectors, &flow_core::Limits::default()).unwrap();
    let listing = std::fs::read_to_string(repo().join("tests/examples/codec.tools.json")).unwrap();
    let listing = flow_core::json::parse_str(&listing, &flow_core::Limits::default()).unwrap();
    assert_eq!(
        vectors.as_object().unwrap().get("listing"),
        Some(&listing),
        "tests/examples/codec.tools.json is not the vectors' listing"
    );
    regenerates("codec");
}

/// The property test's fixtures (`tests/examples/genprop_*.tools.json`:
/// listings that once broke a generator), by name.
fn fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join("tests/examples"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".tools.json").filter(|n| n.starts_with("genprop_")).map(str::to_owned))
        .collect();
    names.sort();
    names
}

#[test]
fn the_fixture_samples_are_what_generation_writes() {
    let names = fixtures();
    assert!(!names.is_empty(), "no property test fixtures under tests/examples");
    for name in names {
        regenerates(&name);
    }
}

/// The samples read as formatted Rust: rustfmt (default settings, as the
/// generated crates carry no rustfmt.toml) changes nothing.
#[test]
fn the_samples_are_as_rustfmt_formats_them() {
    for name in ["weather", "keywords", "codec"] {
        let src = repo().join(format!("generated-samples/rust/{name}/src"));
        let sources: Vec<PathBuf> =
            files(&src).into_keys().filter(|p| p.extension().is_some_and(|e| e == "rs")).map(|p| src.join(p)).collect();
        let output = Command::new("rustfmt")
            .args(["--edition", "2021", "--check"])
            .args(&sources)
            .output()
            .expect("rustfmt runs (rustup component add rustfmt)");
        assert!(output.status.success(), "{name}: rustfmt would change:\n{}", String::from_utf8_lossy(&output.stdout));
    }
}

#[test]
fn check_names_stale_generated_files_and_leaves_scaffolds_alone() {
    let repo = repo();
    let weather = repo.join("tests/examples/weather.tools.json");
    let args = ["--lang", "rust", weather.to_str().unwrap(), "--out", "generated-samples/rust/weather", "--check"];
    assert!(ok(&flow_gen(&repo, &args)).starts_with("up to date: "));

    let dir = scratch("check");
    let out = dir.join("weather-tools");
    let generate = ["--lang", "rust", weather.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-manifest"];
    ok(&flow_gen(&dir, &generate));
    // The author's files are theirs: editing them is no staleness.
    std::fs::write(out.join("src/implementation.rs"), "// mine\n").unwrap();
    let check: Vec<&str> = generate.iter().copied().chain(["--check"]).collect();
    ok(&flow_gen(&dir, &check));
    std::fs::write(out.join("src/types.rs"), "// edited\n").unwrap();
    std::fs::remove_file(out.join("src/describe.json")).unwrap();
    let stale = flow_gen(&dir, &check);
    assert_eq!(stale.status.code(), Some(1));
    let stderr = String::from_utf8(stale.stderr).unwrap();
    assert!(stderr.contains("not up to date: ") && stderr.contains("src/types.rs"), "{stderr}");
    assert!(stderr.contains("src/describe.json") && !stderr.contains("implementation.rs"), "{stderr}");
    // Generating again restores the generated files and keeps the author's.
    ok(&flow_gen(&dir, &generate));
    ok(&flow_gen(&dir, &check));
    assert_eq!(std::fs::read_to_string(out.join("src/implementation.rs")).unwrap(), "// mine\n");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn nothing_is_written_for_a_listing_that_cannot_be_served() {
    let dir = scratch("invalid");
    let weather = std::fs::read_to_string(repo().join("tests/examples/weather.tools.json")).unwrap();
    // Invalid: a template whose name is not its identity's NAME.
    std::fs::write(dir.join("bad.tools.json"), weather.replace("\"name\": \"Units\"", "\"name\": \"Unit\"")).unwrap();
    // Valid, but a Set of host tokens has no order, so cannot cross.
    let tokens = r#"{"data":"0.1","tools":[{"tool":"t.flow.f","doc":null,"generic":[],"params":[{"name":"s","type":{"Set":{"Named":{"declaration":"k","args":[]}}}}],"ok":"Unit","err":"Never"}],
        "declarations":{"k":{"name":"K","identity":"t.flow.K","lexical_ordinal":1,"generic":[],"opaque":true,"kind":"host","doc":null}}}"#;
    std::fs::write(dir.join("tokens.tools.json"), tokens).unwrap();
    // Nor a Dict keyed by one, wherever the token sits inside the key.
    std::fs::write(
        dir.join("keys.tools.json"),
        tokens.replace(
            r#"{"Set":{"Named":{"declaration":"k","args":[]}}}"#,
            r#"{"Dict":[{"Tuple":["Int",{"Named":{"declaration":"k","args":[]}}]},"Int"]}"#,
        ),
    )
    .unwrap();
    for (listing, expected) in [
        ("bad.tools.json", "[identity]"),
        ("tokens.tools.json", "$.tools[0].params[0].type: t.flow.f: parameter s: Set<K> cannot cross"),
        ("keys.tools.json", "has keys that hold a host token (K)"),
    ] {
        let output = flow_gen(&dir, &["--lang", "rust", listing, "--out", "out"]);
        assert_eq!(output.status.code(), Some(1), "{listing}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!dir.join("out").exists() && !dir.join("flow.toml").exists(), "{listing} wrote something");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn with_no_arguments_a_tool_repository_gets_its_package_and_binding() {
    let dir = scratch("repository");
    std::fs::copy(repo().join("tests/examples/weather.tools.json"), dir.join("flow.tools.json")).unwrap();
    std::fs::write(dir.join("flow.toml"), "# the Tools of this repository\n").unwrap();
    let output = flow_gen(&dir, &["--lang", "rust"]);
    ok(&output);
    let package = files(&dir.join("weather-tools"));
    for file in ["Cargo.toml", "src/lib.rs", "src/types.rs", "src/tools.rs", "src/main.rs", "src/implementation.rs"] {
        assert!(package.contains_key(Path::new(file)), "{file} missing");
    }
    let manifest = std::fs::read_to_string(dir.join("flow.toml")).unwrap();
    assert!(manifest.contains("# the Tools of this repository\n"), "{manifest}");
    assert!(
        manifest.contains(
            "[tools.\"weather.flow\"]\ncommand = \"cargo run --quiet --release --manifest-path weather-tools/Cargo.toml\""
        ),
        "{manifest}"
    );
    let cargo = String::from_utf8(package[Path::new("Cargo.toml")].clone()).unwrap();
    // Not on crates.io yet: this checkout's runtime/, which cargo resolves.
    let runtime = repo().join("runtime");
    assert!(
        cargo.contains(&format!(
            "flow-runtime = {{ package = \"flow-toolkit-runtime\", path = \"{}\" }}",
            runtime.display()
        )),
        "{cargo}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
