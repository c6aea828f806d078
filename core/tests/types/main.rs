//! Type descriptions: every rule of host-boundary.md "Type descriptions" and
//! decisions.md 2a, 5, 6, each with an accepting and a refusing case, the
//! refusals checked for their rule and their path (tests/vectors/README.md).
//!
//! One file per module of `flow_core::types` exercised: `parse` (exact shapes,
//! versions, terms), `validate`, `identity`, `reach`, `recursion`, `view` (call
//! views), `crossing` and `hint` (refusals that say the fix).

// One file per module of `flow_core::types` exercised; the listing builders
// below are shared by all of them.
mod crossing;
mod hint;
mod identity;
mod parse;
mod reach;
mod recursion;
mod validate;
mod view;

#[path = "../support/mod.rs"]
mod support;

use flow_core::json::{self, Json};
use flow_core::types::*;
use flow_core::{Limits, Result};

const WEATHER: &str = include_str!("../../../tests/examples/weather.tools.json");

fn parse(text: &str) -> Json {
    json::parse_str(text, &Limits::default()).unwrap_or_else(|e| panic!("test JSON does not parse: {e}\n{text}"))
}

/// The weather listing in canonical text, which edits below work on.
fn weather() -> String {
    parse(WEATHER).to_canonical()
}

/// `text` with the first `from` replaced by `to`; `from` must occur.
fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "edit target {from} not in\n{text}");
    text.replacen(from, to, 1)
}

fn refusal<T: std::fmt::Debug>(result: Result<T>) -> (&'static str, String) {
    let e = result.expect_err("expected a refusal");
    (e.rule.code(), e.path.to_string())
}

fn listing(text: &str) -> Result<Listing> {
    listing_from_text(text.as_bytes(), &Limits::default())
}

fn refuse(text: &str) -> (&'static str, String) {
    refusal(listing(text))
}

fn accept(text: &str) -> Listing {
    listing(text).unwrap_or_else(|e| panic!("refused: {e}\n{text}"))
}

/// The echo Tool's generic member in the canonical weather text (the
/// declarations come first there, and Page's generic is also `["T"]`).
const ECHO_GENERIC: &str = r#""err":"Never","generic":["T"]"#;

fn expect(text: &str, rule: &str, path: &str) {
    assert_eq!(refuse(text), (rule, path.to_owned()), "{text}");
}

// --- small listings built from parts -------------------------------------

fn named(id: &str, args: &[&str]) -> String {
    format!(r#"{{"Named":{{"declaration":"{id}","args":[{}]}}}}"#, args.join(","))
}

fn param(owner: &str, index: &str) -> String {
    format!(r#"{{"Param":{{"owner":"{owner}","index":{index}}}}}"#)
}

fn strings(items: &[&str]) -> String {
    items.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(",")
}

fn tool(name: &str, generic: &[&str], params: &[(&str, &str)], ok: &str, err: &str) -> String {
    let params = params.iter().map(|(n, t)| format!(r#"{{"name":"{n}","type":{t}}}"#)).collect::<Vec<_>>().join(",");
    format!(
        r#"{{"tool":"r@1/f.flow.{name}","doc":null,"generic":[{}],"params":[{params}],"ok":{ok},"err":{err}}}"#,
        strings(generic)
    )
}

fn fields(fields: &[(&str, &str)]) -> String {
    fields.iter().map(|(n, t)| format!(r#"{{"name":"{n}","type":{t},"doc":null}}"#)).collect::<Vec<_>>().join(",")
}

fn record(name: &str, generic: &[&str], members: &[(&str, &str)]) -> String {
    format!(
        r#"{{"name":"{name}","identity":"r@1/f.flow.{name}","lexical_ordinal":1,"generic":[{}],"opaque":false,"kind":"record","doc":null,"fields":[{}]}}"#,
        strings(generic),
        fields(members)
    )
}

/// An enum; `constructors` is the raw JSON array content.
fn enumeration(name: &str, generic: &[&str], constructors: &str) -> String {
    format!(
        r#"{{"name":"{name}","identity":"r@1/f.flow.{name}","lexical_ordinal":1,"generic":[{}],"opaque":false,"kind":"enum","doc":null,"constructors":[{constructors}]}}"#,
        strings(generic)
    )
}

fn document(tools: &[String], declarations: &[(&str, String)]) -> String {
    let declarations = declarations.iter().map(|(id, t)| format!(r#""{id}":{t}"#)).collect::<Vec<_>>().join(",");
    format!(r#"{{"data":"0.1","tools":[{}],"declarations":{{{declarations}}}}}"#, tools.join(","))
}

/// One tool `t` returning `ok` with the given declarations.
fn returning(ok: &str, declarations: &[(&str, String)]) -> String {
    document(&[tool("t", &[], &[], ok, "\"Never\"")], declarations)
}
