//! Property tests over random types and values (see flow-testkit:
//! testkit/src/random_types.rs): what MCP writes of them.

use flow_core::plan::Plan;
use flow_core::Limits;
use flow_testkit::random_types::random_type;
use flow_testkit::random_values::random_value;
use flow_testkit::Rng;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The MCP schemas of a type (`flow_mcp::schemas`) hold its every
    /// encoding too: as the success type (wrapped as `{"result": v}` when it
    /// is no object), and as a parameter and an Option parameter of the
    /// arguments, present and left out. Their Durations are checked by the
    /// pattern that replaces `format`.
    #[test]
    fn encodings_validate_against_their_mcp_schemas(type_seed in any::<u64>(), value_seed in any::<u64>()) {
        use flow_mcp::schemas::{input_schema, output_schema};
        use flow_core::types::{Param, Term};
        let (declarations, root) = random_type(type_seed);
        let (plan, node) = Plan::compile(&declarations, &root).unwrap();
        let (output, wrapped) = output_schema(&root, &declarations).unwrap();
        let params = [
            Param { name: "a".into(), ty: root.clone() },
            Param { name: "b".into(), ty: Term::Option(Box::new(root.clone())) },
        ];
        let input = input_schema(&params, &declarations).unwrap();
        let compile = |schema: &flow_core::Json| {
            let schema: serde_json::Value = serde_json::from_str(&schema.to_canonical()).unwrap();
            let validator = jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{e}\n{schema}"));
            (validator, schema)
        };
        let (output, output_text) = compile(&output);
        let (input, input_text) = compile(&input);
        for i in 0..4 {
            let value = random_value(&plan, node, &mut Rng::new(value_seed.wrapping_add(i)), 4);
            let text = value.to_canonical();
            let result = if wrapped { format!("{{\"result\":{text}}}") } else { text.clone() };
            // The arguments as the MCP adapter writes them (an Option
            // parameter's None left out, its Some as the value).
            let written = |b: flow_core::Value| {
                let args = flow_mcp::arguments::arguments(&params, &[value.clone(), b], &Limits::default()).unwrap();
                flow_core::Json::Object(args).to_canonical()
            };
            let instances = [
                (&output, &output_text, result),
                (&input, &input_text, written(flow_core::Value::some(value.clone()))),
                (&input, &input_text, written(flow_core::Value::none())),
            ];
            for (validator, schema, instance) in instances {
                let parsed: serde_json::Value = serde_json::from_str(&instance).unwrap();
                let first_error = validator.iter_errors(&parsed).next().map(|e| format!("{e} at {}", e.instance_path()));
                if let Some(error) = first_error {
                    panic!("{error}\nschema {schema}\nvalue {instance}");
                }
            }
            // And the input refuses what is no parameter.
            let extra: serde_json::Value = serde_json::from_str(&format!("{{\"b\":{text},\"c\":1}}")).unwrap();
            prop_assert!(!input.is_valid(&extra));
        }
    }
}
