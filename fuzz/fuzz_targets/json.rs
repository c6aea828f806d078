//! JSON reading and canonical text (`core/src/json.rs`, `number.rs`).
//!
//! Any bytes: reading never panics, and
//! - an accepted text keeps every rule: no byte-order mark, valid UTF-8, no
//!   deeper than the depth limit, no number longer than the digit limit; each
//!   limit is exact (the text reads at its own depth, digit count and length,
//!   and is refused with that limit's rule one below);
//! - its canonical text reads back to the same value and is a fixed point,
//!   and `canonicalize` gives that same text;
//! - serde_json, an independent RFC 8259 reader, accepts it too and reads the
//!   same value (compared through canonical text);
//! - a refusal names a JSON rule, and one for syntax is shared by serde_json.

#![no_main]

use flow_core::json::{self, Json};
use flow_core::{Limits, Rule};
use flow_fuzz::{check_canonical, unbounded};
use libfuzzer_sys::fuzz_target;

const BOM: &[u8] = &[0xEF, 0xBB, 0xBF];

/// Nesting of arrays and objects, the outermost counting as 1.
fn depth(value: &Json) -> usize {
    match value {
        Json::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Json::Object(object) => 1 + object.iter().map(|(_, v)| depth(v)).max().unwrap_or(0),
        _ => 0,
    }
}

/// The most digits any number has in canonical text, each count checked
/// against the text actually written.
fn max_digits(value: &Json) -> Option<u64> {
    match value {
        Json::Number(n) => {
            let text = n.to_canonical();
            let written = text.bytes().filter(u8::is_ascii_digit).count() as u64;
            assert_eq!(n.canonical_digit_count(), written, "digit count of {text}");
            Some(written)
        }
        Json::Array(items) => items.iter().filter_map(max_digits).max(),
        Json::Object(object) => object.iter().filter_map(|(_, v)| max_digits(v)).max(),
        _ => None,
    }
}

/// The deepest bracket nesting in the text outside strings, however malformed
/// the rest: a text refused as too deep must get past the limit here too.
fn bracket_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escape) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            match (escape, b) {
                (true, _) => escape = false,
                (false, b'\\') => escape = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn refused_with(data: &[u8], limits: &Limits, rule: Rule) {
    match json::parse(data, limits) {
        Ok(_) => panic!("accepted under {limits:?}, expected {rule:?}"),
        Err(e) => assert_eq!(e.rule, rule, "under {limits:?}: {e}"),
    }
}

fn accepted(data: &[u8], value: &Json) {
    let limits = Limits::default();
    assert!(!data.starts_with(BOM), "accepted a byte-order mark");
    assert!(std::str::from_utf8(data).is_ok(), "accepted invalid UTF-8");
    let d = depth(value);
    assert!(d <= limits.max_depth, "accepted depth {d}");
    let digits = max_digits(value);
    assert!(digits.is_none_or(|m| m <= limits.max_digits), "accepted {digits:?} digits");

    let text = check_canonical(value, &unbounded());
    assert_eq!(json::canonicalize(data, &limits).expect("canonicalize agrees with parse"), text);

    // Each limit is exact.
    let at = |l: Limits| json::parse(data, &l).unwrap_or_else(|e| panic!("refused at its own measure {l:?}: {e}"));
    assert_eq!(&at(Limits { max_depth: d, ..limits }), value);
    assert_eq!(&at(Limits { max_bytes: data.len(), ..limits }), value);
    if d > 0 {
        refused_with(data, &Limits { max_depth: d - 1, ..limits }, Rule::TooDeep);
    }
    if !data.is_empty() {
        refused_with(data, &Limits { max_bytes: data.len() - 1, ..limits }, Rule::TooLarge);
    }
    if let Some(m) = digits {
        at(Limits { max_digits: m, ..limits });
        refused_with(data, &Limits { max_digits: m - 1, ..limits }, Rule::NumberTooLarge);
    }

    // serde_json's own recursion limit stops at 127 levels; below it, it must
    // read the same value.
    if d < 127 {
        let reference: serde_json::Value =
            serde_json::from_slice(data).unwrap_or_else(|e| panic!("serde_json refuses what was accepted: {e}"));
        let written = serde_json::to_string(&reference).expect("serde_json writes what it read");
        let again = json::canonicalize(written.as_bytes(), &unbounded()).expect("serde_json's text reads");
        assert_eq!(again, text, "serde_json read another value");
    }
}

fuzz_target!(|data: &[u8]| {
    match json::parse(data, &Limits::default()) {
        Ok(value) => accepted(data, &value),
        Err(e) => {
            let _ = e.to_string();
            match e.rule {
                Rule::Syntax => {
                    // A text cut short or otherwise broken is broken for any reader.
                    assert!(
                        serde_json::from_slice::<serde_json::Value>(data).is_err(),
                        "serde_json accepts a syntax error: {e}"
                    );
                }
                Rule::Utf8 => assert!(std::str::from_utf8(data).is_err(), "refused valid UTF-8: {e}"),
                Rule::ByteOrderMark => assert!(data.starts_with(BOM)),
                Rule::TooDeep => assert!(
                    bracket_depth(data) > Limits::default().max_depth,
                    "too deep at depth {}",
                    bracket_depth(data)
                ),
                Rule::NumberTooLarge | Rule::DuplicateKey | Rule::LoneSurrogate | Rule::TooLarge => {}
                other => panic!("JSON reading refused with a rule that is not JSON's: {other:?}: {e}"),
            }
        }
    }
});
