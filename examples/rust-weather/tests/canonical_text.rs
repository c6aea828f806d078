//! The generated types' own canonical text against the value model's: for
//! many seeded random values of each type of the weather, codec and keywords
//! listings (made at the declared type by the testkit, then converted to the
//! generated Rust type), the text `CanonicalText` writes is byte for byte
//! `into_value()` then `to_canonical()`, and that value passes the check at
//! the declared type, so the text the reply takes unchecked is one the check
//! would have let through.

use std::collections::{BTreeMap, BTreeSet};

use flow_core::check::check;
use flow_core::plan::Plan;
use flow_core::types::parse::{listing_from_json, term_from_json};
use flow_core::{Limits, Value};
use flow_runtime::codec::{BigDecimal, BigInt, CanonicalText, Duration, FromValue, HostToken, Instant, Json};
use flow_testkit::random_values::random_value;
use flow_testkit::Rng;

/// A random value converted to its Rust type: the direct text, and the value
/// the Rust value converts back into.
type Both = fn(Value) -> (String, Value);

fn both<T: FromValue + CanonicalText>(value: Value) -> (String, Value) {
    let typed = T::from_value(value).unwrap_or_else(|e| panic!("{e}"));
    let mut direct = String::new();
    typed.write_canonical(&mut direct).expect("a generated type holds no carrier of the value model");
    (direct, typed.into_value())
}

fn named(id: &str) -> String {
    format!(r#"{{"Named":{{"args":[],"declaration":"{id}"}}}}"#)
}

fn weather_types() -> Vec<(String, Both)> {
    use weather_tools::*;
    vec![
        (named("1"), both::<Forecast>),
        (named("2"), both::<Day>),
        (named("3"), both::<Sky>),
        (named("4"), both::<WeatherError>),
        (named("6"), both::<Station>),
        (named("7"), both::<Region>),
        (named("8"), both::<Units>),
        (format!(r#"{{"Named":{{"args":[{}],"declaration":"5"}}}}"#, named("6")), both::<Page<Station>>),
        (r#"{"Named":{"args":[{"Option":"Int"}],"declaration":"5"}}"#.into(), both::<Page<Option<BigInt>>>),
        (format!(r#"{{"Set":{}}}"#, named("3")), both::<BTreeSet<Sky>>),
        (format!(r#"{{"Set":{}}}"#, named("4")), both::<BTreeSet<WeatherError>>),
        (format!(r#"{{"Set":{}}}"#, named("6")), both::<BTreeSet<Station>>),
        (format!(r#"{{"Set":{}}}"#, named("7")), both::<BTreeSet<Region>>),
        (format!(r#"{{"Dict":[{},"Int"]}}"#, named("8")), both::<BTreeMap<Units, BigInt>>),
        (format!(r#"{{"Dict":[{},"Int"]}}"#, named("2")), both::<BTreeMap<Day, BigInt>>),
        (r#""Int""#.into(), both::<BigInt>),
        (r#""Decimal""#.into(), both::<BigDecimal>),
        (r#""Text""#.into(), both::<String>),
        (r#""Bool""#.into(), both::<bool>),
        (r#""Bytes""#.into(), both::<Vec<u8>>),
        (r#""Unit""#.into(), both::<()>),
        (r#""Instant""#.into(), both::<Instant>),
        (r#""Duration""#.into(), both::<Duration>),
        (r#""json.Value""#.into(), both::<Json>),
        (r#"{"List":{"Option":"Int"}}"#.into(), both::<Vec<Option<BigInt>>>),
        (r#"{"Set":"Int"}"#.into(), both::<BTreeSet<BigInt>>),
        (r#"{"Set":"Decimal"}"#.into(), both::<BTreeSet<BigDecimal>>),
        (r#"{"Set":"Text"}"#.into(), both::<BTreeSet<String>>),
        (r#"{"Set":"Bytes"}"#.into(), both::<BTreeSet<Vec<u8>>>),
        (r#"{"Set":"Instant"}"#.into(), both::<BTreeSet<Instant>>),
        (r#"{"Set":"Duration"}"#.into(), both::<BTreeSet<Duration>>),
        (r#"{"Set":"json.Value"}"#.into(), both::<BTreeSet<Json>>),
        (r#"{"Set":{"Tuple":["Int","Text"]}}"#.into(), both::<BTreeSet<(BigInt, String)>>),
        (r#"{"Set":{"Option":"Decimal"}}"#.into(), both::<BTreeSet<Option<BigDecimal>>>),
        (r#"{"Set":{"Set":"Int"}}"#.into(), both::<BTreeSet<BTreeSet<BigInt>>>),
        (r#"{"Set":{"Dict":["Text","Int"]}}"#.into(), both::<BTreeSet<BTreeMap<String, BigInt>>>),
        (r#"{"Set":{"Dict":["Int","Text"]}}"#.into(), both::<BTreeSet<BTreeMap<BigInt, String>>>),
        (r#"{"Dict":["Text",{"Option":"Int"}]}"#.into(), both::<BTreeMap<String, Option<BigInt>>>),
        (r#"{"Dict":["Decimal","Text"]}"#.into(), both::<BTreeMap<BigDecimal, String>>),
        (r#"{"Dict":["Instant","Bool"]}"#.into(), both::<BTreeMap<Instant, bool>>),
        (r#"{"Dict":["json.Value","Int"]}"#.into(), both::<BTreeMap<Json, BigInt>>),
        (r#"{"Dict":[{"List":"Text"},"Int"]}"#.into(), both::<BTreeMap<Vec<String>, BigInt>>),
        (r#"{"Tuple":[{"Option":"Int"},"Unit","Bytes"]}"#.into(), both::<(Option<BigInt>, (), Vec<u8>)>),
        (r#"{"Option":{"Option":"Text"}}"#.into(), both::<Option<Option<String>>>),
    ]
}

fn codec_types() -> Vec<(String, Both)> {
    use codec_tools::*;
    vec![
        (named("shape"), both::<Shape>),
        (format!(r#"{{"Set":{}}}"#, named("shape")), both::<BTreeSet<Shape>>),
        (
            r#"{"Named":{"args":[{"Option":"Int"}],"declaration":"box"}}"#.into(),
            both::<codec_tools::Box<Option<BigInt>>>,
        ),
        (
            r#"{"Named":{"args":[{"Option":{"Option":"Int"}}],"declaration":"box"}}"#.into(),
            both::<codec_tools::Box<Option<Option<BigInt>>>>,
        ),
        (
            r#"{"Named":{"args":[{"Option":"Never"}],"declaration":"box"}}"#.into(),
            both::<codec_tools::Box<Option<flow_runtime::codec::Never>>>,
        ),
        (named("opts"), both::<Opts>),
        (named("person"), both::<Person>),
        (format!(r#"{{"Dict":[{},"Text"]}}"#, named("person")), both::<BTreeMap<Person, String>>),
        (named("token"), both::<HostToken>),
        (format!(r#"{{"List":{}}}"#, named("token")), both::<Vec<Token>>),
        (named("blob"), both::<Blob>),
    ]
}

fn keywords_types() -> Vec<(String, Both)> {
    // The crate root also exports the toolkit's Call and the Tools trait.
    use keywords_tools::types::*;
    vec![
        (named("self"), both::<Self_>),
        (named("option"), both::<keywords_tools::Option>),
        (r#"{"Named":{"args":["Text"],"declaration":"box"}}"#.into(), both::<keywords_tools::Box<std::string::String>>),
        (named("node"), both::<Node>),
        (r#"{"Named":{"args":["Int"],"declaration":"wrap"}}"#.into(), both::<Wrap<BigInt>>),
        (r#"{"Named":{"args":["Int"],"declaration":"phantom"}}"#.into(), both::<Phantom<BigInt>>),
        (r#"{"Named":{"args":["Int"],"declaration":"bag"}}"#.into(), both::<Bag<BigInt>>),
        (named("session"), both::<Session>),
        (named("result"), both::<keywords_tools::Result>),
        (named("string"), both::<keywords_tools::String>),
        (named("call"), both::<Call>),
        (named("tools"), both::<KeywordsTools>),
        (named("impl"), both::<Implementation>),
        (named("empty"), both::<Empty>),
        (named("json"), both::<keywords_tools::Json>),
        (named("twin"), both::<Twin>),
        (named("Twin"), both::<Twin2>),
        (named("switch"), both::<Switch>),
    ]
}

fn read(path: &str) -> Json {
    let text = std::fs::read_to_string(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    flow_core::json::parse_str(&text, &Limits::default()).unwrap()
}

/// Runs `per_type` random values of each of `types` at the declarations of
/// `listing`; returns how many values were compared.
fn differential(listing: &str, types: Vec<(String, Both)>, seed: u64, per_type: usize) -> usize {
    let listing = listing_from_json(&read(listing)).unwrap();
    let mut rng = Rng::new(seed);
    let mut compared = 0;
    for (term, both) in types {
        let term_json = flow_core::json::parse_str(&term, &Limits::default()).unwrap();
        let term_value = term_from_json(&term_json).unwrap_or_else(|e| panic!("{term}: {e}"));
        let (plan, node) = Plan::compile(&listing.declarations, &term_value).unwrap_or_else(|e| panic!("{term}: {e}"));
        for i in 0..per_type {
            let value = random_value(&plan, node, &mut rng, 1 + (i % 5) as u32);
            let (direct, back) = both(value);
            let expected = back.to_canonical();
            assert_eq!(direct, expected, "{term}, value {i}: the direct text is not the value's");
            check(&back, &plan, node)
                .unwrap_or_else(|e| panic!("{term}, value {i}: the check refuses {expected}: {e}"));
            compared += 1;
        }
    }
    compared
}

#[test]
fn weather_types_write_the_canonical_text_of_their_values() {
    assert!(differential("tests/examples/weather.tools.json", weather_types(), 0x5eed_0001, 300) > 10_000);
}

#[test]
fn codec_types_write_the_canonical_text_of_their_values() {
    assert!(differential("tests/examples/codec.tools.json", codec_types(), 0x5eed_0002, 300) > 3_000);
}

#[test]
fn keywords_types_write_the_canonical_text_of_their_values() {
    assert!(differential("tests/examples/keywords.tools.json", keywords_types(), 0x5eed_0003, 300) > 5_000);
}
