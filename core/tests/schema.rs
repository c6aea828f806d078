//! Schemas, one test per row of `decisions.md` section 4, and the rules around
//! them: `$defs` placement and keys, descriptions, recursion, refusals.

mod support;

use flow_core::json::Json;
use flow_core::schema::{schema_of, SchemaForm};
use flow_core::types::{Body, Constructor, Declarations, Field, Payload, Prim, Template, Term};
use flow_core::{Error, Rule};
use support::weather_model::{term_text, weather};

// Building declarations by hand. Terms are written as in the JSON of a listing.

fn template(identity: &str, generic: &[&str], body: Body) -> Template {
    Template {
        name: flow_core::types::identity_name(identity).to_owned(),
        identity: identity.to_owned(),
        lexical_ordinal: 1,
        generic: generic.iter().map(|g| (*g).to_owned()).collect(),
        opaque: false,
        doc: None,
        body,
    }
}

fn documented(mut template: Template, doc: &str) -> Template {
    template.doc = Some(doc.to_owned());
    template
}

/// A term from its JSON text, or a bare primitive name (`Int`).
fn ty(text: &str) -> Term {
    Prim::from_name(text).map_or_else(|| term_text(text), Term::Prim)
}

fn field(name: &str, text: &str) -> Field {
    Field { name: name.to_owned(), ty: ty(text), doc: None }
}

fn doc_field(name: &str, ty: &str, doc: &str) -> Field {
    Field { doc: Some(doc.to_owned()), ..field(name, ty) }
}

fn record(fields: Vec<Field>) -> Body {
    Body::Record { fields }
}

fn constructor(name: &str, doc: Option<&str>, payload: Option<Payload>) -> Constructor {
    Constructor { name: name.to_owned(), doc: doc.map(str::to_owned), payload }
}

fn declarations(templates: Vec<(&str, Template)>) -> Declarations {
    templates.into_iter().map(|(id, t)| (id.to_owned(), t)).collect()
}

/// `{"Named": {"declaration": id, "args": [args...]}}`.
fn named(id: &str, args: &[&str]) -> String {
    format!(r##"{{"Named": {{"declaration": "{id}", "args": [{}]}}}}"##, args.join(","))
}

const PARAM_0: &str = r##"{"Param": {"owner": "tool", "index": 0}}"##;

fn param_of(owner: &str, index: usize) -> String {
    format!(r##"{{"Param": {{"owner": "{owner}", "index": {index}}}}}"##)
}

fn generate(declarations: &Declarations, term: &str, form: SchemaForm, generic: &[&str]) -> Result<Json, Error> {
    let generic: Vec<String> = generic.iter().map(|g| (*g).to_owned()).collect();
    schema_of(&term_text(term), declarations, form, &generic)
}

/// The canonical-form schema's canonical text.
fn canonical(declarations: &Declarations, term: &str) -> String {
    generate(declarations, term, SchemaForm::Canonical, &["T"]).unwrap().to_canonical()
}

fn describe(declarations: &Declarations, term: &str) -> String {
    generate(declarations, term, SchemaForm::Describe, &["T"]).unwrap().to_canonical()
}

fn refusal(declarations: &Declarations, term: &str) -> Error {
    generate(declarations, term, SchemaForm::Canonical, &["T"]).unwrap_err()
}

fn none() -> Declarations {
    Declarations::new()
}

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

// Keys.

#[test]
fn instantiated_generic_keys_write_their_arguments_as_type_text() {
    let listing = weather();
    let page_of_station = named("5", &[&named("6", &[])]);
    let text = canonical(&listing.declarations, &page_of_station);
    let key = "github.com/acme/weather/weather.flow.Page<github.com/acme/weather/weather.flow.Station>";
    let reference =
        "#/$defs/github.com~1acme~1weather~1weather.flow.Page%3Cgithub.com~1acme~1weather~1weather.flow.Station%3E";
    assert!(text.ends_with(&format!(r#""$ref":"{reference}"}}"#)), "{text}");
    assert!(text.contains(&format!(r##""{key}":{{"properties":{{"items":{{"items":{{"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.Station"}},"type":"array"}},"next":{{"type":"string"}}}},"required":["items"],"type":"object"}}"##)), "{text}");
    let described = describe(&listing.declarations, &page_of_station);
    assert!(described.contains(r##""github.com/acme/weather@1.2.0/weather.flow.Page<github.com/acme/weather@1.2.0/weather.flow.Station>":{"description":"One page of results.""##), "{described}");

    let d = declarations(vec![(
        "1",
        template(
            "f.flow.Pair",
            &["A", "B"],
            record(vec![field("a", &param_of("1", 0)), field("b", &param_of("1", 1))]),
        ),
    )]);
    let text = canonical(
        &d,
        &named("1", &[r##"{"List": {"Tuple": ["Int", "json.Value"]}}"##, r##"{"Dict": ["Text", {"Set": "Bool"}]}"##]),
    );
    assert!(text.contains(r##""f.flow.Pair<List<(Int,json.Value)>,Dict<Text,Set<Bool>>>":"##), "{text}");
}

#[test]
fn keys_are_escaped_as_json_pointers_then_percent_encoded() {
    let d = declarations(vec![("1", template("example.com/a~b/c%d@1.0.0/dir/e f.flow.T", &[], record(vec![])))]);
    let text = canonical(&d, &named("1", &[]));
    assert_eq!(
        text,
        r##"{"$defs":{"example.com/a~b/c%d/dir/e f.flow.T":{"properties":{},"type":"object"}},"$ref":"#/$defs/example.com~1a~0b~1c%25d~1dir~1e%20f.flow.T"}"##
    );
}

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
