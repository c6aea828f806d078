//! Property tests over random types and values (see support/random_types.rs).

mod support;

use flow_core::decode::decode_with;
use flow_core::plan::Plan;
use flow_core::Limits;
use proptest::prelude::*;
use support::random_types::{random_type, random_value, Rng};

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// encode, decode, encode gives the same canonical text, and the decoded
    /// value equals the original.
    #[test]
    fn encode_decode_encode(type_seed in any::<u64>(), value_seed in any::<u64>()) {
        let (declarations, root) = random_type(type_seed);
        let (plan, node) = Plan::compile(&declarations, &root).unwrap();
        let value = random_value(&plan, node, &mut Rng::new(value_seed), 4);
        flow_core::check::check(&value, &plan, node).unwrap();
        let text = value.to_canonical();
        let decoded = decode_with(text.as_bytes(), &plan, node, &Limits::default())
            .unwrap_or_else(|e| panic!("{e}\ntype {root:?}\ntext {text}"));
        prop_assert_eq!(&decoded, &value);
        prop_assert_eq!(decoded.to_canonical(), text);
    }
}
