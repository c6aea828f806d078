//! RFC 8259 conformance with JSONTestSuite (third_party/JSONTestSuite, with its licence):
//! every `y_` file reads (as json.Value), every `n_` file is refused, and no `i_`
//! file panics. The two `y_object_duplicated_key*` files are refused on purpose:
//! RFC 8259 allows duplicate keys, this spec does not. And the reader's events
//! (`json::read`, what bindings build from without a tree) and the streaming
//! canonical writer (`json::canonicalize`) agree with the tree on every file.

use std::path::PathBuf;

use flow_core::json::read::{read, Keys, Order, Sink};
use flow_core::number::{Number, ScannedNumber};
use flow_core::{json, Limits, Rule};

fn suite_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../third_party/JSONTestSuite/test_parsing");
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

/// Canonical text written from the reader's events alone: each value's text,
/// objects' members put in the order the reader gives. Numbers go through the
/// views a sink takes (digits and exponent, and the small coefficient).
struct CanonicalText;

impl Sink for CanonicalText {
    type Value = String;
    type Array = Vec<String>;
    type Object = Vec<(String, String)>;

    fn null(&mut self) -> String {
        "null".into()
    }

    fn boolean(&mut self, value: bool) -> String {
        value.to_string()
    }

    fn number(&mut self, number: &ScannedNumber<'_>) -> String {
        let mut digits = Vec::new();
        let exponent = number.write_digits(&mut digits);
        let n = Number::from_parts(number.is_negative(), std::str::from_utf8(&digits).unwrap(), exponent);
        assert_eq!(n, number.to_number());
        if let Some((c, e)) = number.small() {
            assert_eq!(Number::from_parts(c < 0, &c.unsigned_abs().to_string(), e), n);
        }
        n.to_canonical()
    }

    fn string(&mut self, text: &str) -> String {
        let mut out = String::new();
        json::write_string(&mut out, text);
        out
    }

    fn begin_array(&mut self) -> Vec<String> {
        Vec::new()
    }

    fn item(&mut self, array: &mut Vec<String>, item: String) {
        array.push(item);
    }

    fn end_array(&mut self, array: Vec<String>) -> String {
        format!("[{}]", array.join(","))
    }

    fn begin_object(&mut self) -> Self::Object {
        Vec::new()
    }

    fn key(&mut self, object: &mut Self::Object, key: &str) {
        object.push((self.string(key), String::new()));
    }

    fn member(&mut self, object: &mut Self::Object, value: String) {
        object.last_mut().unwrap().1 = value;
    }

    fn end_object(&mut self, object: Self::Object, _: Keys<'_>, order: Order<'_>) -> String {
        let members: Vec<String> = match order {
            Order::Text => object.iter().map(|(k, v)| format!("{k}:{v}")).collect(),
            Order::Sorted(order) => {
                assert_eq!(order.len(), object.len());
                order.iter().map(|&i| format!("{}:{}", object[i].0, object[i].1)).collect()
            }
        };
        format!("{{{}}}", members.join(","))
    }
}

#[test]
fn events_agree_with_the_tree_on_every_file() {
    let mut checked = 0;
    for prefix in ["y_", "n_", "i_"] {
        for (name, bytes) in files(prefix) {
            let tree = json::canonicalize_through_tree(&bytes, &Limits::default());
            let events = read(&bytes, &Limits::default(), &mut CanonicalText);
            let streamed = json::canonicalize(&bytes, &Limits::default());
            match (&tree, streamed) {
                (Ok(a), Ok(b)) => assert_eq!(a, &b, "{name}"),
                (Err(a), Err(b)) => assert_eq!((a.rule, a.path.to_string()), (b.rule, b.path.to_string()), "{name}"),
                (a, b) => panic!("{name}: the tree gave {a:?}, the streaming writer {b:?}"),
            }
            match (tree, events) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}"),
                (Err(a), Err(b)) => assert_eq!((a.rule, a.path.to_string()), (b.rule, b.path.to_string()), "{name}"),
                (a, b) => panic!("{name}: the tree gave {a:?}, the events {b:?}"),
            }
            checked += 1;
        }
    }
    assert!(checked > 300, "only {checked} files");
}
