//! The typed decoding of generated Rust types (`FromJson`) against the value
//! decoder with `FromValue`: for random JSON at the sample packages' types
//! (canonical texts of random values, the same with near-miss mutations, and
//! random JSON of any shape), both give the same Rust value or the same
//! refusal (path, rule and message). Seeded: a failure names its seed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};

use flow_core::decode::from_json;
use flow_core::json::{self, Json, Object};
use flow_core::plan::{NodeId, Plan};
use flow_core::types::parse::{listing_from_text, term_from_json};
use flow_core::types::Listing;
use flow_core::Limits;
use flow_runtime::codec::{BigDecimal, BigInt, Duration, FromJson, FromValue, HostToken, Instant};
use flow_testkit::random_json::random_json_text;
use flow_testkit::random_values::{self, random_value};
use flow_testkit::Rng;

/// Texts per type and form.
const ROUNDS: u64 = 150;

fn listing(name: &str) -> Listing {
    let path = format!("{}/../tests/examples/{name}.tools.json", env!("CARGO_MANIFEST_DIR"));
    listing_from_text(&std::fs::read(&path).unwrap(), &Limits::default()).unwrap()
}

/// A term's JSON text, with `"@Name"` for the declaration of that id or name
/// and `{"@Name": [args]}` for an instantiation of a generic one.
fn term(listing: &Listing, text: &str) -> flow_core::types::Term {
    let json = json::parse_str(text, &Limits::default()).unwrap_or_else(|e| panic!("{text}: {e}"));
    term_from_json(&names(listing, json)).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn names(listing: &Listing, json: Json) -> Json {
    let named = |name: &str, args: Vec<Json>| {
        // By the declaration's id, else by its name.
        let id = listing.declarations.iter().find(|(id, _)| id.as_str() == name).map(|(id, _)| id.clone());
        let id = id.or_else(|| listing.declarations.iter().find(|(_, t)| t.name == name).map(|(id, _)| id.clone()));
        let id = id.unwrap_or_else(|| panic!("no declaration {name}"));
        Json::object([("Named", Json::object([("declaration", Json::str(id.as_str())), ("args", Json::Array(args))]))])
    };
    match json {
        Json::String(s) if s.starts_with('@') => named(&s[1..], Vec::new()),
        Json::Object(object) => {
            let members = object.into_members();
            if members.len() == 1 && members[0].0.starts_with('@') {
                let (key, args) = members.into_iter().next().unwrap();
                let Json::Array(args) = args else { panic!("{key}: args are an array") };
                return named(&key[1..], args.into_iter().map(|a| names(listing, a)).collect());
            }
            let members = members.into_iter().map(|(k, v)| (k, names(listing, v))).collect();
            Json::Object(Object::from_members(members).unwrap())
        }
        Json::Array(items) => Json::Array(items.into_iter().map(|i| names(listing, i)).collect()),
        other => other,
    }
}

/// How many texts decoded, and how many were refused, on both paths alike.
#[derive(Default)]
struct Tally {
    decoded: usize,
    refused: usize,
}

fn agree<T: FromJson + FromValue + PartialEq + Debug>(listing: &Listing, text: &str, tally: &mut Tally) {
    let term = term(listing, text);
    let (plan, node) = Plan::compile(&listing.declarations, &term).unwrap();
    for seed in 0..ROUNDS * 3 {
        let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ text.len() as u64);
        let json = match seed % 3 {
            0 => base(&plan, node, &mut rng),
            1 => {
                let mut json = base(&plan, node, &mut rng);
                for _ in 0..1 + rng.below(2) {
                    mutate(&mut json, &mut rng);
                }
                json
            }
            _ => match json::parse(&random_json_text(seed), &Limits::default()) {
                Ok(json) => json,
                Err(_) => continue,
            },
        };
        let typed = T::from_json(json.clone()).map_err(|e| e.to_string());
        let valued = from_json(json.clone(), &plan, node).and_then(T::from_value).map_err(|e| e.to_string());
        assert_eq!(typed, valued, "{text} (seed {seed}) at {}", json.to_canonical());
        match typed {
            Ok(_) => tally.decoded += 1,
            Err(_) => tally.refused += 1,
        }
    }
}

/// The canonical JSON of a random value of the type (an empty object for a
/// type a random value cannot be made of: one holding Never).
fn base(plan: &Plan, node: NodeId, rng: &mut Rng) -> Json {
    let depth = 1 + rng.below(4) as u32;
    match catch_unwind(AssertUnwindSafe(|| random_value(plan, node, rng, depth))) {
        Ok(value) => json::parse_str(&value.to_canonical(), &Limits::default()).unwrap(),
        Err(_) => Json::Object(Object::new()),
    }
}

fn count(json: &Json) -> usize {
    1 + match json {
        Json::Array(items) => items.iter().map(count).sum(),
        Json::Object(object) => object.iter().map(|(_, v)| count(v)).sum(),
        _ => 0,
    }
}

/// A near miss: one node of the tree replaced by a form another type takes,
/// or a member or item added, dropped or repeated.
fn mutate(json: &mut Json, rng: &mut Rng) {
    let target = rng.below(count(json) as u64) as usize;
    mutate_at(json, target, rng);
}

fn mutate_at(json: &mut Json, index: usize, rng: &mut Rng) {
    if index > 0 {
        let mut at = index - 1;
        match json {
            Json::Array(items) => {
                for item in items.iter_mut() {
                    let n = count(item);
                    if at < n {
                        return mutate_at(item, at, rng);
                    }
                    at -= n;
                }
            }
            Json::Object(object) => {
                let mut members = std::mem::take(object).into_members();
                for (_, member) in members.iter_mut() {
                    let n = count(member);
                    if at < n {
                        mutate_at(member, at, rng);
                        break;
                    }
                    at -= n;
                }
                *object = Object::from_members(members).unwrap();
                return;
            }
            _ => {}
        }
        return;
    }
    let old = std::mem::replace(json, Json::Null);
    *json = match rng.below(12) {
        0 => Json::Null,
        1 => Json::str("None"),
        2 => Json::object([("Some", old)]),
        3 => Json::Array(vec![old]),
        4 => json::parse_str("1.5", &Limits::default()).unwrap(),
        5 => json::parse_str("-0", &Limits::default()).unwrap(),
        6 => Json::str("2024-01-01T00:00:00Z"),
        7 => random_values::json(rng, 2),
        8 => match old {
            Json::Object(object) => {
                let mut members = object.into_members();
                if !members.is_empty() {
                    let i = rng.below(members.len() as u64) as usize;
                    members.remove(i);
                }
                Json::Object(Object::from_members(members).unwrap())
            }
            other => Json::object([("Bogus", other)]),
        },
        9 => match old {
            Json::Object(mut object) => {
                object.insert("zz_extra", Json::Bool(true));
                Json::Object(object)
            }
            Json::String(s) => Json::String(format!("{s}x")),
            other => other,
        },
        10 => match old {
            Json::Array(mut items) if !items.is_empty() => {
                let first = items[0].clone();
                items.push(first);
                Json::Array(items)
            }
            Json::Array(mut items) => {
                items.push(Json::Null);
                Json::Array(items)
            }
            other => other,
        },
        _ => match old {
            Json::Array(mut items) => {
                items.pop();
                Json::Array(items)
            }
            Json::Number(_) => Json::str("1"),
            other => other,
        },
    };
}

#[test]
fn weather_types_decode_alike_on_both_paths() {
    use weather_tools::types::*;
    let l = listing("weather");
    let mut tally = Tally::default();
    agree::<Forecast>(&l, r#""@Forecast""#, &mut tally);
    agree::<Day>(&l, r#""@Day""#, &mut tally);
    agree::<Sky>(&l, r#""@Sky""#, &mut tally);
    agree::<WeatherError>(&l, r#""@WeatherError""#, &mut tally);
    agree::<Station>(&l, r#""@Station""#, &mut tally);
    agree::<Region>(&l, r#""@Region""#, &mut tally);
    agree::<Page<Station>>(&l, r#"{"@Page": ["@Station"]}"#, &mut tally);
    agree::<Option<Units>>(&l, r#"{"Option": "@Units"}"#, &mut tally);
    agree::<String>(&l, r#""Text""#, &mut tally);
    agree::<BigInt>(&l, r#""Int""#, &mut tally);
    agree::<Instant>(&l, r#""Instant""#, &mut tally);
    agree::<Duration>(&l, r#""Duration""#, &mut tally);
    agree::<BTreeMap<BigInt, BigInt>>(&l, r#"{"Dict": ["Int", "Int"]}"#, &mut tally);
    agree::<Option<String>>(&l, r#"{"Option": "Text"}"#, &mut tally);
    agree::<BTreeSet<BigDecimal>>(&l, r#"{"Set": "Decimal"}"#, &mut tally);
    agree::<(BigDecimal, Vec<u8>, bool, ())>(&l, r#"{"Tuple": ["Decimal", "Bytes", "Bool", "Unit"]}"#, &mut tally);
    assert!(tally.decoded > 500 && tally.refused > 500, "{} decoded, {} refused", tally.decoded, tally.refused);
}

#[test]
fn keywords_types_decode_alike_on_both_paths() {
    use keywords_tools::types as kw;
    let l = listing("keywords");
    let mut tally = Tally::default();
    agree::<kw::Self_>(&l, r#""@self""#, &mut tally);
    agree::<kw::Option>(&l, r#""@option""#, &mut tally);
    agree::<kw::Box<Option<BigInt>>>(&l, r#"{"@box": [{"Option": "Int"}]}"#, &mut tally);
    agree::<kw::Node>(&l, r#""@node""#, &mut tally);
    agree::<kw::Wrap<BigInt>>(&l, r#"{"@wrap": ["Int"]}"#, &mut tally);
    agree::<kw::Bag<BigInt>>(&l, r#"{"@bag": ["Int"]}"#, &mut tally);
    agree::<HostToken>(&l, r#""@token""#, &mut tally);
    agree::<kw::Session>(&l, r#""@session""#, &mut tally);
    agree::<kw::Result>(&l, r#""@result""#, &mut tally);
    agree::<kw::String>(&l, r#""@string""#, &mut tally);
    agree::<kw::Call>(&l, r#""@call""#, &mut tally);
    agree::<kw::KeywordsTools>(&l, r#""@tools""#, &mut tally);
    agree::<kw::Implementation>(&l, r#""@impl""#, &mut tally);
    agree::<kw::Empty>(&l, r#""@empty""#, &mut tally);
    agree::<kw::Json>(&l, r#""@json""#, &mut tally);
    agree::<kw::Twin>(&l, r#""@twin""#, &mut tally);
    agree::<kw::Twin2>(&l, r#""@Twin""#, &mut tally);
    agree::<kw::Switch>(&l, r#""@switch""#, &mut tally);
    agree::<Vec<BigInt>>(&l, r#"{"List": "Int"}"#, &mut tally);
    assert!(tally.decoded > 500 && tally.refused > 500, "{} decoded, {} refused", tally.decoded, tally.refused);
}

#[test]
fn codec_types_decode_alike_on_both_paths() {
    use codec_tools::types::*;
    let l = listing("codec");
    let mut tally = Tally::default();
    agree::<BTreeSet<Shape>>(&l, r#"{"Set": "@shape"}"#, &mut tally);
    agree::<Box<Option<BigInt>>>(&l, r#"{"@box": [{"Option": "Int"}]}"#, &mut tally);
    agree::<BTreeMap<Person, String>>(&l, r#"{"Dict": ["@person", "Text"]}"#, &mut tally);
    agree::<Token>(&l, r#""@token""#, &mut tally);
    agree::<Blob>(&l, r#""@blob""#, &mut tally);
    agree::<Void>(&l, r#""@void""#, &mut tally);
    agree::<Opts>(&l, r#""@opts""#, &mut tally);
    assert!(tally.decoded > 200 && tally.refused > 200, "{} decoded, {} refused", tally.decoded, tally.refused);
}
