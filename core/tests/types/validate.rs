//! Validation of listings and TypeSpecs (`flow_core::types::validate`): names, Param and Named, templates.

use super::*;

#[test]
fn duplicate_names() {
    let w = weather();
    expect(&edit(&w, ECHO_GENERIC, r#""err":"Never","generic":["T","T"]"#), "duplicate-name", "$.tools[3].generic[1]");
    accept(&edit(&w, ECHO_GENERIC, r#""err":"Never","generic":["T","U"]"#));
    expect(
        &edit(&w, r#"{"name":"days","type":"Int"}"#, r#"{"name":"city","type":"Int"}"#),
        "duplicate-name",
        "$.tools[0].params[1].name",
    );
    expect(
        &edit(&w, r#"{"doc":null,"name":"issued","#, r#"{"doc":null,"name":"city","#),
        "duplicate-name",
        r#"$.declarations["1"].fields[2].name"#,
    );
    expect(
        &edit(&w, r#""name":"Imperial""#, r#""name":"Metric""#),
        "duplicate-name",
        r#"$.declarations["8"].constructors[1].name"#,
    );
    expect(
        &edit(&w, r#""name":"warning""#, r#""name":"wind_kph""#),
        "duplicate-name",
        r#"$.declarations["3"].constructors[2].payload.named[1].name"#,
    );
    let twice = record("Box", &["T", "T"], &[("v", &param("b", "1"))]);
    expect(
        &returning(&named("b", &["\"Int\"", "\"Int\""]), &[("b", twice)]),
        "duplicate-name",
        "$.declarations.b.generic[1]",
    );
    // Equal field names in different payloads are not duplicates.
    let e = enumeration(
        "E",
        &[],
        r#"{"name":"A","doc":null,"payload":{"named":[{"name":"x","type":"Int","doc":null}]}},
           {"name":"B","doc":null,"payload":{"named":[{"name":"x","type":"Int","doc":null}]}}"#,
    );
    accept(&returning(&named("1", &[]), &[("1", e)]));
    // Nor a field named like a constructor, or like the record.
    accept(&returning(&named("1", &[]), &[("1", record("R", &[], &[("R", "\"Int\"")]))]));
    // Empty names are refused.
    expect(
        &edit(&w, r#"{"name":"city","type":"Text"}"#, r#"{"name":"","type":"Text"}"#),
        "invalid",
        "$.tools[0].params[0].name",
    );
}

#[test]
fn generic_names_spelled_like_primitives() {
    let w = weather();
    for prim in ["Int", "json.Value", "Never"] {
        expect(
            &edit(&w, ECHO_GENERIC, &format!(r#""err":"Never","generic":["{prim}"]"#)),
            "invalid",
            "$.tools[3].generic[0]",
        );
    }
    accept(&edit(&w, ECHO_GENERIC, r#""err":"Never","generic":["Integer"]"#));
    accept(&edit(&w, ECHO_GENERIC, r#""err":"Never","generic":["json"]"#));
    expect(
        &edit(&w, r#""generic":["T"],"identity""#, r#""generic":["Text"],"identity""#),
        "invalid",
        r#"$.declarations["5"].generic[0]"#,
    );
}

#[test]
fn param_owner() {
    let w = weather();
    // In a template, the owner is the template's own local id.
    expect(
        &edit(&w, r#"{"Param":{"index":0,"owner":"5"}}"#, r#"{"Param":{"index":0,"owner":"tool"}}"#),
        "param-owner",
        r#"$.declarations["5"].fields[0].type.List"#,
    );
    // In a Tool's roots, it is `tool`.
    expect(
        &edit(&w, r#""ok":{"Param":{"index":0,"owner":"tool"}}"#, r#""ok":{"Param":{"index":0,"owner":"5"}}"#),
        "param-owner",
        "$.tools[3].ok",
    );
    // A declaration may have the local id `tool`; its Params use it.
    let doc =
        returning(&named("tool", &["\"Int\""]), &[("tool", record("Box", &["T"], &[("v", &param("tool", "0"))]))]);
    accept(&doc);
}

#[test]
fn param_index() {
    let w = weather();
    expect(
        &edit(&w, r#"{"Param":{"index":0,"owner":"5"}}"#, r#"{"Param":{"index":1,"owner":"5"}}"#),
        "param-index",
        r#"$.declarations["5"].fields[0].type.List"#,
    );
    expect(
        &edit(&w, r#""ok":{"Param":{"index":0,"owner":"tool"}}"#, r#""ok":{"Param":{"index":1e30,"owner":"tool"}}"#),
        "param-index",
        "$.tools[3].ok",
    );
    // A nongeneric Tool's roots have no Param.
    expect(
        &edit(&w, r#"{"name":"city","type":"Text"}"#, &format!(r#"{{"name":"city","type":{}}}"#, param("tool", "0"))),
        "param-index",
        "$.tools[0].params[0].type",
    );
    // Owners are checked before indices.
    expect(
        &edit(&w, r#""ok":{"Param":{"index":0,"owner":"tool"}}"#, r#""ok":{"Param":{"index":9,"owner":"x"}}"#),
        "param-owner",
        "$.tools[3].ok",
    );
}

#[test]
fn unresolved_and_arity() {
    let w = weather();
    expect(
        &edit(&w, r#""declaration":"3""#, r#""declaration":"33""#),
        "unresolved",
        r#"$.declarations["2"].fields[3].type"#,
    );
    expect(
        &edit(&w, r#""declaration":"3""#, r#""declaration":"""#),
        "unresolved",
        r#"$.declarations["2"].fields[3].type"#,
    );
    let page = r#"{"Named":{"args":[{"Named":{"args":[],"declaration":"6"}}],"declaration":"5"}}"#;
    let bare = r#"{"Named":{"args":[],"declaration":"5"}}"#;
    let text = edit(&w, page, bare);
    let e = listing(&text).unwrap_err();
    assert_eq!((e.rule.code(), e.path.to_string()), ("arity", "$.tools[1].ok".to_owned()));
    assert_eq!(e.to_string(), "$.tools[1].ok: Named arity 0, template Page declares 1 [arity]");
    let two = r#"{"Named":{"args":["Int","Int"],"declaration":"5"}}"#;
    assert_eq!(refuse(&edit(&w, page, two)).0, "arity");
    // Arguments are checked inside.
    expect(
        &edit(&w, page, r#"{"Named":{"args":[{"Named":{"args":[],"declaration":"x"}}],"declaration":"5"}}"#),
        "unresolved",
        "$.tools[1].ok.Named.args[0]",
    );
}

#[test]
fn enums_need_constructors_and_positional_parts() {
    expect(
        &returning(&named("1", &[]), &[("1", enumeration("E", &[], ""))]),
        "invalid",
        r#"$.declarations["1"].constructors"#,
    );
    expect(
        &returning(
            &named("1", &[]),
            &[("1", enumeration("E", &[], r#"{"name":"A","doc":null,"payload":{"positional":[]}}"#))],
        ),
        "invalid",
        r#"$.declarations["1"].constructors[0].payload.positional"#,
    );
    accept(&returning(
        &named("1", &[]),
        &[("1", enumeration("E", &[], r#"{"name":"A","doc":null,"payload":{"positional":["Int"]}}"#))],
    ));
    // A record may have no fields.
    accept(&returning(&named("1", &[]), &[("1", record("R", &[], &[]))]));
}

#[test]
fn type_spec_rules() {
    let l = accept(WEATHER);
    let spec = TypeSpec::for_tool(&l, "github.com/acme/weather@1.2.0/weather.flow.list_stations").unwrap();
    let text = type_spec_to_json(&spec).to_canonical();
    // Exactly five members.
    assert_eq!(
        refusal(type_spec_from_json(&parse(&edit(&text, "{", r#"{"data":"0.1","#)))),
        ("shape", "$.data".to_owned())
    );
    assert_eq!(
        refusal(type_spec_from_json(&parse(&edit(&text, r#""generic":[],"ok""#, r#""ok""#)))),
        ("shape", "$".to_owned())
    );
    // Another Tool's declarations are extras here.
    let with_units = edit(
        &text,
        r#""declarations":{"#,
        r#""declarations":{"8":{"constructors":[{"doc":null,"name":"Metric","payload":null}],"doc":null,"generic":[],"identity":"github.com/acme/weather@1.2.0/weather.flow.Units","kind":"enum","lexical_ordinal":8,"name":"Units","opaque":false},"#,
    );
    assert_eq!(
        refusal(type_spec_from_json(&parse(&with_units))),
        ("disconnected", r#"$.declarations["8"]"#.to_owned())
    );
    // Root Params are the Tool's.
    let generic =
        type_spec_to_json(&TypeSpec::for_tool(&l, "github.com/acme/weather@1.2.0/weather.flow.echo").unwrap())
            .to_canonical();
    assert_eq!(
        refusal(type_spec_from_json(&parse(&edit(&generic, r#""owner":"tool""#, r#""owner":"Tool""#)))),
        ("param-owner", "$.ok".to_owned())
    );
    assert_eq!(
        refusal(type_spec_from_json(&parse(&edit(&generic, r#""generic":["T"]"#, r#""generic":["T","T"]"#)))),
        ("duplicate-name", "$.generic[1]".to_owned())
    );
}
