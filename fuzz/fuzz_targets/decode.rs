//! Typed decoding (`core/src/decode.rs`, `plan.rs`, `check.rs`, `value.rs`).
//!
//! Input: a type term as JSON on the first line, the text to decode after
//! the first `\n` (the seeds are the decode vectors, which are exactly
//! that). Terms resolve against the weather listing, the recursive generic
//! fixture and the decode-custom listing (`flow_fuzz::declarations`).
//!
//! Never panics, and a decoded value
//! - is of its type (`check`, which encoding runs on a handler's result);
//! - encodes to canonical JSON text that re-decodes at the same type to the
//!   same value and the same text;
//! - is also what the input's own canonical text decodes to (decoding does
//!   not depend on whitespace, member order or number spelling);
//! - equals itself under Flow's order.

#![no_main]

use std::cmp::Ordering;

use flow_core::check::check;
use flow_core::decode::decode_with;
use flow_core::json;
use flow_core::plan::Plan;
use flow_core::types::parse::term_from_json;
use flow_core::Limits;
use flow_fuzz::{check_canonical, declarations, unbounded};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(split) = data.iter().position(|&b| b == b'\n') else { return };
    let (head, input) = (&data[..split], &data[split + 1..]);
    let limits = Limits::default();
    let Ok(term_json) = json::parse(head, &limits) else { return };
    let Ok(term) = term_from_json(&term_json) else { return };
    let (plan, root) = match Plan::compile(declarations(), &term) {
        Ok(compiled) => compiled,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let value = match decode_with(input, &plan, root, &limits) {
        Ok(value) => value,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    check(&value, &plan, root).unwrap_or_else(|e| panic!("a decoded value is not of its type: {e}"));
    assert_eq!(value.flow_cmp(&value), Ordering::Equal, "a value is not equal to itself");

    // Canonical text is canonical JSON. A number's canonical text may be
    // longer than its input spelling (1e300), so size is not held against it.
    let text = value.to_canonical();
    let tree =
        json::parse_str(&text, &unbounded()).unwrap_or_else(|e| panic!("encoded text is not JSON ({e}): {text}"));
    assert_eq!(check_canonical(&tree, &unbounded()), text, "encoded text is not canonical");

    let again = decode_with(text.as_bytes(), &plan, root, &unbounded())
        .unwrap_or_else(|e| panic!("encoded text does not re-decode ({e}): {text}"));
    assert_eq!(again, value, "re-decoded to another value: {text}");
    assert_eq!(again.to_canonical(), text, "re-encoded to another text");

    let canonical_input = json::canonicalize(input, &limits).expect("decoded text reads as JSON");
    let from_canonical = decode_with(canonical_input.as_bytes(), &plan, root, &unbounded())
        .unwrap_or_else(|e| panic!("the input's canonical text does not decode ({e}): {canonical_input}"));
    assert_eq!(from_canonical, value, "the input's canonical text decodes to another value");
});
