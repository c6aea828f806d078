//! Reading a root array item by item (`json::parse_items`, and
//! `decode::decode_items_with` on it) against reading the whole tree
//! (`json::parse`, `decode::decode_with`) on random JSON texts, valid, hostile
//! and broken: the same items in the same order, or the same refusal at the
//! same path.

use flow_core::json::{self, Json, Root};
use flow_core::plan::Plan;
use flow_core::types::parse::term_from_json;
use flow_core::types::Declarations;
use flow_core::{decode, Limits};
use flow_testkit::random_json::random_json_text;

#[test]
fn items_equal_the_tree_on_random_texts() {
    let limits = Limits::default();
    let (mut arrays, mut others, mut refusals) = (0, 0, 0);
    for seed in 0..3_000u64 {
        let bytes = random_json_text(seed);
        let mut items = Vec::new();
        let streamed = json::parse_items(&bytes, &limits, &mut |i, item| {
            assert_eq!(i, items.len(), "seed {seed}: items are handed over in order");
            items.push(item);
        });
        match (json::parse(&bytes, &limits), streamed) {
            (Ok(Json::Array(whole)), Ok(Root::Array(count))) => {
                assert_eq!(count, whole.len(), "seed {seed}");
                assert_eq!(items, whole, "seed {seed}");
                arrays += 1;
            }
            (Ok(whole), Ok(Root::Other(other))) => {
                assert_eq!(whole, other, "seed {seed}");
                assert!(items.is_empty(), "seed {seed}: no items of a root that is not an array");
                others += 1;
            }
            (Err(a), Err(b)) => {
                assert_eq!((a.rule, a.path.to_string()), (b.rule, b.path.to_string()), "seed {seed}");
                refusals += 1;
            }
            (a, b) => panic!("seed {seed}: the tree gave {a:?}, the items {b:?}"),
        }
    }
    assert!(arrays > 100 && others > 100 && refusals > 300, "{arrays} arrays, {others} others, {refusals} refusals");
}

#[test]
fn decoding_items_equals_decoding_the_tree() {
    let limits = Limits::default();
    let declarations = Declarations::default();
    for term in [r#"{"List": "json.Value"}"#, r#"{"List": "Int"}"#, r#"{"List": {"List": "Decimal"}}"#] {
        let term = term_from_json(&json::parse_str(term, &limits).unwrap()).unwrap();
        let (plan, node) = Plan::compile(&declarations, &term).unwrap();
        let mut decoded_some = false;
        for seed in 0..1_000u64 {
            let mut bytes = random_json_text(seed);
            if seed % 2 == 0 {
                // Wrapped in an array, so that most texts reach the items.
                bytes = [b"[".as_slice(), &bytes, b",", &bytes, b"]"].concat();
            }
            let mut items = Vec::new();
            let streamed = decode::decode_items_with(&bytes, &plan, node, &limits, &mut |_, v| items.push(v))
                .expect("a List node");
            match (decode::decode_with(&bytes, &plan, node, &limits), streamed) {
                (Ok(flow_core::Value::List(whole)), Ok(count)) => {
                    assert_eq!((count, &items), (whole.len(), &whole), "seed {seed}");
                    decoded_some |= !whole.is_empty();
                }
                (Err(a), Err(b)) => assert_eq!(
                    (a.rule, a.path.to_string(), a.to_string()),
                    (b.rule, b.path.to_string(), b.to_string()),
                    "seed {seed}"
                ),
                (a, b) => panic!("seed {seed}: the tree gave {a:?}, the items {b:?}"),
            }
        }
        assert!(decoded_some, "{term:?}: no list decoded with items");
    }
}

#[test]
fn a_type_that_is_not_a_list_is_left_to_the_tree() {
    let limits = Limits::default();
    let term = term_from_json(&json::parse_str(r#""Int""#, &limits).unwrap()).unwrap();
    let (plan, node) = Plan::compile(&Declarations::default(), &term).unwrap();
    assert!(decode::decode_items_with(b"1", &plan, node, &limits, &mut |_, _| {}).is_none());
}
