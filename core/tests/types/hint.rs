//! Refusals of a hand-written listing that say the fix: each common mistake,
//! made once in the weather listing, and the whole line it gets. The rule and
//! the path are those of the refusal without a fix (tests/vectors).

use flow_core::json;
use flow_core::types::listing_from_text;
use flow_core::Limits;

const WEATHER: &str = include_str!("../../../tests/examples/weather.tools.json");

/// The refusal of the weather listing (in canonical text) with the first
/// `from` replaced by `to`.
fn refusal(from: &str, to: &str) -> String {
    let text = json::canonicalize(WEATHER.as_bytes(), &Limits::default()).expect("the example is JSON");
    assert!(text.contains(from), "edit target {from} not in the listing");
    let edited = text.replacen(from, to, 1);
    listing_from_text(edited.as_bytes(), &Limits::default()).expect_err("expected a refusal").to_string()
}

#[test]
fn type_text_gets_its_term() {
    assert_eq!(
        refusal(r#""cursor","type":{"Option":"Text"}"#, r#""cursor","type":"Option<Text>""#),
        r#"$.tools[1].params[1].type: unknown primitive term "Option<Text>"; write {"Option":"Text"} [unknown-term]"#
    );
    // The parts are translated too: a declaration's name, another language's primitive.
    assert_eq!(
        refusal(r#"{"Option":{"Named":{"args":[],"declaration":"8"}}}"#, r#""Option<Units>""#),
        r#"$.tools[0].params[2].type: unknown primitive term "Option<Units>"; write {"Option":{"Named":{"declaration":"8","args":[]}}} [unknown-term]"#
    );
    assert_eq!(
        refusal(r#""type":{"List":{"Named":{"args":[],"declaration":"2"}}}"#, r#""type":"List<Day>""#),
        r#"$.declarations["1"].fields[1].type: unknown primitive term "List<Day>"; write {"List":{"Named":{"declaration":"2","args":[]}}} [unknown-term]"#
    );
    assert_eq!(
        refusal(r#""city","type":"Text""#, r#""city","type":"Dict<string, int>""#),
        r#"$.declarations["1"].fields[0].type: unknown primitive term "Dict<string, int>"; write {"Dict":["Text","Int"]} [unknown-term]"#
    );
}

#[test]
fn a_declaration_name_gets_its_named_term() {
    assert_eq!(
        refusal(r#""ok":{"Named":{"args":[],"declaration":"1"}}"#, r#""ok":"Forecast""#),
        r#"$.tools[0].ok: unknown primitive term "Forecast"; "Forecast" names a declaration: write {"Named":{"declaration":"1","args":[]}} [unknown-term]"#
    );
    // A generic declaration with its argument.
    assert_eq!(
        refusal(
            r#"{"Named":{"args":[{"Named":{"args":[],"declaration":"6"}}],"declaration":"5"}}"#,
            r#""Page<Station>""#
        ),
        r#"$.tools[1].ok: unknown primitive term "Page<Station>"; write {"Named":{"declaration":"5","args":[{"Named":{"declaration":"6","args":[]}}]}} [unknown-term]"#
    );
}

#[test]
fn a_declaration_name_as_a_local_id_gets_the_id() {
    assert_eq!(
        refusal(
            r#""ok":{"Named":{"args":[],"declaration":"1"}}"#,
            r#""ok":{"Named":{"args":[],"declaration":"Forecast"}}"#
        ),
        r#"$.tools[0].ok: Named declaration "Forecast" is not in declarations; "Forecast" is a declaration's name; its local id is "1" [unresolved]"#
    );
}

#[test]
fn a_type_parameter_name_gets_its_param_term() {
    assert_eq!(
        refusal(r#""ok":{"Param":{"index":0,"owner":"tool"}}"#, r#""ok":"T""#),
        r#"$.tools[3].ok: unknown primitive term "T"; "T" is a type parameter: write {"Param":{"owner":"tool","index":0}} [unknown-term]"#
    );
    // In a declaration, the owner is its local id.
    assert_eq!(
        refusal(r#"{"List":{"Param":{"index":0,"owner":"5"}}}"#, r#""List<T>""#),
        r#"$.declarations["5"].fields[0].type: unknown primitive term "List<T>"; write {"List":{"Param":{"owner":"5","index":0}}} [unknown-term]"#
    );
}

#[test]
fn a_null_err_is_never() {
    assert_eq!(
        refusal(r#""err":"Never""#, r#""err":null"#),
        r#"$.tools[3].err: a term is a string or a one-member object, found null; for a Tool that cannot fail, write "Never" [unknown-term]"#
    );
    assert_eq!(
        refusal(r#""ok":{"Param":{"index":0,"owner":"tool"}}"#, r#""ok":null"#),
        r#"$.tools[3].ok: a term is a string or a one-member object, found null; for a Tool that returns nothing, write "Unit" [unknown-term]"#
    );
}

#[test]
fn a_misspelt_name_gets_the_nearest() {
    assert_eq!(
        refusal(r#""city","type":"Text""#, r#""city","type":"Txt""#),
        r#"$.declarations["1"].fields[0].type: unknown primitive term "Txt"; did you mean "Text"? [unknown-term]"#
    );
    assert_eq!(
        refusal(r#""cursor","type":{"Option":"Text"}"#, r#""cursor","type":{"Optional":"Text"}"#),
        r#"$.tools[1].params[1].type: unknown term "Optional"; write {"Option":"Text"} [unknown-term]"#
    );
    assert_eq!(
        refusal(r#"{"doc":"A forecast for one city.","fields":"#, r#"{"doc":"A forecast for one city.","feilds":"#),
        r#"$.declarations["1"].feilds: unknown member "feilds" in a template; did you mean "fields"? [shape]"#
    );
    assert_eq!(
        refusal(r#""ok":{"Param":{"index":0,"owner":"tool"}}"#, r#""ok":{"Param":{"index":0,"ownr":"tool"}}"#),
        r#"$.tools[3].ok.Param.ownr: Param holds exactly "owner" and "index"; "ownr" is unknown; did you mean "owner"? [shape]"#
    );
    // Nothing near: no guess.
    assert_eq!(
        refusal(r#""city","type":"Text""#, r#""city","type":"Colour""#),
        r#"$.declarations["1"].fields[0].type: unknown primitive term "Colour" [unknown-term]"#
    );
}

#[test]
fn a_missing_doc_gets_null() {
    assert_eq!(
        refusal(r#"{"doc":"Returns its argument.","#, "{"),
        r#"$.tools[3]: a tool lacks member "doc"; write "doc": null when there is none [shape]"#
    );
}

#[test]
fn a_generic_declaration_by_name_gets_its_arity() {
    assert_eq!(
        refusal(r#"{"Named":{"args":[{"Named":{"args":[],"declaration":"6"}}],"declaration":"5"}}"#, r#""Page""#),
        r#"$.tools[1].ok: unknown primitive term "Page"; "Page" names a declaration with 1 type parameter(s): write {"Named":{"declaration":"5","args":[TERM]}} [unknown-term]"#
    );
}

#[test]
fn a_known_tag_with_the_wrong_content_gets_no_guess() {
    assert_eq!(
        refusal(r#""counts","type":{"Dict":["Int","Int"]}"#, r#""counts","type":{"Dict":["Int"]}"#),
        r#"$.tools[2].params[3].type: Dict holds an array of exactly two terms [unknown-term]"#
    );
}

#[test]
fn a_term_on_the_command_line_is_taught_from_the_listing() {
    let listing = listing_from_text(WEATHER.as_bytes(), &Limits::default()).unwrap();
    let term = json::parse_str(r#""List<Day>""#, &Limits::default()).unwrap();
    let refused = flow_core::types::term_from_json_in(&term, &listing.declarations).unwrap_err().to_string();
    assert_eq!(
        refused,
        r#"$: unknown primitive term "List<Day>"; write {"List":{"Named":{"declaration":"2","args":[]}}} [unknown-term]"#
    );
    let nested = json::parse_str(r#"{"Option":"Forecast"}"#, &Limits::default()).unwrap();
    let refused = flow_core::types::term_from_json_in(&nested, &listing.declarations).unwrap_err().to_string();
    assert!(refused.starts_with(r#"$.Option: unknown primitive term "Forecast"; "Forecast" names a declaration: write {"Named":{"declaration":"1","args":[]}}"#), "{refused}");
}
