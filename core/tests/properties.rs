//! Property tests over random types and values (see flow-testkit: testkit/src/random_types.rs).

use flow_core::decode::decode_with;
use flow_core::plan::Plan;
use flow_core::schema::{schema_of, SchemaForm};
use flow_core::Limits;
use flow_testkit::random_types::random_type;
use flow_testkit::random_values::random_value;
use flow_testkit::Rng;
use proptest::prelude::*;

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

    /// Every encoding validates against its type's generated schema under a
    /// real JSON Schema 2020-12 validator. (`format` and `contentEncoding` are
    /// annotations in 2020-12 and not asserted: RFC 3339's grammars have no
    /// room for this spec's signed years or negative and fractional durations.)
    #[test]
    fn encodings_validate_against_their_schema(type_seed in any::<u64>(), value_seed in any::<u64>()) {
        let (declarations, root) = random_type(type_seed);
        let (plan, node) = Plan::compile(&declarations, &root).unwrap();
        let schema = schema_of(&root, &declarations, SchemaForm::Describe, &[]).unwrap();
        // As written: every `$ref` is a URI reference the validator resolves itself.
        let schema: serde_json::Value = serde_json::from_str(&schema.to_canonical()).unwrap();
        let validator = jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{e}\n{schema}"));
        for i in 0..4 {
            let value = random_value(&plan, node, &mut Rng::new(value_seed.wrapping_add(i)), 4);
            let text = value.to_canonical();
            let instance: serde_json::Value = serde_json::from_str(&text).unwrap();
            let first_error = validator.iter_errors(&instance).next().map(|e| format!("{e} at {}", e.instance_path()));
            if let Some(error) = first_error {
                panic!("{error}\nschema {schema}\nvalue {text}");
            }
        }
    }
}

/// The validator is really asked: a value of another type is rejected.
#[test]
fn the_validator_rejects_a_wrong_value() {
    let (declarations, _) = random_type(7);
    let term = flow_core::types::Term::List(Box::new(flow_core::types::Term::Prim(flow_core::types::Prim::Int)));
    let schema = schema_of(&term, &declarations, SchemaForm::Describe, &[]).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&schema.to_canonical()).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    assert!(validator.is_valid(&serde_json::json!([1, 2])));
    assert!(!validator.is_valid(&serde_json::json!([1, "2"])));
    assert!(!validator.is_valid(&serde_json::from_str::<serde_json::Value>("[1.5]").unwrap()));
}

mod fingerprints {
    use flow_core::fingerprint::fingerprint;
    use flow_core::types::{Body, Declarations, Field, Param, Prim, Term, ToolDecl};
    use proptest::prelude::*;

    use flow_testkit::random_types::random_type;

    /// A Tool over a random type: one parameter of the random type and a record
    /// `R` (declaration "r") as its success type, whose fields we mutate.
    fn tool(declarations: &mut Declarations, root: &Term, fields: Vec<Field>) -> ToolDecl {
        let mut record = declarations.values().next().expect("random types declare something").clone();
        record.name = "R".into();
        record.identity = "github.com/example/props@0.3.0/types.flow.R".into();
        record.generic.clear();
        record.body = Body::Record { fields };
        declarations.insert("r".into(), record);
        ToolDecl {
            tool: "github.com/example/props@0.3.0/types.flow.t".into(),
            doc: None,
            generic: vec![],
            params: vec![Param { name: "input".into(), ty: root.clone() }],
            ok: Term::Named { declaration: "r".into(), args: vec![] },
            err: Term::Prim(Prim::Never),
        }
    }

    fn fields(root: &Term) -> Vec<Field> {
        vec![
            Field { name: "a".into(), ty: Term::Prim(Prim::Int), doc: Some("first".into()) },
            Field { name: "b".into(), ty: root.clone(), doc: None },
            Field { name: "c".into(), ty: Term::List(Box::new(Term::Prim(Prim::Text))), doc: None },
        ]
    }

    fn fp(declarations: &Declarations, root: &Term, fields: Vec<Field>) -> String {
        let mut declarations = declarations.clone();
        let tool = tool(&mut declarations, root, fields);
        fingerprint(&tool, &declarations).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// A field's type, name or (required) order moves the fingerprint; a doc
        /// or a version does not.
        #[test]
        fn fingerprints_move_exactly_with_the_signature(seed in any::<u64>(), which in 0usize..3, doc in "[a-z ]{0,12}") {
            let (declarations, root) = random_type(seed);
            let base = fp(&declarations, &root, fields(&root));

            let mut retyped = fields(&root);
            retyped[which].ty = Term::Tuple(vec![retyped[which].ty.clone(), Term::Prim(Prim::Bool)]);
            prop_assert_ne!(&fp(&declarations, &root, retyped), &base);

            let mut renamed = fields(&root);
            renamed[which].name.push('x');
            prop_assert_ne!(&fp(&declarations, &root, renamed), &base);

            // Field order reaches the schema only through `required`
            // (decisions.md 4: properties are an object), so a reorder moves the
            // fingerprint when both fields are required, and cannot when one is
            // an Option field.
            let mut reordered = fields(&root);
            let other = (which + 1) % 3;
            reordered.swap(which, other);
            let optional = |f: &Field| matches!(f.ty, Term::Option(_));
            if optional(&reordered[which]) || optional(&reordered[other]) {
                prop_assert_eq!(&fp(&declarations, &root, reordered), &base);
            } else {
                prop_assert_ne!(&fp(&declarations, &root, reordered), &base);
            }

            let mut documented = fields(&root);
            documented[which].doc = Some(doc);
            prop_assert_eq!(&fp(&declarations, &root, documented), &base);

            let mut new_version = declarations.clone();
            for template in new_version.values_mut() {
                template.identity = template.identity.replace("@0.3.0", "@0.4.0");
                template.doc = Some("another doc".into());
            }
            prop_assert_eq!(&fp(&new_version, &root, fields(&root)), &base);
        }
    }
}
