//! Reachability (`flow_core::types::reach`): disconnected declarations, a Tool's TypeSpec as its reachable closure.

use super::*;

#[test]
fn disconnected_declarations() {
    let w = weather();
    let extra = record("Extra", &[], &[("a", "\"Int\"")]).replace("r@1/f.flow.", "x@1/f.flow.");
    expect(
        &edit(&w, r#""declarations":{"#, &format!(r#""declarations":{{"9":{extra},"#)),
        "disconnected",
        r#"$.declarations["9"]"#,
    );
    // Reachable only from an unreachable declaration is still disconnected;
    // the first in key order is named.
    let a = record("A", &[], &[("b", &named("b", &[]))]);
    let b = record("B", &[], &[]);
    expect(&returning("\"Int\"", &[("a", a.clone()), ("b", b.clone())]), "disconnected", r#"$.declarations.a"#);
    // Reached through Function params/results, Task items, Named arguments.
    let through = [
        format!(r#"{{"Function":{{"params":[{}],"result":"Int"}}}}"#, named("b", &[])),
        format!(r#"{{"Function":{{"params":[],"result":{}}}}}"#, named("b", &[])),
        format!(r#"{{"Task":{}}}"#, named("b", &[])),
        named("p", &[&named("b", &[])]),
    ];
    let p = record("P", &["T"], &[("x", &param("p", "0"))]);
    for root in through {
        let mut declarations = vec![("b", b.clone())];
        if root.contains(r#""declaration":"p""#) {
            declarations.push(("p", p.clone()));
        }
        accept(&returning(&root, &declarations));
    }
    // Another Tool's declarations are not extras.
    let two = document(
        &[tool("t", &[], &[], &named("a", &[]), "\"Never\""), tool("u", &[], &[], &named("b", &[]), "\"Never\"")],
        &[("a", record("A", &[], &[])), ("b", b)],
    );
    accept(&two);
}

#[test]
fn type_spec_for_tool_is_the_reachable_closure() {
    let l = accept(WEATHER);
    let keys = |s: &TypeSpec| s.declarations.keys().cloned().collect::<Vec<_>>();
    let forecast = TypeSpec::for_tool(&l, "github.com/acme/weather@1.2.0/weather.flow.get_forecast").unwrap();
    assert_eq!(keys(&forecast), ["1", "2", "3", "4", "8"]);
    let stations = TypeSpec::for_tool(&l, "github.com/acme/weather@1.2.0/weather.flow.list_stations").unwrap();
    assert_eq!(keys(&stations), ["4", "5", "6", "7"]);
    let echo = TypeSpec::for_tool(&l, "github.com/acme/weather@1.2.0/weather.flow.echo").unwrap();
    assert!(echo.declarations.is_empty());
    assert_eq!(echo.generic, ["T"]);
    assert!(TypeSpec::for_tool(&l, "github.com/acme/weather@1.2.0/weather.flow.nope").is_none());
    for spec in [forecast, stations, echo] {
        validate_type_spec(&spec).unwrap();
        let json = type_spec_to_json(&spec);
        assert_eq!(type_spec_from_json(&json).unwrap(), spec);
        // Through text too, as generated code embeds it.
        assert_eq!(type_spec_from_json(&parse(&json.to_canonical())).unwrap(), spec);
    }
}
