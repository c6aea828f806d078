//! Parsing listings (`flow_core::types::parse`): the example round trip, versions, exact shapes, terms.

use super::*;

#[test]
fn weather_validates_and_round_trips() {
    let l = accept(WEATHER);
    assert_eq!(l.tools.len(), 4);
    assert_eq!(l.declarations.len(), 8);
    assert_eq!(listing_to_json(&l).to_canonical(), weather());
    // The canonical text reads back to the same listing.
    assert_eq!(accept(&weather()), l);
}

#[test]
fn data_version() {
    let w = weather();
    accept(&edit(&w, r#""data":"0.1""#, r#""data":"0.7""#));
    expect(&edit(&w, r#""data":"0.1""#, r#""data":"1.0""#), "version", "$.data");
    expect(&edit(&w, r#""data":"0.1""#, r#""data":"0.1.0""#), "version", "$.data");
    expect(&edit(&w, r#""data":"0.1""#, r#""data":"v0""#), "version", "$.data");
    expect(&edit(&w, r#""data":"0.1""#, r#""data":"00.1""#), "version", "$.data");
    expect(&edit(&w, r#""data":"0.1""#, r#""data":0.1"#), "shape", "$.data");
    // A version refusal comes before any shape error: another major may
    // have another shape.
    expect(&edit(&w, r#""data":"0.1""#, r#""data":"2.0","extra":1"#), "version", "$.data");
}

#[test]
fn listing_and_tool_shapes() {
    let w = weather();
    expect(&edit(&w, r#""data":"0.1","#, r#""data":"0.1","more":[],"#), "shape", "$.more");
    expect(&edit(&w, r#""data":"0.1","#, ""), "shape", "$");
    expect(&format!("[{w}]"), "shape", "$");
    let doc = r#""doc":"Forecast for a city.","#;
    expect(&edit(&w, doc, &format!(r#"{doc}"extra":1,"#)), "shape", "$.tools[0].extra");
    expect(&edit(&w, doc, ""), "shape", "$.tools[0]");
    expect(&edit(&w, doc, r#""doc":5,"#), "shape", "$.tools[0].doc");
    expect(&edit(&w, r#""tools":["#, r#""tools":[7,"#), "shape", "$.tools[0]");
    expect(&edit(&w, r#"{"name":"city","type":"Text"}"#, r#"{"name":"city"}"#), "shape", "$.tools[0].params[0]");
    expect(
        &edit(&w, r#"{"name":"city","type":"Text"}"#, r#"{"name":"city","type":"Text","doc":null}"#),
        "shape",
        "$.tools[0].params[0].doc",
    );
    expect(
        &edit(&w, r#"{"name":"city","type":"Text"}"#, r#"{"name":1,"type":"Text"}"#),
        "shape",
        "$.tools[0].params[0].name",
    );
    expect(&edit(&w, ECHO_GENERIC, r#""err":"Never","generic":[1]"#), "shape", "$.tools[3].generic[0]");
    expect(&edit(&w, ECHO_GENERIC, r#""err":"Never","generic":"T""#), "shape", "$.tools[3].generic");
    expect(&edit(&w, r#""declarations":{"#, r#""declarations":{"":{},"#), "shape", r#"$.declarations[""]"#);
    expect(&edit(&w, r#""declarations":{"#, r#""declarations":[],"x":{"#), "shape", "$.x");
}

#[test]
fn template_shapes() {
    let w = weather();
    let sky = r#""kind":"enum","lexical_ordinal":3,"#;
    // Common members.
    expect(
        &edit(&w, sky, r#""kind":"enum","lexical_ordinal":3,"extra":null,"#),
        "shape",
        r#"$.declarations["3"].extra"#,
    );
    expect(&edit(&w, sky, r#""kind":"enum","#), "shape", r#"$.declarations["3"]"#);
    expect(&edit(&w, sky, r#""kind":"struct","lexical_ordinal":3,"#), "shape", r#"$.declarations["3"].kind"#);
    expect(&edit(&w, r#""opaque":false}"#, r#""opaque":"no"}"#), "shape", r#"$.declarations["1"].opaque"#);
    expect(&edit(&w, r#""doc":"What the sky does.""#, r#""doc":[]"#), "shape", r#"$.declarations["3"].doc"#);
    // The body member follows the kind.
    expect(&edit(&w, sky, r#""kind":"record","lexical_ordinal":3,"#), "shape", r#"$.declarations["3"].constructors"#);
    expect(&edit(&w, sky, r#""kind":"host","lexical_ordinal":3,"#), "shape", r#"$.declarations["3"].constructors"#);
    let forecast = r#""kind":"record","lexical_ordinal":1,"#;
    expect(&edit(&w, forecast, r#""kind":"enum","lexical_ordinal":1,"#), "shape", r#"$.declarations["1"].fields"#);
    let units = r#"{"constructors":[{"doc":null,"name":"Metric","payload":null},{"doc":null,"name":"Imperial","payload":null}],"#;
    expect(&edit(&w, units, "{"), "shape", r#"$.declarations["8"]"#);
    // A host template holds the common members only.
    let host =
        edit(&w, units, "{").replace(r#""kind":"enum","lexical_ordinal":8"#, r#""kind":"host","lexical_ordinal":8"#);
    accept(&host);
    let nondata = host.replace(r#""kind":"host""#, r#""kind":"nondata""#);
    accept(&nondata);
}

#[test]
fn lexical_ordinal_is_read_by_value() {
    let w = weather();
    let at = r#""lexical_ordinal":3,"#;
    let with = |v: &str| edit(&w, at, &format!(r#""lexical_ordinal":{v},"#));
    accept(&with("3.0"));
    accept(&with("3e0"));
    accept(&with("18446744073709551615"));
    for bad in ["0", "-1", "1.5", "true", "\"3\"", "null", "18446744073709551616"] {
        expect(&with(bad), "shape", r#"$.declarations["3"].lexical_ordinal"#);
    }
}

#[test]
fn field_constructor_and_payload_shapes() {
    let w = weather();
    let city = r#"{"doc":null,"name":"city","type":"Text"}"#;
    expect(&edit(&w, city, r#"{"doc":null,"name":"city"}"#), "shape", r#"$.declarations["1"].fields[0]"#);
    expect(
        &edit(&w, city, r#"{"doc":null,"name":"city","type":"Text","x":1}"#),
        "shape",
        r#"$.declarations["1"].fields[0].x"#,
    );
    expect(
        &edit(&w, city, r#"{"doc":1,"name":"city","type":"Text"}"#),
        "shape",
        r#"$.declarations["1"].fields[0].doc"#,
    );
    let clear = r#"{"doc":null,"name":"Clear","payload":null}"#;
    expect(&edit(&w, clear, r#"{"doc":null,"name":"Clear"}"#), "shape", r#"$.declarations["3"].constructors[0]"#);
    let at = r#"$.declarations["3"].constructors[0].payload"#;
    expect(&edit(&w, clear, r#"{"doc":null,"name":"Clear","payload":{}}"#), "shape", at);
    expect(&edit(&w, clear, r#"{"doc":null,"name":"Clear","payload":[]}"#), "shape", at);
    expect(&edit(&w, clear, r#"{"doc":null,"name":"Clear","payload":{"named":[],"positional":["Int"]}}"#), "shape", at);
    expect(&edit(&w, clear, r#"{"doc":null,"name":"Clear","payload":{"parts":[]}}"#), "shape", &format!("{at}.parts"));
    expect(
        &edit(&w, clear, r#"{"doc":null,"name":"Clear","payload":{"positional":"Int"}}"#),
        "shape",
        &format!("{at}.positional"),
    );
    expect(
        &edit(&w, clear, r#"{"doc":null,"name":"Clear","payload":{"named":[{"name":"a","type":"Int"}]}}"#),
        "shape",
        &format!("{at}.named[0]"),
    );
    // A named payload may have no parts.
    accept(&edit(&w, clear, r#"{"doc":null,"name":"Clear","payload":{"named":[]}}"#));
}

#[test]
fn term_forms() {
    let all = [
        r#""Int""#,
        r#""json.Value""#,
        r#"{"List":"Int"}"#,
        r#"{"Set":"Text"}"#,
        r#"{"Option":"Unit"}"#,
        r#"{"Task":"Never"}"#,
        r#"{"Dict":["Int","Bytes"]}"#,
        r#"{"Tuple":["Duration","Instant","Decimal"]}"#,
        r#"{"Function":{"params":[],"result":"Bool"}}"#,
        r#"{"Function":{"params":["Int",{"List":"Int"}],"result":"Bool"}}"#,
        r#"{"Named":{"declaration":"tool","args":[]}}"#,
        r#"{"Param":{"owner":"x","index":0}}"#,
    ];
    for text in all {
        let term = term_from_json(&parse(text)).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(term_from_json(&term_to_json(&term)).unwrap(), term, "{text}");
        assert_eq!(term_to_json(&term), parse(text), "{text}");
    }
    // Param indices are read by value.
    for (text, index) in [("0.0", 0), ("-0", 0), ("2e0", 2), ("1.0e1", 10)] {
        let term = term_from_json(&parse(&param("x", text))).unwrap();
        assert_eq!(term, Term::Param { owner: "x".into(), index });
    }
}

#[test]
fn unknown_terms() {
    for bad in [
        r#""Integer""#,
        r#""int""#,
        "null",
        "5",
        r#"["Int"]"#,
        r#"{}"#,
        r#"{"List":"Int","Set":"Int"}"#,
        r#"{"Array":"Int"}"#,
        r#"{"Dict":["Int"]}"#,
        r#"{"Dict":["Int","Int","Int"]}"#,
        r#"{"Dict":"Int"}"#,
        r#"{"Tuple":["Int"]}"#,
        r#"{"Tuple":[]}"#,
    ] {
        assert_eq!(refusal(term_from_json(&parse(bad))), ("unknown-term", "$".to_owned()), "{bad}");
    }
    // The object under Function, Named or Param is held to its exact shape.
    for (bad, path) in [
        (r#"{"Function":{"params":[]}}"#, "$.Function"),
        (r#"{"Function":{"params":"Int","result":"Int"}}"#, "$.Function.params"),
        (r#"{"Function":{"params":[],"result":"Int","doc":null}}"#, "$.Function.doc"),
        (r#"{"Named":{"declaration":"1"}}"#, "$.Named"),
        (r#"{"Named":{"declaration":1,"args":[]}}"#, "$.Named.declaration"),
        (r#"{"Named":{"declaration":"1","args":[],"x":0}}"#, "$.Named.x"),
        (r#"{"Named":"1"}"#, "$.Named"),
        (r#"{"Param":{"owner":"x","index":true}}"#, "$.Param.index"),
        (r#"{"Param":{"owner":"x","index":1.5}}"#, "$.Param.index"),
        (r#"{"Param":{"owner":"x","index":-1}}"#, "$.Param.index"),
        (r#"{"Param":{"owner":"x","index":"0"}}"#, "$.Param.index"),
        (r#"{"Param":{"owner":0,"index":0}}"#, "$.Param.owner"),
        (r#"{"Param":{"owner":"x"}}"#, "$.Param"),
    ] {
        assert_eq!(refusal(term_from_json(&parse(bad))), ("shape", path.to_owned()), "{bad}");
    }
    // An unknown term inside a compound one is placed at itself.
    let nested = r#"{"Function":{"params":["Int",{"Named":{"declaration":"1","args":[{"Dict":["Int",{"Tuple":["x","Int"]}]}]}}],"result":"Int"}}"#;
    assert_eq!(
        refusal(term_from_json(&parse(nested))),
        ("unknown-term", "$.Function.params[1].Named.args[0].Dict[1].Tuple[0]".to_owned())
    );
    // ... and in a listing at its full path.
    let w = weather();
    expect(
        &edit(&w, r#""type":{"List":{"Param":{"index":0,"owner":"5"}}}"#, r#""type":{"List":"Float"}"#),
        "unknown-term",
        r#"$.declarations["5"].fields[0].type.List"#,
    );
    expect(&edit(&w, r#""err":"Never""#, r#""err":"never""#), "unknown-term", "$.tools[3].err");
    expect(
        &edit(&w, r#"{"positional":["Int"]}"#, r#"{"positional":["Int",{"Set":[]}]}"#),
        "unknown-term",
        r#"$.declarations["3"].constructors[1].payload.positional[1].Set"#,
    );
}

#[test]
fn hostile_nesting_is_refused_not_overflowed() {
    // From text, the JSON depth limit stops it first.
    let deep = "{\"List\":".repeat(200) + "\"Int\"" + &"}".repeat(200);
    assert_eq!(refusal(json::parse_str(&deep, &Limits::default())).0, "too-deep");
    // A term built in code is held to MAX_TERM_DEPTH.
    let mut value = Json::str("Int");
    for _ in 0..300 {
        value = Json::object([("Option", value)]);
    }
    assert_eq!(refusal(term_from_json(&value)).0, "too-deep");
    let mut term = Term::Prim(Prim::Int);
    for _ in 0..300 {
        term = Term::List(Box::new(term));
    }
    let mut l = accept(WEATHER);
    l.tools[2].ok = term;
    assert_eq!(refusal(validate_listing(&l)).0, "too-deep");
}

#[test]
fn mutated_listings_never_panic() {
    // Every one-character deletion and a few substitutions of the example:
    // each gives a listing or a refusal, never a panic.
    let w = weather();
    let chars: Vec<(usize, char)> = w.char_indices().collect();
    for &(i, c) in &chars {
        let mut deleted = w.clone();
        deleted.replace_range(i..i + c.len_utf8(), "");
        let _ = listing(&deleted);
        if i % 5 != 0 {
            continue;
        }
        for with in ["0", "\"", "[", "{}", "1.5"] {
            let mut replaced = w.clone();
            replaced.replace_range(i..i + c.len_utf8(), with);
            let _ = listing(&replaced);
        }
    }
}
