//! The codec of generated Rust Tools: Rust types to and from values, type
//! parameter values as JSON, and their resolution at a call's concrete types.
//! Typed round trips of every shared vector run in examples/rust-weather, on
//! the generated types themselves.

use std::collections::{BTreeMap, BTreeSet};

use flow_core::json;
use flow_core::plan::Plan;
use flow_core::types::parse::{listing_from_text, term_from_json};
use flow_core::types::Listing;
use flow_core::types::Term;
use flow_core::{decode, Limits, Rule, Value};
use flow_runtime::codec::{
    resolve, BigDecimal, BigInt, ContextDict, ContextSet, FromValue, GenericValue, IntoValue, Json,
};

/// The example listing of `tests/examples/weather.tools.json`.
fn weather() -> Listing {
    listing(include_str!("../../tests/examples/weather.tools.json"))
}

/// A listing from its JSON text; panics when it is invalid.
fn listing(text: &str) -> Listing {
    listing_from_text(text.as_bytes(), &Limits::default()).unwrap_or_else(|e| panic!("invalid listing: {e}"))
}

/// A term from its JSON text (`"Int"`, `{"List": "Text"}`); shape only.
fn term_text(text: &str) -> Term {
    let json = json::parse_str(text, &Limits::default()).expect("term JSON");
    term_from_json(&json).unwrap_or_else(|e| panic!("invalid term: {e}"))
}

fn decode_at(listing: &Listing, term: &str, input: &str) -> Value {
    decode::decode(input.as_bytes(), &term_text(term), &listing.declarations, &Limits::default()).unwrap()
}

fn round_trip<T: FromValue + IntoValue>(term: &str, input: &str) -> String {
    let value = decode_at(&listing_of_vectors(), term, input);
    T::from_value(value).unwrap().into_value().to_canonical()
}

/// The inline listing of tests/vectors/decode-custom.json (Box<T>, Shape, Opts...).
fn listing_of_vectors() -> Listing {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/decode-custom.json")).unwrap();
    let file = json::parse_str(&text, &Limits::default()).unwrap();
    let inner = file.as_object().unwrap().get("listing").unwrap().to_canonical();
    listing(&inner)
}

#[test]
fn containers_and_scalars_round_trip_to_canonical_text() {
    assert_eq!(round_trip::<Vec<BigInt>>(r#"{"List":"Int"}"#, "[3, 1e2, -0]"), "[3,100,0]");
    assert_eq!(round_trip::<BTreeSet<BigDecimal>>(r#"{"Set":"Decimal"}"#, "[2.50, -1, 0.001]"), "[-1,0.001,2.5]");
    assert_eq!(
        round_trip::<BTreeMap<String, Option<BigInt>>>(
            r#"{"Dict":["Text",{"Option":"Int"}]}"#,
            r#"{"b":"None","a":{"Some":1}}"#
        ),
        r#"{"a":{"Some":1},"b":"None"}"#
    );
    assert_eq!(
        round_trip::<BTreeMap<BigInt, String>>(r#"{"Dict":["Int","Text"]}"#, r#"[[2,"b"],[1,"a"]]"#),
        r#"[[1,"a"],[2,"b"]]"#
    );
    assert_eq!(
        round_trip::<(BigInt, String, bool)>(r#"{"Tuple":["Int","Text","Bool"]}"#, r#"[1,"é",true]"#),
        r#"[1,"é",true]"#
    );
    assert_eq!(round_trip::<Vec<u8>>(r#""Bytes""#, r#""AQID""#), r#""AQID""#);
    assert_eq!(round_trip::<Option<()>>(r#"{"Option":"Unit"}"#, r#"{"Some":null}"#), r#"{"Some":null}"#);
    assert_eq!(
        round_trip::<BTreeSet<Json>>(r#"{"Set":"json.Value"}"#, r#"[{}, [], "a", 1.0, true, null]"#),
        r#"[null,true,1,"a",[],{}]"#
    );
}

#[test]
fn an_empty_dict_is_an_object_only_when_keyed_by_text() {
    assert_eq!(BTreeMap::<String, BigInt>::new().into_value().to_canonical(), "{}");
    assert_eq!(BTreeMap::<BigInt, BigInt>::new().into_value().to_canonical(), "[]");
    assert_eq!(BTreeMap::<Box<String>, BigInt>::new().into_value().to_canonical(), "{}");
}

#[test]
fn a_value_of_another_shape_is_refused_with_its_path() {
    let value = Value::List(vec![Value::Int(1.into()), Value::Text("2".into())]);
    let e = Vec::<BigInt>::from_value(value).unwrap_err();
    assert_eq!((e.path.to_string().as_str(), e.rule), ("$[1]", Rule::Type));
}

/// What a generic Tool's author holds for `Box<T>` with `T = Option<Int>`:
/// the field as the standalone JSON of T.
#[test]
fn type_parameter_values_are_their_standalone_json() {
    let listing = listing_of_vectors();
    let term = r#"{"Named":{"declaration":"box","args":[{"Option":"Int"}]}}"#;
    let some = decode_at(&listing, term, r#"{"value":1}"#);
    let Value::Record(fields) = some else { panic!("a record") };
    let json = GenericValue::from_value(fields[0].1.clone()).unwrap();
    assert_eq!(json.as_json().to_canonical(), r#"{"Some":1}"#);
}

fn resolved(listing: &Listing, term: &str, value: Value) -> Result<String, flow_core::Error> {
    let (plan, root) = Plan::compile(&listing.declarations, &term_text(term)).unwrap();
    resolve(value, &plan, root).map(|v| v.to_canonical())
}

fn generic(text: &str) -> GenericValue {
    GenericValue::from_json(json::parse_str(text, &Limits::default()).unwrap())
}

#[test]
fn placeholders_resolve_at_the_substituted_type_with_the_option_field_rule() {
    let listing = listing_of_vectors();
    let record = |json: &str| flow_runtime::codec::record(vec![("value", generic(json).into_value())]);
    let option_int = r#"{"Named":{"declaration":"box","args":[{"Option":"Int"}]}}"#;
    assert_eq!(resolved(&listing, option_int, record(r#"{"Some":1e0}"#)).unwrap(), r#"{"value":1}"#);
    assert_eq!(resolved(&listing, option_int, record(r#""None""#)).unwrap(), "{}");
    let e = resolved(&listing, option_int, record("1")).unwrap_err();
    assert_eq!((e.path.to_string().as_str(), e.rule), ("$.value", Rule::Encode));
    let option_option = r#"{"Named":{"declaration":"box","args":[{"Option":{"Option":"Int"}}]}}"#;
    assert_eq!(resolved(&listing, option_option, record(r#"{"Some":"None"}"#)).unwrap(), r#"{"value":"None"}"#);
    let e = resolved(&listing, r#"{"Named":{"declaration":"box","args":["Int"]}}"#, record(r#""x""#)).unwrap_err();
    assert_eq!((e.path.to_string().as_str(), e.rule), ("$.value", Rule::Encode));
}

#[test]
fn context_collections_take_the_order_of_the_concrete_type() {
    let listing = listing_of_vectors();
    // Person records order by name, then age (declaration order), not as JSON objects do (age first).
    let people = ContextSet::new(vec![generic(r#"{"name":"b","age":1}"#), generic(r#"{"age":2,"name":"a"}"#)]);
    assert_eq!(
        resolved(&listing, r#"{"Set":{"Named":{"declaration":"person","args":[]}}}"#, people.into_value()).unwrap(),
        r#"[{"age":2,"name":"a"},{"age":1,"name":"b"}]"#
    );
    let twice = ContextSet::new(vec![generic("1"), generic("1.0")]);
    assert_eq!(resolved(&listing, r#"{"Set":"Int"}"#, twice.into_value()).unwrap_err().rule, Rule::Encode);
    let by_text = ContextDict::new(vec![(generic(r#""b""#), BigInt::from(2)), (generic(r#""a""#), BigInt::from(1))]);
    assert_eq!(resolved(&listing, r#"{"Dict":["Text","Int"]}"#, by_text.into_value()).unwrap(), r#"{"a":1,"b":2}"#);
    let empty = ContextDict::<GenericValue, BigInt>::new(Vec::new());
    assert_eq!(resolved(&listing, r#"{"Dict":["Text","Int"]}"#, empty.into_value()).unwrap(), "{}");
    let by_int = ContextDict::new(vec![(generic("10"), BigInt::from(2)), (generic("9"), BigInt::from(1))]);
    assert_eq!(resolved(&listing, r#"{"Dict":["Int","Int"]}"#, by_int.into_value()).unwrap(), "[[9,1],[10,2]]");
}

/// The JSON of a decoded value is what its canonical text reads back as, for
/// every canonical case of the shared decode vectors.
#[test]
fn the_json_of_every_vector_value_is_its_canonical_text() {
    let weather = weather();
    let custom = listing_of_vectors();
    let mut checked = 0;
    for (file, listing) in [
        ("decode-weather", &weather),
        ("decode-compound", &weather),
        ("decode-primitives", &weather),
        ("decode-custom", &custom),
    ] {
        let path = format!("{}/../tests/vectors/{file}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let cases = json::parse_str(&text, &Limits::default()).unwrap();
        for case in cases.as_object().unwrap().get("cases").unwrap().as_array().unwrap() {
            let case = case.as_object().unwrap();
            let (Some(input), Some(canonical)) = (case.get("input"), case.get("canonical")) else { continue };
            let term = case.get("type").unwrap().to_canonical();
            let value = decode_at(listing, &term, input.as_str().unwrap());
            let json = GenericValue::from_value(value).unwrap().into_json();
            assert_eq!(
                json.to_canonical(),
                canonical.as_str().unwrap(),
                "{file}: {}",
                case.get("name").unwrap().to_canonical()
            );
            checked += 1;
        }
    }
    assert!(checked > 150, "only {checked} cases");
}
