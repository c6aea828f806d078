//! Typed round trips of the shared decode vectors on the generated Rust
//! types: for every case with a canonical text, the core decodes the input,
//! the value becomes the generated Rust type, and back, and its canonical text
//! is byte-identical to the expected one. Sets arrive in Flow's order and
//! leave in the Rust type's (`BTreeSet`, derived `Ord`), so every Set case
//! also shows that the derived order is `decisions.md` section 3's.

use std::collections::{BTreeMap, BTreeSet};

use flow_core::types::parse::{listing_from_json, term_from_json};
use flow_core::types::write::term_to_json;
use flow_core::types::Listing;
use flow_core::{decode, Limits, Value};
use flow_runtime::codec::{BigDecimal, BigInt, Duration, FromValue, HostToken, Instant, IntoValue, Json};

type RoundTrip = fn(Value) -> Value;

fn through<T: FromValue + IntoValue>(value: Value) -> Value {
    T::from_value(value).unwrap_or_else(|e| panic!("{e}")).into_value()
}

/// The Rust type of each term the vectors use, by the term's canonical text.
fn weather_types() -> BTreeMap<&'static str, RoundTrip> {
    use weather_tools::*;
    let mut types: BTreeMap<&'static str, RoundTrip> = BTreeMap::new();
    let named = |id: &str| format!(r#"{{"Named":{{"args":[],"declaration":"{id}"}}}}"#);
    let entries: Vec<(String, RoundTrip)> = vec![
        (named("1"), through::<Forecast>),
        (named("2"), through::<Day>),
        (named("3"), through::<Sky>),
        (named("4"), through::<WeatherError>),
        (named("7"), through::<Region>),
        (named("8"), through::<Units>),
        (
            r#"{"Named":{"args":[{"Named":{"args":[],"declaration":"6"}}],"declaration":"5"}}"#.into(),
            through::<Page<Station>>,
        ),
        (r#"{"Named":{"args":["Int"],"declaration":"5"}}"#.into(), through::<Page<BigInt>>),
        (r#"{"Named":{"args":[{"Option":"Int"}],"declaration":"5"}}"#.into(), through::<Page<Option<BigInt>>>),
        (
            r#"{"Named":{"args":[{"Named":{"args":["Int"],"declaration":"5"}}],"declaration":"5"}}"#.into(),
            through::<Page<Page<BigInt>>>,
        ),
        (r#""Int""#.into(), through::<BigInt>),
        (r#""Decimal""#.into(), through::<BigDecimal>),
        (r#""Text""#.into(), through::<String>),
        (r#""Bool""#.into(), through::<bool>),
        (r#""Bytes""#.into(), through::<Vec<u8>>),
        (r#""Unit""#.into(), through::<()>),
        (r#""Instant""#.into(), through::<Instant>),
        (r#""Duration""#.into(), through::<Duration>),
        (r#""json.Value""#.into(), through::<Json>),
        (r#"{"List":"Int"}"#.into(), through::<Vec<BigInt>>),
        (r#"{"List":{"List":"Int"}}"#.into(), through::<Vec<Vec<BigInt>>>),
        (r#"{"List":{"Option":"Int"}}"#.into(), through::<Vec<Option<BigInt>>>),
        (r#"{"Set":"Int"}"#.into(), through::<BTreeSet<BigInt>>),
        (r#"{"Set":"Decimal"}"#.into(), through::<BTreeSet<BigDecimal>>),
        (r#"{"Set":"Text"}"#.into(), through::<BTreeSet<String>>),
        (r#"{"Set":"Bool"}"#.into(), through::<BTreeSet<bool>>),
        (r#"{"Set":"Unit"}"#.into(), through::<BTreeSet<()>>),
        (r#"{"Set":"Bytes"}"#.into(), through::<BTreeSet<Vec<u8>>>),
        (r#"{"Set":"Duration"}"#.into(), through::<BTreeSet<Duration>>),
        (r#"{"Set":"Instant"}"#.into(), through::<BTreeSet<Instant>>),
        (r#"{"Set":{"List":"Int"}}"#.into(), through::<BTreeSet<Vec<BigInt>>>),
        (r#"{"Set":{"Tuple":["Int","Text"]}}"#.into(), through::<BTreeSet<(BigInt, String)>>),
        (r#"{"Set":{"Option":"Int"}}"#.into(), through::<BTreeSet<Option<BigInt>>>),
        (r#"{"Set":{"Set":"Int"}}"#.into(), through::<BTreeSet<BTreeSet<BigInt>>>),
        (r#"{"Set":{"Dict":["Text","Int"]}}"#.into(), through::<BTreeSet<BTreeMap<String, BigInt>>>),
        (r#"{"Set":{"Dict":["Int","Text"]}}"#.into(), through::<BTreeSet<BTreeMap<BigInt, String>>>),
        (r#"{"Set":"json.Value"}"#.into(), through::<BTreeSet<Json>>),
        (format!(r#"{{"Set":{}}}"#, named("8")), through::<BTreeSet<Units>>),
        (format!(r#"{{"Set":{}}}"#, named("3")), through::<BTreeSet<Sky>>),
        (format!(r#"{{"Set":{}}}"#, named("4")), through::<BTreeSet<WeatherError>>),
        (format!(r#"{{"Set":{}}}"#, named("6")), through::<BTreeSet<Station>>),
        (format!(r#"{{"Set":{}}}"#, named("7")), through::<BTreeSet<Region>>),
        (r#"{"Dict":["Text","Int"]}"#.into(), through::<BTreeMap<String, BigInt>>),
        (r#"{"Dict":["Text",{"Option":"Int"}]}"#.into(), through::<BTreeMap<String, Option<BigInt>>>),
        (r#"{"Dict":["Text",{"Dict":["Text","Int"]}]}"#.into(), through::<BTreeMap<String, BTreeMap<String, BigInt>>>),
        (r#"{"Dict":["Int","Text"]}"#.into(), through::<BTreeMap<BigInt, String>>),
        (r#"{"Dict":["Decimal","Text"]}"#.into(), through::<BTreeMap<BigDecimal, String>>),
        (r#"{"Dict":["Bool","Int"]}"#.into(), through::<BTreeMap<bool, BigInt>>),
        (r#"{"Dict":[{"List":"Int"},"Int"]}"#.into(), through::<BTreeMap<Vec<BigInt>, BigInt>>),
        (r#"{"Dict":["Int",{"Option":"Int"}]}"#.into(), through::<BTreeMap<BigInt, Option<BigInt>>>),
        (format!(r#"{{"Dict":[{},"Int"]}}"#, named("8")), through::<BTreeMap<Units, BigInt>>),
        (r#"{"Dict":["json.Value","Int"]}"#.into(), through::<BTreeMap<Json, BigInt>>),
        (r#"{"Tuple":["Int","Text"]}"#.into(), through::<(BigInt, String)>),
        (r#"{"Tuple":["Int","Text","Bool"]}"#.into(), through::<(BigInt, String, bool)>),
        (r#"{"Tuple":[{"Option":"Int"},"Unit"]}"#.into(), through::<(Option<BigInt>, ())>),
        (r#"{"Option":"Int"}"#.into(), through::<Option<BigInt>>),
        (r#"{"Option":{"Option":"Int"}}"#.into(), through::<Option<Option<BigInt>>>),
        (r#"{"Option":"Unit"}"#.into(), through::<Option<()>>),
        (r#"{"Option":"json.Value"}"#.into(), through::<Option<Json>>),
    ];
    for (term, f) in entries {
        types.insert(Box::leak(term.into_boxed_str()), f);
    }
    types
}

fn codec_types() -> BTreeMap<&'static str, RoundTrip> {
    use codec_tools::*;
    let entries: [(&'static str, RoundTrip); 15] = [
        (r#"{"Named":{"args":[],"declaration":"shape"}}"#, through::<Shape>),
        (r#"{"Set":{"Named":{"args":[],"declaration":"shape"}}}"#, through::<BTreeSet<Shape>>),
        (r#"{"Named":{"args":[{"Option":"Int"}],"declaration":"box"}}"#, through::<codec_tools::Box<Option<BigInt>>>),
        (r#"{"Named":{"args":["Int"],"declaration":"box"}}"#, through::<codec_tools::Box<BigInt>>),
        (r#"{"Named":{"args":[{"Option":"Unit"}],"declaration":"box"}}"#, through::<codec_tools::Box<Option<()>>>),
        (
            r#"{"Named":{"args":[{"Option":{"Option":"Int"}}],"declaration":"box"}}"#,
            through::<codec_tools::Box<Option<Option<BigInt>>>>,
        ),
        (
            r#"{"Named":{"args":[{"List":{"Option":"Int"}}],"declaration":"box"}}"#,
            through::<codec_tools::Box<Vec<Option<BigInt>>>>,
        ),
        (
            r#"{"Named":{"args":[{"Option":"Never"}],"declaration":"box"}}"#,
            through::<codec_tools::Box<Option<flow_runtime::codec::Never>>>,
        ),
        (
            r#"{"Named":{"args":[{"Named":{"args":[],"declaration":"shape"}}],"declaration":"box"}}"#,
            through::<codec_tools::Box<Shape>>,
        ),
        (r#"{"Named":{"args":[],"declaration":"opts"}}"#, through::<Opts>),
        (r#"{"Dict":[{"Named":{"args":[],"declaration":"person"}},"Text"]}"#, through::<BTreeMap<Person, String>>),
        (r#"{"Set":{"Named":{"args":[],"declaration":"person"}}}"#, through::<BTreeSet<Person>>),
        (r#"{"Named":{"args":[],"declaration":"token"}}"#, through::<HostToken>),
        (r#"{"List":{"Named":{"args":[],"declaration":"token"}}}"#, through::<Vec<Token>>),
        (r#"{"Named":{"args":[],"declaration":"blob"}}"#, through::<Blob>),
    ];
    entries.into_iter().collect()
}

fn read(path: &str) -> Json {
    let text = std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    flow_core::json::parse_str(&text, &Limits::default()).unwrap()
}

/// Runs every canonical case of `file` through `types`; returns how many ran.
fn run(file: &str, listing: &Listing, types: &BTreeMap<&'static str, RoundTrip>) -> usize {
    let vectors = read(&format!("tests/vectors/{file}.json"));
    let mut ran = 0;
    for case in vectors.as_object().unwrap().get("cases").unwrap().as_array().unwrap() {
        let case = case.as_object().unwrap();
        let (Some(input), Some(canonical)) = (case.get("input"), case.get("canonical")) else { continue };
        let name = case.get("name").unwrap().as_str().unwrap();
        let term = term_from_json(case.get("type").unwrap()).unwrap();
        let key = term_to_json(&term).to_canonical();
        let round_trip = types.get(key.as_str()).unwrap_or_else(|| panic!("{file} {name}: no Rust type for {key}"));
        let value =
            decode::decode(input.as_str().unwrap().as_bytes(), &term, &listing.declarations, &Limits::default())
                .unwrap_or_else(|e| panic!("{file} {name}: {e}"));
        assert_eq!(round_trip(value).to_canonical(), canonical.as_str().unwrap(), "{file} {name}");
        ran += 1;
    }
    ran
}

#[test]
fn every_canonical_weather_vector_survives_the_generated_types() {
    let weather = listing_from_json(&read("tests/examples/weather.tools.json")).unwrap();
    let types = weather_types();
    let ran: usize =
        ["decode-weather", "decode-compound", "decode-primitives"].iter().map(|f| run(f, &weather, &types)).sum();
    assert!(ran > 150, "only {ran} cases");
}

#[test]
fn every_canonical_custom_vector_survives_the_generated_types() {
    let custom = listing_from_json(&read("tests/examples/codec.tools.json")).unwrap();
    assert!(run("decode-custom", &custom, &codec_types()) > 25);
}
