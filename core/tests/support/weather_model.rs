//! The example weather listing and type terms from JSON text, through the real
//! parser, for tests that build on them.

use flow_core::json;
use flow_core::types::parse::{listing_from_text, term_from_json};
use flow_core::types::{Listing, Term};
use flow_core::Limits;

/// The example listing of `tests/examples/weather.tools.json`.
pub fn weather() -> Listing {
    listing(include_str!("../../../tests/examples/weather.tools.json"))
}

/// A listing from its JSON text; panics when it is invalid.
pub fn listing(text: &str) -> Listing {
    listing_from_text(text.as_bytes(), &Limits::default()).unwrap_or_else(|e| panic!("invalid listing: {e}"))
}

/// A term from its JSON text (`"Int"`, `{"List": "Text"}`); shape only.
pub fn term_text(text: &str) -> Term {
    let json = json::parse_str(text, &Limits::default()).expect("term JSON");
    term_from_json(&json).unwrap_or_else(|e| panic!("invalid term: {e}"))
}
