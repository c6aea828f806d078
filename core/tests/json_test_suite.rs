//! RFC 8259 conformance with JSONTestSuite (../shared/third_party/JSONTestSuite):
//! every `y_` file reads (as json.Value), every `n_` file is refused, and no `i_`
//! file panics. The two `y_object_duplicated_key*` files are refused on purpose:
//! RFC 8259 allows duplicate keys, this spec does not.

use std::path::PathBuf;

use flow_core::{json, Limits, Rule};

fn suite_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/third_party/JSONTestSuite/test_parsing");
    assert!(dir.is_dir(), "JSONTestSuite not found at {}", dir.display());
    dir
}

fn files(prefix: &str) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(suite_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no {prefix} files");
    out
}

#[test]
fn accepts_every_y_file() {
    let mut checked = 0;
    for (name, bytes) in files("y_") {
        let result = json::canonicalize(&bytes, &Limits::default());
        if name.starts_with("y_object_duplicated_key") {
            assert_eq!(result.unwrap_err().rule, Rule::DuplicateKey, "{name}");
        } else {
            let canonical = result.unwrap_or_else(|e| panic!("{name}: {e}"));
            // Canonical text reads back to itself.
            assert_eq!(json::canonicalize(canonical.as_bytes(), &Limits::default()).unwrap(), canonical, "{name}");
        }
        checked += 1;
    }
    assert!(checked > 90, "only {checked} y_ files");
}

#[test]
fn refuses_every_n_file() {
    for (name, bytes) in files("n_") {
        if let Ok(text) = json::canonicalize(&bytes, &Limits::default()) {
            panic!("{name} was accepted as {text}");
        }
    }
}

#[test]
fn survives_every_i_file() {
    for (name, bytes) in files("i_") {
        // Either answer is allowed; a refusal must name a rule, and an
        // acceptance must be canonical.
        match json::canonicalize(&bytes, &Limits::default()) {
            Ok(text) => assert_eq!(json::canonicalize(text.as_bytes(), &Limits::default()).unwrap(), text, "{name}"),
            Err(e) => assert!(!e.message.is_empty(), "{name}"),
        }
    }
}
