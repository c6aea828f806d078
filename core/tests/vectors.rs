//! Runs the shared vectors of tests/vectors (format in tests/vectors/README.md).
//! Every case is run; failures are collected and reported together.

use std::path::{Path, PathBuf};

use flow_core::error::Error;
use flow_core::fingerprint::{fingerprint, signature};
use flow_core::json::{self, Json};
use flow_core::schema::SchemaForm;
use flow_core::types::parse::{call_view_from_json, listing_from_json, listing_from_text, term_from_json};
use flow_core::types::validate::check_call_view;
use flow_core::types::{Declarations, Listing, TypeSpec};
use flow_core::{decode, Limits};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read_json(path: &Path) -> Json {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    json::parse(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn str_member<'a>(case: &'a Json, key: &str) -> Option<&'a str> {
    case.as_object().and_then(|o| o.get(key)).and_then(Json::as_str)
}

fn member<'a>(case: &'a Json, key: &str) -> Option<&'a Json> {
    case.as_object().and_then(|o| o.get(key))
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex")).collect()
}

fn limits(case: &Json) -> Limits {
    let mut limits = Limits::default();
    if let Some(Json::Object(o)) = member(case, "limits") {
        let get = |k: &str| {
            o.get(k).map(|v| match v {
                Json::Number(n) => n.to_bigint().and_then(|i| u64::try_from(i).ok()).expect("limit"),
                _ => panic!("limit {k}"),
            })
        };
        if let Some(v) = get("max_bytes") {
            limits.max_bytes = v as usize;
        }
        if let Some(v) = get("max_depth") {
            limits.max_depth = v as usize;
        }
        if let Some(v) = get("max_digits") {
            limits.max_digits = v;
        }
    }
    limits
}

/// Compares an outcome with the case's `canonical`/`ok`/`error` expectation.
fn expect(case: &Json, outcome: Result<Option<String>, Error>) -> Result<(), String> {
    match (member(case, "error"), outcome) {
        (Some(expected), Err(e)) => {
            let rule = str_member(expected, "rule").expect("error.rule");
            if e.rule.code() != rule {
                return Err(format!("expected rule {rule}, got {e}"));
            }
            if let Some(path) = str_member(expected, "path") {
                if e.path.to_string() != path {
                    return Err(format!("expected path {path}, got {e}"));
                }
            }
            Ok(())
        }
        (Some(expected), Ok(text)) => Err(format!("expected refusal {}, got {text:?}", expected.to_canonical())),
        (None, Err(e)) => Err(format!("unexpected refusal: {e}")),
        (None, Ok(text)) => match (str_member(case, "canonical"), text) {
            (Some(want), Some(got)) if want != got => Err(format!("expected {want}\n      got {got}")),
            _ => Ok(()),
        },
    }
}

fn load_listing(file: &Json) -> Option<Listing> {
    match member(file, "listing") {
        None => None,
        Some(Json::String(name)) => {
            assert_eq!(name, "weather", "unknown named listing");
            let bytes = std::fs::read(repo().join("tests/examples/weather.tools.json")).unwrap();
            Some(listing_from_text(&bytes, &Limits::default()).expect("the weather listing is valid"))
        }
        Some(object) => Some(listing_from_json(object).unwrap_or_else(|e| panic!("file listing invalid: {e}"))),
    }
}

fn run_decode(case: &Json, declarations: &Declarations) -> Result<(), String> {
    let term = term_from_json(member(case, "type").expect("type")).map_err(|e| format!("bad type term: {e}"))?;
    let bytes = match (str_member(case, "input"), str_member(case, "input_hex")) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(h)) => hex(h),
        _ => panic!("no input"),
    };
    let outcome = decode::decode(&bytes, &term, declarations, &limits(case)).map(|v| Some(v.to_canonical()));
    expect(case, outcome)
}

fn run_listing(case: &Json) -> Result<(), String> {
    let outcome = match (member(case, "listing"), str_member(case, "listing_text")) {
        (Some(object), _) => listing_from_json(object),
        (None, Some(text)) => listing_from_text(text.as_bytes(), &Limits::default()),
        _ => panic!("no listing"),
    };
    expect(case, outcome.map(|_| None))
}

fn run_call_view(case: &Json, listing: &Listing) -> Result<(), String> {
    let tool = str_member(case, "tool").expect("tool");
    let served = TypeSpec::for_tool(listing, tool).ok_or_else(|| format!("no tool {tool}"))?;
    let types = member(case, "types").expect("types");
    let schema = member(case, "schema").expect("schema");
    let outcome = call_view_from_json(types).and_then(|view| {
        check_call_view(&served, &view)?;
        flow_core::schema::check_call_schema(&view, schema)?;
        Ok(None)
    });
    expect(case, outcome)
}

fn run_signature(case: &Json, listing: &Listing) -> Result<(), String> {
    let id = str_member(case, "tool").expect("tool");
    let tool = listing.tool(id).ok_or_else(|| format!("no tool {id}"))?;
    let d = &listing.declarations;
    if member(case, "error").is_some() {
        return expect(case, fingerprint(tool, d).map(Some));
    }
    let mut problems = Vec::new();
    let mut compare = |what: &str, got: Result<String, Error>| match (str_member(case, what), got) {
        (Some(want), Ok(got)) if want != got => problems.push(format!("{what}: expected\n  {want}\ngot\n  {got}")),
        (Some(_), Err(e)) => problems.push(format!("{what}: refused: {e}")),
        _ => {}
    };
    compare("signature", signature(tool, d, SchemaForm::Describe).map(|j| j.to_canonical()));
    compare("canonical_signature", signature(tool, d, SchemaForm::Canonical).map(|j| j.to_canonical()));
    compare("fingerprint", fingerprint(tool, d));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn shared_vectors() {
    let dir = repo().join("tests/vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in &files {
        let file = read_json(path);
        let kind = str_member(&file, "kind").expect("kind");
        let listing = load_listing(&file);
        let empty = Declarations::new();
        let declarations = listing.as_ref().map_or(&empty, |l| &l.declarations);
        let cases = member(&file, "cases").and_then(Json::as_array).expect("cases");
        for case in cases {
            let name = str_member(case, "name").expect("name");
            let result = match kind {
                "decode" => run_decode(case, declarations),
                "listing" => run_listing(case),
                "call_view" => run_call_view(case, listing.as_ref().expect("call_view files have a listing")),
                "signature" => run_signature(case, listing.as_ref().expect("signature files have a listing")),
                other => panic!("unknown kind {other}"),
            };
            count += 1;
            if let Err(problem) = result {
                let file_name = path.file_name().unwrap().to_string_lossy();
                failures.push(format!("{file_name} / {name}: {problem}"));
            }
        }
    }
    assert!(count > 500, "only {count} vectors ran");
    assert!(failures.is_empty(), "{} of {count} vectors failed:\n{}", failures.len(), failures.join("\n"));
}
