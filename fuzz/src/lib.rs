//! What the fuzz targets share: the listings they decode and serve against,
//! and the checks every line a peer writes must pass.
//!
//! The listings are compiled into the binaries (`include_bytes!`), so a
//! target runs from any directory and a crash reproduces from its input file
//! alone.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use flow_core::json::{self, Json};
use flow_core::types::parse::listing_from_json;
use flow_core::types::{listing_from_text, Declarations, Listing};
use flow_core::Limits;

const WEATHER: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");
const RECURSIVE: &[u8] = include_bytes!("../fixtures/recursive.tools.json");
/// The decode-custom vectors carry a listing of their own (Bytes, host
/// tokens, Never, a Dict keyed by records, a generic Box of Options).
const CUSTOM_VECTORS: &[u8] = include_bytes!("../../tests/vectors/decode-custom.json");

fn read_listing(what: &str, bytes: &[u8]) -> Listing {
    listing_from_text(bytes, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// tests/examples/weather.tools.json: records, enums, Option fields, the
/// generic Page<T>, the recursive Region, the generic Tool `echo`.
pub fn weather() -> &'static Listing {
    static CELL: OnceLock<Listing> = OnceLock::new();
    CELL.get_or_init(|| read_listing("weather", WEATHER))
}

/// fuzz/fixtures/recursive.tools.json: recursive generic declarations.
pub fn recursive() -> &'static Listing {
    static CELL: OnceLock<Listing> = OnceLock::new();
    CELL.get_or_init(|| read_listing("recursive", RECURSIVE))
}

/// The listing of tests/vectors/decode-custom.json.
pub fn custom() -> &'static Listing {
    static CELL: OnceLock<Listing> = OnceLock::new();
    CELL.get_or_init(|| {
        let file = json::parse(CUSTOM_VECTORS, &Limits::default()).expect("decode-custom.json reads");
        let listing = file.as_object().and_then(|o| o.get("listing")).expect("decode-custom.json has a listing");
        listing_from_json(listing).unwrap_or_else(|e| panic!("decode-custom listing: {e}"))
    })
}

/// Every declaration of the three listings by its local id, so that a term
/// in a decode input can name any of them (the seeds name them as the
/// vectors do). Their local ids are distinct; a clash would make seeds decode
/// at the wrong type, so it stops the target at once.
pub fn declarations() -> &'static Declarations {
    static CELL: OnceLock<Declarations> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut all = BTreeMap::new();
        for listing in [weather(), recursive(), custom()] {
            for (id, template) in &listing.declarations {
                assert!(all.insert(id.clone(), template.clone()).is_none(), "local id {id} in two fixture listings");
            }
        }
        all
    })
}

/// Limits for checking what a peer wrote: the defaults, but no size limit,
/// since a line is judged by its content here, not by its length.
pub fn unbounded() -> Limits {
    Limits { max_bytes: usize::MAX, ..Limits::default() }
}

/// A protocol line as written: one JSON text in canonical form and one `\n`
/// at its end, none inside. Returns the JSON.
pub fn check_line(line: &str) -> Json {
    let Some(text) = line.strip_suffix('\n') else { panic!("a line without its newline: {line:?}") };
    assert!(!text.contains('\n'), "a line with a newline inside: {line:?}");
    let json =
        json::parse_str(text, &unbounded()).unwrap_or_else(|e| panic!("a written line is not JSON ({e}): {line:?}"));
    assert_eq!(json.to_canonical(), text, "a written line is not canonical");
    json
}

/// Canonical text reads back to the same tree and the same text.
pub fn check_canonical(value: &Json, limits: &Limits) -> String {
    let text = value.to_canonical();
    let again =
        json::parse_str(&text, limits).unwrap_or_else(|e| panic!("canonical text does not read back ({e}): {text}"));
    assert_eq!(&again, value, "canonical text reads back to another value: {text}");
    assert_eq!(again.to_canonical(), text, "canonical text is not a fixed point");
    text
}
