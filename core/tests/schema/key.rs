//! `$defs` keys (`flow_core::schema::key`): instantiated generics written as type text, keys escaped as JSON pointers then percent-encoded.

use super::*;

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
