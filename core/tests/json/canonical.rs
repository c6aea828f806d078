//! The streaming canonical writer (`json::canonicalize`) against the long way
//! through the tree (`json::canonicalize_through_tree`) on random JSON texts:
//! valid ones in every form (keys out of order, nested, numbers with
//! exponents and zeros), hostile ones and broken ones. Same text, or the same
//! refusal at the same path.

use flow_core::{json, Limits};
use flow_testkit::random_json::random_json_text;

#[test]
fn streaming_equals_the_tree_on_random_texts() {
    let limits = Limits::default();
    let (mut same_text, mut same_refusal) = (0, 0);
    for seed in 0..6_000u64 {
        let bytes = random_json_text(seed);
        match (json::canonicalize_through_tree(&bytes, &limits), json::canonicalize(&bytes, &limits)) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "seed {seed}: {}", String::from_utf8_lossy(&bytes));
                same_text += 1;
            }
            (Err(a), Err(b)) => {
                assert_eq!((a.rule, a.path.to_string()), (b.rule, b.path.to_string()), "seed {seed}");
                same_refusal += 1;
            }
            (a, b) => panic!("seed {seed}: the tree gave {a:?}, the streaming writer {b:?}"),
        }
    }
    // Both kinds are exercised in numbers, not only one.
    assert!(same_text > 3_000 && same_refusal > 600, "{same_text} texts, {same_refusal} refusals");
}

#[test]
fn objects_out_of_order_at_every_depth_are_sorted() {
    let text = br#"{"b":[{"z":1,"a":{"y":2,"c":3}},{"k":[]}],"a":{"q":{},"p":-0.50e1}}"#;
    let canonical = json::canonicalize(text, &Limits::default()).unwrap();
    assert_eq!(canonical, r#"{"a":{"p":-5,"q":{}},"b":[{"a":{"c":3,"y":2},"z":1},{"k":[]}]}"#);
}
