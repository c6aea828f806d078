//! Schema generation (`flow_core::schema::generate`): `$defs` placement, recursion, descriptions, refusals.

use super::*;

#[test]
fn defs_hold_exactly_the_reachable_types() {
    let listing = weather();
    let text = canonical(&listing.declarations, &named("8", &[]));
    assert_eq!(
        text,
        r##"{"$defs":{"github.com/acme/weather/weather.flow.Units":{"oneOf":[{"const":"Metric"},{"const":"Imperial"}]}},"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.Units"}"##
    );
    assert_eq!(
        canonical(&listing.declarations, r##"{"List": "Int"}"##),
        r##"{"items":{"type":"integer"},"type":"array"}"##
    );
}

// Recursion.

#[test]
fn a_recursive_record_refers_to_itself() {
    let listing = weather();
    assert_eq!(
        canonical(&listing.declarations, &named("7", &[])),
        r##"{"$defs":{"github.com/acme/weather/weather.flow.Region":{"properties":{"children":{"items":{"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.Region"},"type":"array"},"name":{"type":"string"}},"required":["name","children"],"type":"object"}},"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.Region"}"##
    );
}

#[test]
fn a_recursive_generic_refers_to_its_own_instantiation() {
    let tree = named("1", &[&param_of("1", 0)]);
    let d = declarations(vec![(
        "1",
        template(
            "f.flow.Tree",
            &["T"],
            record(vec![field("value", &param_of("1", 0)), field("children", &format!(r##"{{"List": {tree}}}"##))]),
        ),
    )]);
    assert_eq!(
        canonical(&d, &named("1", &[r##""Int""##])),
        r##"{"$defs":{"f.flow.Tree<Int>":{"properties":{"children":{"items":{"$ref":"#/$defs/f.flow.Tree%3CInt%3E"},"type":"array"},"value":{"type":"integer"}},"required":["value","children"],"type":"object"}},"$ref":"#/$defs/f.flow.Tree%3CInt%3E"}"##
    );
}

#[test]
fn mutually_recursive_generics_swap_their_arguments() {
    // A<X, Y> holds B<Y, X>; B<X, Y> holds A<X, Y>: four instantiations.
    let d = declarations(vec![
        (
            "1",
            template(
                "f.flow.A",
                &["X", "Y"],
                record(vec![field("b", &named("2", &[&param_of("1", 1), &param_of("1", 0)]))]),
            ),
        ),
        (
            "2",
            template(
                "f.flow.B",
                &["X", "Y"],
                record(vec![field(
                    "a",
                    &format!(r##"{{"Option": {}}}"##, named("1", &[&param_of("2", 0), &param_of("2", 1)])),
                )]),
            ),
        ),
    ]);
    let schema = generate(&d, &named("1", &[r##""Int""##, r##""Text""##]), SchemaForm::Canonical, &[]).unwrap();
    let defs: Vec<&str> = schema.as_object().unwrap().get("$defs").unwrap().as_object().unwrap().keys().collect();
    assert_eq!(defs, ["f.flow.A<Int,Text>", "f.flow.A<Text,Int>", "f.flow.B<Int,Text>", "f.flow.B<Text,Int>"]);
}

// Descriptions.

#[test]
fn descriptions_go_where_section_4_puts_them_and_only_in_the_describe_form() {
    let d = declarations(vec![
        (
            "1",
            documented(
                template(
                    "r.org/x@2.0.0/m.flow.R",
                    &[],
                    record(vec![
                        doc_field("named", &named("2", &[]), "A named field."),
                        doc_field("never", "Never", "Dropped: false has no members."),
                        doc_field("maybe", r##"{"Option": "Int"}"##, "Optional."),
                        field("description", "Text"),
                    ]),
                ),
                "The record.",
            ),
        ),
        (
            "2",
            template(
                "r.org/x@2.0.0/m.flow.E",
                &[],
                Body::Enum {
                    constructors: vec![
                        constructor("Plain", Some("No payload."), None),
                        constructor("Part", Some("One part."), Some(Payload::Positional(vec![ty("Int")]))),
                        constructor("Parts", None, Some(Payload::Named(vec![doc_field("p", "Text", "A part.")]))),
                    ],
                },
            ),
        ),
    ]);
    let root = named("1", &[]);
    assert_eq!(
        describe(&d, &root),
        concat!(
            r##"{"$defs":{"r.org/x@2.0.0/m.flow.E":{"oneOf":[{"const":"Plain","description":"No payload."},"##,
            r##"{"additionalProperties":false,"description":"One part.","properties":{"Part":{"type":"integer"}},"required":["Part"],"type":"object"},"##,
            r##"{"additionalProperties":false,"properties":{"Parts":{"properties":{"p":{"description":"A part.","type":"string"}},"required":["p"],"type":"object"}},"required":["Parts"],"type":"object"}]},"##,
            r##""r.org/x@2.0.0/m.flow.R":{"description":"The record.","properties":{"description":{"type":"string"},"##,
            r##""maybe":{"description":"Optional.","type":"integer"},"##,
            r##""named":{"$ref":"#/$defs/r.org~1x@2.0.0~1m.flow.E","description":"A named field."},"never":false},"##,
            r##""required":["named","never","description"],"type":"object"}},"$ref":"#/$defs/r.org~1x@2.0.0~1m.flow.R"}"##
        )
    );
    // The canonical form has no description keyword and no version, but keeps
    // the property named "description".
    let text = canonical(&d, &root);
    assert!(!text.contains("@") && !text.contains("\"description\":{\"description\""), "{text}");
    assert!(text.contains(r##""properties":{"description":{"type":"string"},"maybe":{"type":"integer"},"##), "{text}");
    assert_eq!(text.matches("\"description\"").count(), 2, "the property and its required entry: {text}");
}

// Refusals.

#[test]
fn a_function_or_task_in_a_value_position_cannot_cross() {
    let d = declarations(vec![(
        "1",
        template(
            "f.flow.Holder",
            &[],
            record(vec![field("callback", r##"{"Function": {"params": ["Int"], "result": "Text"}}"##)]),
        ),
    )]);
    for term in [
        r##"{"Function": {"params": [], "result": "Unit"}}"##,
        r##"{"List": {"Function": {"params": ["Int", "Int"], "result": "Int"}}}"##,
        r##"{"Task": "Int"}"##,
        r##"{"Option": {"Task": "Int"}}"##,
    ] {
        assert_eq!(refusal(&none(), term).rule, Rule::CannotCross, "{term}");
    }
    let error = refusal(&d, &named("1", &[]));
    assert_eq!(error.rule, Rule::CannotCross);
    assert!(error.message.contains(r#"field "callback" of Holder"#), "{}", error.message);
    assert!(error.message.contains("fn(Int)->Text"), "{}", error.message);
}

#[test]
fn an_unused_function_argument_is_fine() {
    let function = r##"{"Function": {"params": ["Int"], "result": {"Task": "Text"}}}"##;
    let d = declarations(vec![
        ("1", template("f.flow.Phantom", &["F"], record(vec![field("id", "Int")]))),
        ("2", template("f.flow.Machine", &[], Body::Nondata)),
    ]);
    assert_eq!(
        canonical(&d, &named("1", &[function])),
        r##"{"$defs":{"f.flow.Phantom<fn(Int)->Task<Text>>":{"properties":{"id":{"type":"integer"}},"required":["id"],"type":"object"}},"$ref":"#/$defs/f.flow.Phantom%3Cfn(Int)-%3ETask%3CText%3E%3E"}"##
    );
    // A nondata type as an unused argument is named in the key only.
    let text = canonical(&d, &named("1", &[&named("2", &[])]));
    assert!(text.contains(r##""f.flow.Phantom<f.flow.Machine>""##), "{text}");
    assert!(!text.contains(r##""f.flow.Machine":"##), "{text}");
    // Used, it is refused.
    let error = refusal(&d, &format!(r##"{{"List": {}}}"##, named("2", &[])));
    assert_eq!(error.rule, Rule::CannotCross);
    assert!(error.message.contains("Machine is a nondata type"), "{}", error.message);
}

#[test]
fn a_name_spelled_like_an_instantiation_clashes() {
    let d = declarations(vec![
        ("1", template("r.org/x@1.0.0/m.flow.Box", &["T"], record(vec![field("item", &param_of("1", 0))]))),
        ("2", template("r.org/x@1.0.0/m.flow.Box<Int>", &[], record(vec![]))),
    ]);
    let both = format!(r##"{{"Tuple": [{}, {}]}}"##, named("1", &[r##""Int""##]), named("2", &[]));
    let error = refusal(&d, &both);
    assert_eq!(error.rule, Rule::NotServable);
    assert!(error.message.contains("r.org/x@1.0.0/m.flow.Box<Int>"), "{}", error.message);
    assert!(
        error.message.contains(r##"declaration "1""##) && error.message.contains(r##"declaration "2""##),
        "{}",
        error.message
    );
    // Either alone is fine.
    canonical(&d, &named("1", &[r##""Int""##]));
    canonical(&d, &named("2", &[]));
}

#[test]
fn two_declarations_with_one_identity_clash() {
    let d = declarations(vec![
        ("1", template("r.org/x@1.0.0/m.flow.Same", &[], record(vec![]))),
        ("2", template("r.org/x@1.0.0/m.flow.Same", &[], record(vec![field("a", "Int")]))),
    ]);
    let both = format!(r##"{{"Tuple": [{}, {}]}}"##, named("1", &[]), named("2", &[]));
    assert_eq!(refusal(&d, &both).rule, Rule::NotServable);
}

#[test]
fn identities_differing_only_in_version_clash_in_the_canonical_form_only() {
    let d = declarations(vec![
        ("1", template("r.org/x@1.0.0/m.flow.T", &[], record(vec![]))),
        ("2", template("r.org/x@2.0.0/m.flow.T", &[], record(vec![]))),
    ]);
    let both = format!(r##"{{"Tuple": [{}, {}]}}"##, named("1", &[]), named("2", &[]));
    describe(&d, &both);
    assert_eq!(refusal(&d, &both).rule, Rule::NotServable);
}

#[test]
fn malformed_models_are_errors_not_panics() {
    let d = declarations(vec![
        ("1", template("f.flow.G", &["T"], record(vec![field("x", &param_of("1", 0))]))),
        ("2", template("f.flow.Bad", &[], record(vec![field("x", &param_of("2", 3))]))),
        ("3", template("f.flow.NoCtor", &[], Body::Enum { constructors: vec![] })),
        (
            "4",
            template(
                "f.flow.NoPart",
                &[],
                Body::Enum { constructors: vec![constructor("C", None, Some(Payload::Positional(vec![])))] },
            ),
        ),
        ("5", template("f.flow.Dup", &[], record(vec![field("x", "Int"), field("x", "Text")]))),
    ]);
    assert_eq!(refusal(&d, &named("9", &[])).rule, Rule::Unresolved);
    assert_eq!(refusal(&d, &named("1", &[])).rule, Rule::Arity);
    assert_eq!(refusal(&d, &named("2", &[])).rule, Rule::ParamIndex);
    assert_eq!(refusal(&d, &named("3", &[])).rule, Rule::Invalid);
    assert_eq!(refusal(&d, &named("4", &[])).rule, Rule::Invalid);
    assert_eq!(refusal(&d, &named("5", &[])).rule, Rule::DuplicateName);
    assert_eq!(refusal(&d, r##"{"Param": {"owner": "tool", "index": 1}}"##).rule, Rule::ParamIndex);
    assert_eq!(refusal(&d, &param_of("1", 0)).rule, Rule::ParamOwner);
}

#[test]
fn expanding_recursion_terminates_with_a_refusal() {
    // Invalid input (decisions.md 2a), refused by validation; generation must
    // still end rather than build ever longer keys.
    let grow = |arg: &str| named("1", &[&format!(r##"{{"List": {arg}}}"##)]);
    let d = declarations(vec![(
        "1",
        template("f.flow.Grow", &["T"], record(vec![field("next", &grow(&param_of("1", 0)))])),
    )]);
    assert_eq!(refusal(&d, &named("1", &[r##""Int""##])).rule, Rule::NotServable);
}

#[test]
fn a_dict_keyed_by_a_declaration_parameter_follows_the_substituted_key() {
    let d = declarations(vec![(
        "1",
        template(
            "f.flow.Index",
            &["K"],
            record(vec![field("map", &format!(r#"{{"Dict": [{}, "Int"]}}"#, param_of("1", 0)))]),
        ),
    )]);
    let text = canonical(&d, &named("1", &[r#""Text""#]));
    assert!(text.contains(r#""map":{"additionalProperties":{"type":"integer"},"type":"object"}"#), "{text}");
    let text = canonical(&d, &named("1", &[PARAM_0]));
    assert!(text.contains(r#""f.flow.Index<T>":{"properties":{"map":{"items":{"items":false,"minItems":2,"prefixItems":[{"$param":"T"},"#), "{text}");
}
