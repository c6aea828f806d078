//! One test per row of `decisions.md` section 4's table (`flow_core::schema`'s kind table): each kind of type and the schema it gets.

use super::*;

// Primitives.

#[test]
fn primitives() {
    let d = none();
    assert_eq!(canonical(&d, r##""Int""##), r##"{"type":"integer"}"##);
    assert_eq!(canonical(&d, r##""Decimal""##), r##"{"type":"number"}"##);
    assert_eq!(canonical(&d, r##""Text""##), r##"{"type":"string"}"##);
    assert_eq!(canonical(&d, r##""Bool""##), r##"{"type":"boolean"}"##);
    assert_eq!(canonical(&d, r##""Bytes""##), r##"{"contentEncoding":"base64","type":"string"}"##);
    assert_eq!(canonical(&d, r##""Instant""##), r##"{"format":"date-time","type":"string"}"##);
    assert_eq!(canonical(&d, r##""Duration""##), r##"{"format":"duration","type":"string"}"##);
    assert_eq!(canonical(&d, r##""Unit""##), r##"{"type":"null"}"##);
    assert_eq!(canonical(&d, r##""Never""##), "false");
    assert_eq!(canonical(&d, r##""json.Value""##), "{}");
}

// Compound terms.

#[test]
fn list_and_set() {
    let d = none();
    assert_eq!(canonical(&d, r##"{"List": "Int"}"##), r##"{"items":{"type":"integer"},"type":"array"}"##);
    assert_eq!(
        canonical(&d, r##"{"Set": "Text"}"##),
        r##"{"items":{"type":"string"},"type":"array","uniqueItems":true}"##
    );
    assert_eq!(canonical(&d, r##"{"List": "Never"}"##), r##"{"items":false,"type":"array"}"##);
}

#[test]
fn tuple() {
    assert_eq!(
        canonical(&none(), r##"{"Tuple": ["Int", "Bytes", "Unit"]}"##),
        r##"{"items":false,"minItems":3,"prefixItems":[{"type":"integer"},{"contentEncoding":"base64","type":"string"},{"type":"null"}],"type":"array"}"##
    );
}

#[test]
fn dict_with_text_keys_is_an_object() {
    assert_eq!(
        canonical(&none(), r##"{"Dict": ["Text", "Decimal"]}"##),
        r##"{"additionalProperties":{"type":"number"},"type":"object"}"##
    );
}

#[test]
fn dict_with_other_keys_is_an_array_of_pairs() {
    assert_eq!(
        canonical(&none(), r##"{"Dict": ["Int", "Text"]}"##),
        r##"{"items":{"items":false,"minItems":2,"prefixItems":[{"type":"integer"},{"type":"string"}],"type":"array"},"type":"array"}"##
    );
    // Only Text itself makes an object: Option<Text> keys are pairs.
    assert!(
        canonical(&none(), r##"{"Dict": [{"Option": "Text"}, "Int"]}"##).starts_with(r##"{"items":{"items":false"##)
    );
}

#[test]
fn option_outside_a_field_is_an_enum() {
    let expected = r##"{"oneOf":[{"const":"None"},{"additionalProperties":false,"properties":{"Some":{"type":"integer"}},"required":["Some"],"type":"object"}]}"##;
    assert_eq!(canonical(&none(), r##"{"Option": "Int"}"##), expected);
    assert_eq!(
        canonical(&none(), r##"{"List": {"Option": "Int"}}"##),
        format!(r##"{{"items":{expected},"type":"array"}}"##)
    );
}

#[test]
fn option_in_a_field_is_its_inner_schema_and_not_required() {
    let d = declarations(vec![(
        "1",
        template(
            "f.flow.R",
            &[],
            record(vec![
                field("a", r##"{"Option": "Int"}"##),
                field("b", "Text"),
                field("c", r##"{"Option": {"Option": "Int"}}"##),
                field("d", r##"{"Option": "Unit"}"##),
            ]),
        ),
    )]);
    assert_eq!(
        canonical(&d, &named("1", &[])),
        concat!(
            r##"{"$defs":{"f.flow.R":{"properties":{"a":{"type":"integer"},"b":{"type":"string"},"##,
            r##""c":{"oneOf":[{"const":"None"},{"additionalProperties":false,"properties":{"Some":{"type":"integer"}},"required":["Some"],"type":"object"}]},"##,
            r##""d":{"type":"null"}},"required":["b"],"type":"object"}},"$ref":"#/$defs/f.flow.R"}"##
        )
    );
}

#[test]
fn the_option_field_rule_applies_to_the_substituted_type() {
    let d = declarations(vec![("1", template("f.flow.Wrap", &["T"], record(vec![field("value", &param_of("1", 0))])))]);
    let text = canonical(&d, &named("1", &[r##"{"Option": "Int"}"##]));
    assert_eq!(
        text,
        r##"{"$defs":{"f.flow.Wrap<Option<Int>>":{"properties":{"value":{"type":"integer"}},"type":"object"}},"$ref":"#/$defs/f.flow.Wrap%3COption%3CInt%3E%3E"}"##
    );
}

// Declarations.

#[test]
fn a_record_without_fields_still_has_properties() {
    let d = declarations(vec![("1", template("f.flow.Empty", &[], record(vec![])))]);
    assert_eq!(
        canonical(&d, &named("1", &[])),
        r##"{"$defs":{"f.flow.Empty":{"properties":{},"type":"object"}},"$ref":"#/$defs/f.flow.Empty"}"##
    );
}

#[test]
fn a_host_type_is_the_empty_schema() {
    let d =
        declarations(vec![("1", documented(template("r.org/h@0.1.0/h.flow.Handle", &[], Body::Host), "A handle."))]);
    assert_eq!(
        canonical(&d, &named("1", &[])),
        r##"{"$defs":{"r.org/h/h.flow.Handle":{}},"$ref":"#/$defs/r.org~1h~1h.flow.Handle"}"##
    );
    assert_eq!(
        describe(&d, &named("1", &[])),
        r##"{"$defs":{"r.org/h@0.1.0/h.flow.Handle":{"description":"A handle."}},"$ref":"#/$defs/r.org~1h@0.1.0~1h.flow.Handle"}"##
    );
}

#[test]
fn enum_payloads() {
    let d = declarations(vec![(
        "1",
        template(
            "f.flow.E",
            &[],
            Body::Enum {
                constructors: vec![
                    constructor("A", None, None),
                    constructor("B", None, Some(Payload::Positional(vec![ty("Int")]))),
                    constructor("C", None, Some(Payload::Positional(vec![ty("Int"), ty("Text")]))),
                    constructor("D", None, Some(Payload::Named(vec![]))),
                    constructor(
                        "E",
                        None,
                        Some(Payload::Named(vec![field("x", r##"{"Option": "Int"}"##), field("y", "Bool")])),
                    ),
                ],
            },
        ),
    )]);
    let branch = |name: &str, payload: &str| {
        format!(
            r##"{{"additionalProperties":false,"properties":{{"{name}":{payload}}},"required":["{name}"],"type":"object"}}"##
        )
    };
    let expected = format!(
        r##"{{"$defs":{{"f.flow.E":{{"oneOf":[{{"const":"A"}},{},{},{},{}]}}}},"$ref":"#/$defs/f.flow.E"}}"##,
        branch("B", r##"{"type":"integer"}"##),
        branch(
            "C",
            r##"{"items":false,"minItems":2,"prefixItems":[{"type":"integer"},{"type":"string"}],"type":"array"}"##
        ),
        branch("D", r##"{"properties":{},"type":"object"}"##),
        branch(
            "E",
            r##"{"properties":{"x":{"type":"integer"},"y":{"type":"boolean"}},"required":["y"],"type":"object"}"##
        ),
    );
    assert_eq!(canonical(&d, &named("1", &[])), expected);
}

// Tool type parameters.

#[test]
fn a_tool_type_parameter_is_a_param_schema() {
    assert_eq!(canonical(&none(), PARAM_0), r##"{"$param":"T"}"##);
    assert_eq!(
        canonical(&none(), &format!(r##"{{"List": {PARAM_0}}}"##)),
        r##"{"items":{"$param":"T"},"type":"array"}"##
    );
    let two = generate(&none(), r##"{"Param": {"owner": "tool", "index": 1}}"##, SchemaForm::Canonical, &["K", "V"]);
    assert_eq!(two.unwrap().to_canonical(), r##"{"$param":"V"}"##);
}

#[test]
fn a_dict_keyed_by_a_type_parameter_is_an_array_of_pairs() {
    assert_eq!(
        canonical(&none(), &format!(r##"{{"Dict": [{PARAM_0}, "Int"]}}"##)),
        r##"{"items":{"items":false,"minItems":2,"prefixItems":[{"$param":"T"},{"type":"integer"}],"type":"array"},"type":"array"}"##
    );
}

#[test]
fn a_generic_declaration_applied_to_a_type_parameter() {
    let d = declarations(vec![(
        "1",
        template("f.flow.Box", &["A"], record(vec![doc_field("item", &param_of("1", 0), "The item.")])),
    )]);
    assert_eq!(
        describe(&d, &named("1", &[PARAM_0])),
        r##"{"$defs":{"f.flow.Box<T>":{"properties":{"item":{"$param":"T","description":"The item."}},"required":["item"],"type":"object"}},"$ref":"#/$defs/f.flow.Box%3CT%3E"}"##
    );
}
