//! Signatures and fingerprints: the worked example of `decisions.md` section 8,
//! and what moves a fingerprint and what does not (`host-boundary.md`,
//! "Identity and fingerprints").

mod support;

use flow_core::fingerprint::{describe_entry, fingerprint, signature};
use flow_core::schema::SchemaForm;
use flow_core::types::{Body, Listing, Param, Payload, Prim, Term, ToolDecl};
use flow_core::Rule;
use support::weather_model::{term_text, weather};

const GET_FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
const ECHO: &str = "github.com/acme/weather@1.2.0/weather.flow.echo";
const LIST_STATIONS: &str = "github.com/acme/weather@1.2.0/weather.flow.list_stations";

/// `decisions.md` section 8, byte for byte.
const GET_FORECAST_CANONICAL: &str = r##"{"err":{"$defs":{"github.com/acme/weather/weather.flow.WeatherError":{"oneOf":[{"additionalProperties":false,"properties":{"UnknownCity":{"properties":{"query":{"type":"string"},"suggestions":{"items":{"type":"string"},"type":"array"}},"required":["query","suggestions"],"type":"object"}},"required":["UnknownCity"],"type":"object"},{"additionalProperties":false,"properties":{"Unavailable":{"format":"duration","type":"string"}},"required":["Unavailable"],"type":"object"},{"const":"RateLimited"}]}},"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.WeatherError"},"generic":[],"ok":{"$defs":{"github.com/acme/weather/weather.flow.Day":{"properties":{"date":{"type":"string"},"high_c":{"type":"number"},"low_c":{"type":"number"},"rain_mm":{"type":"number"},"sky":{"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.Sky"}},"required":["date","high_c","low_c","sky"],"type":"object"},"github.com/acme/weather/weather.flow.Forecast":{"properties":{"city":{"type":"string"},"days":{"items":{"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.Day"},"type":"array"},"issued":{"format":"date-time","type":"string"},"source":{"type":"string"},"tags":{"items":{"type":"string"},"type":"array","uniqueItems":true}},"required":["city","days","issued","tags"],"type":"object"},"github.com/acme/weather/weather.flow.Sky":{"oneOf":[{"const":"Clear"},{"additionalProperties":false,"properties":{"Cloudy":{"type":"integer"}},"required":["Cloudy"],"type":"object"},{"additionalProperties":false,"properties":{"Storm":{"properties":{"warning":{"type":"string"},"wind_kph":{"type":"number"}},"required":["wind_kph"],"type":"object"}},"required":["Storm"],"type":"object"}]}},"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.Forecast"},"params":[["city",{"type":"string"}],["days",{"type":"integer"}],["units",{"$defs":{"github.com/acme/weather/weather.flow.Units":{"oneOf":[{"const":"Metric"},{"const":"Imperial"}]}},"oneOf":[{"const":"None"},{"additionalProperties":false,"properties":{"Some":{"$ref":"#/$defs/github.com~1acme~1weather~1weather.flow.Units"}},"required":["Some"],"type":"object"}]}]]}"##;
const GET_FORECAST_FINGERPRINT: &str = "sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077";
const ECHO_CANONICAL: &str = r#"{"err":false,"generic":["T"],"ok":{"$param":"T"},"params":[["value",{"$param":"T"}]]}"#;
const ECHO_FINGERPRINT: &str = "sha256:f0c47b163440554ce0fde4a4817bdfe8b3caaa2407160dfab854468af3778ff7";

fn tool<'a>(listing: &'a Listing, identity: &str) -> &'a ToolDecl {
    listing.tool(identity).expect("tool in listing")
}

fn print(listing: &Listing, identity: &str) -> String {
    fingerprint(tool(listing, identity), &listing.declarations).unwrap()
}

#[test]
fn get_forecast_canonical_signature_is_byte_exact() {
    let listing = weather();
    let sig = signature(tool(&listing, GET_FORECAST), &listing.declarations, SchemaForm::Canonical).unwrap();
    assert_eq!(sig.to_canonical(), GET_FORECAST_CANONICAL);
    assert_eq!(print(&listing, GET_FORECAST), GET_FORECAST_FINGERPRINT);
}

#[test]
fn echo_canonical_signature_is_byte_exact() {
    let listing = weather();
    let sig = signature(tool(&listing, ECHO), &listing.declarations, SchemaForm::Canonical).unwrap();
    assert_eq!(sig.to_canonical(), ECHO_CANONICAL);
    assert_eq!(print(&listing, ECHO), ECHO_FINGERPRINT);
}

#[test]
fn every_weather_tool_has_a_fingerprint() {
    let listing = weather();
    for t in &listing.tools {
        let entry = describe_entry(t, &listing.declarations).unwrap();
        let entry = entry.as_object().unwrap();
        assert_eq!(entry.get("tool").unwrap().as_str(), Some(t.tool.as_str()));
        let printed = entry.get("fingerprint").unwrap().as_str().unwrap();
        assert!(printed.starts_with("sha256:") && printed.len() == 7 + 64, "{printed}");
        assert!(printed[7..].bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    }
}

/// The describe form keeps doc comments and versions; stripping them gives
/// the canonical form back.
#[test]
fn describe_entry_keeps_descriptions_and_versions() {
    let listing = weather();
    let entry = describe_entry(tool(&listing, GET_FORECAST), &listing.declarations).unwrap();
    let entry = entry.as_object().unwrap();
    assert_eq!(entry.get("fingerprint").unwrap().as_str(), Some(GET_FORECAST_FINGERPRINT));
    let text = entry.get("signature").unwrap().to_canonical();
    assert!(text.contains(
        r#""github.com/acme/weather@1.2.0/weather.flow.Forecast":{"description":"A forecast for one city.","#
    ));
    assert!(text.contains(r##""days":{"description":"One entry per day, today first.","items":{"$ref":"#/$defs/github.com~1acme~1weather@1.2.0~1weather.flow.Day"},"type":"array"}"##));
    assert!(text.contains(r#""source":{"description":"Which model produced it, when known.","type":"string"}"#));
    assert!(text
        .contains(r#"{"additionalProperties":false,"description":"Cloud cover in percent.","properties":{"Cloudy""#));
    assert!(text.contains(r#""warning":{"description":"Official warning text.","type":"string"}"#));
    assert!(text.contains(r#""github.com/acme/weather@1.2.0/weather.flow.Sky":{"description":"What the sky does.","#));
}

/// The worked signature of list_stations: an instantiated generic key.
#[test]
fn list_stations_names_its_instantiation() {
    let listing = weather();
    let sig = signature(tool(&listing, LIST_STATIONS), &listing.declarations, SchemaForm::Canonical).unwrap();
    let ok = sig.as_object().unwrap().get("ok").unwrap().to_canonical();
    let page = "github.com/acme/weather/weather.flow.Page<github.com/acme/weather/weather.flow.Station>";
    // The key as a JSON Pointer, then percent-encoded as a URI fragment.
    let reference =
        "#/$defs/github.com~1acme~1weather~1weather.flow.Page%3Cgithub.com~1acme~1weather~1weather.flow.Station%3E";
    assert!(ok.contains(&format!(r#""$ref":"{reference}""#)), "{ok}");
    assert!(ok.contains(&format!(r#""{page}":{{"properties":{{"items":{{"items":{{"$ref""#)), "{ok}");
}

// What moves a fingerprint, and what does not.

/// Whether `change` moves get_forecast's fingerprint. The Tool is found by
/// position, since a change may rename it.
fn moved(change: impl FnOnce(&mut Listing)) -> bool {
    let before = weather();
    let mut after = weather();
    change(&mut after);
    assert_eq!(before.tools[0].tool, GET_FORECAST);
    let print = |l: &Listing| fingerprint(&l.tools[0], &l.declarations).unwrap();
    print(&before) != print(&after)
}

fn tool_mut<'a>(listing: &'a mut Listing, identity: &str) -> &'a mut ToolDecl {
    listing.tools.iter_mut().find(|t| t.tool == identity).unwrap()
}

#[test]
fn renaming_a_parameter_moves_it() {
    assert!(moved(|l| tool_mut(l, GET_FORECAST).params[0].name = "town".into()));
}

#[test]
fn retyping_a_parameter_moves_it() {
    assert!(moved(|l| tool_mut(l, GET_FORECAST).params[1].ty = Term::Prim(Prim::Decimal)));
}

#[test]
fn reordering_parameters_moves_it() {
    assert!(moved(|l| tool_mut(l, GET_FORECAST).params.swap(0, 1)));
}

#[test]
fn adding_or_removing_a_parameter_moves_it() {
    assert!(moved(|l| {
        tool_mut(l, GET_FORECAST).params.push(Param { name: "extra".into(), ty: Term::Prim(Prim::Bool) })
    }));
    assert!(moved(|l| {
        tool_mut(l, GET_FORECAST).params.pop();
    }));
}

#[test]
fn changing_ok_or_err_moves_it() {
    assert!(moved(
        |l| tool_mut(l, GET_FORECAST).ok = term_text(r#"{"List": {"Named": {"declaration": "1", "args": []}}}"#)
    ));
    assert!(moved(|l| tool_mut(l, GET_FORECAST).err = Term::Prim(Prim::Never)));
}

#[test]
fn a_reachable_field_change_moves_it() {
    // Day is reached through Forecast.days.
    assert!(moved(|l| match &mut l.declarations.get_mut("2").unwrap().body {
        Body::Record { fields } => fields[1].ty = Term::Prim(Prim::Int),
        _ => unreachable!(),
    }));
    // Renaming a field of a named payload of Sky.
    assert!(moved(|l| match &mut l.declarations.get_mut("3").unwrap().body {
        Body::Enum { constructors } => match constructors[2].payload.as_mut().unwrap() {
            Payload::Named(fields) => fields[0].name = "wind_mph".into(),
            _ => unreachable!(),
        },
        _ => unreachable!(),
    }));
    // Making a field optional.
    assert!(moved(|l| match &mut l.declarations.get_mut("1").unwrap().body {
        Body::Record { fields } => fields[0].ty = Term::Option(Box::new(Term::Prim(Prim::Text))),
        _ => unreachable!(),
    }));
}

#[test]
fn an_unreached_declaration_change_does_not_move_it() {
    // Station is reached only from list_stations.
    assert!(!moved(|l| match &mut l.declarations.get_mut("6").unwrap().body {
        Body::Record { fields } => fields[0].ty = Term::Prim(Prim::Text),
        _ => unreachable!(),
    }));
}

#[test]
fn doc_changes_do_not_move_it() {
    assert!(!moved(|l| {
        tool_mut(l, GET_FORECAST).doc = Some("Another doc.".into());
        let forecast = l.declarations.get_mut("1").unwrap();
        forecast.doc = None;
        if let Body::Record { fields } = &mut forecast.body {
            fields[0].doc = Some("The city.".into());
        }
        if let Body::Enum { constructors } = &mut l.declarations.get_mut("3").unwrap().body {
            constructors[1].doc = None;
        }
    }));
}

#[test]
fn a_version_change_does_not_move_it() {
    let bump = |identity: &mut String| *identity = identity.replace("@1.2.0/", "@1.3.0/");
    assert!(!moved(|l| {
        for t in &mut l.tools {
            bump(&mut t.tool);
        }
        for template in l.declarations.values_mut() {
            bump(&mut template.identity);
        }
    }));
    // The describe form, by contrast, names the new version.
    let mut listing = weather();
    for template in listing.declarations.values_mut() {
        bump(&mut template.identity);
    }
    let describe = signature(tool(&listing, GET_FORECAST), &listing.declarations, SchemaForm::Describe).unwrap();
    assert!(describe.to_canonical().contains("weather@1.3.0/weather.flow.Forecast"));
}

#[test]
fn renaming_a_tool_type_parameter_moves_it() {
    let before = weather();
    let mut after = weather();
    tool_mut(&mut after, ECHO).generic[0] = "U".into();
    assert_ne!(print(&before, ECHO), print(&after, ECHO));
}

#[test]
fn refusals_name_the_signature_member() {
    let mut listing = weather();
    tool_mut(&mut listing, GET_FORECAST).params[2].ty =
        term_text(r#"{"Function": {"params": ["Int"], "result": "Text"}}"#);
    let error = fingerprint(tool(&listing, GET_FORECAST), &listing.declarations).unwrap_err();
    assert_eq!(error.rule, Rule::CannotCross);
    assert_eq!(error.path.to_string(), "$.params[2]");
    assert!(error.message.contains("fn(Int)->Text"), "{}", error.message);

    tool_mut(&mut listing, GET_FORECAST).params.pop();
    tool_mut(&mut listing, GET_FORECAST).err = term_text(r#"{"Task": "Int"}"#);
    let error = describe_entry(tool(&listing, GET_FORECAST), &listing.declarations).unwrap_err();
    assert_eq!((error.rule, error.path.to_string()), (Rule::CannotCross, "$.err".to_owned()));
}
