//! Identities (`flow_core::types::identity`): unique, with and without versions.

use super::*;

#[test]
fn identities() {
    let w = weather();
    // The name is the NAME of the identity.
    expect(&edit(&w, r#""name":"Sky""#, r#""name":"Skies""#), "identity", r#"$.declarations["3"].name"#);
    // Malformed identities.
    for bad in [
        "github.com/acme/weather@1.2.0/weather.flow.",
        "github.com/acme/weather@1.2.0@3/weather.flow.Sky",
        "github.com/acme/weather@1.2.0.Sky",
        "Sky",
        "github.com/acme/weather@/weather.flow.Sky",
    ] {
        let at = r#""identity":"github.com/acme/weather@1.2.0/weather.flow.Sky""#;
        let text = edit(&w, at, &format!(r#""identity":"{bad}""#));
        let (rule, path) = refuse(&text);
        assert_eq!(rule, "identity", "{bad}");
        assert!(path.starts_with(r#"$.declarations["3"]."#), "{bad}: {path}");
    }
    expect(
        &edit(&w, "github.com/acme/weather@1.2.0/weather.flow.Sky", "github.com/acme@weather@1.2.0/weather.flow.Sky"),
        "identity",
        r#"$.declarations["3"].identity"#,
    );
    expect(
        &edit(&w, "github.com/acme/weather@1.2.0/weather.flow.echo", "github.com/acme/weather@1.2.0/weather/echo"),
        "identity",
        "$.tools[3].tool",
    );
    // Outside a repository: PATH.NAME; a NAME may hold '-'.
    accept(&edit(&w, "github.com/acme/weather@1.2.0/weather.flow.echo", "local/tools.flow.echo-it"));
    accept(&edit(
        &w,
        r#""identity":"github.com/acme/weather@1.2.0/weather.flow.Sky""#,
        r#""identity":"weather.flow.Sky""#,
    ));
}

#[test]
fn identities_are_unique_also_without_versions() {
    let w = weather();
    let sky = "github.com/acme/weather@1.2.0/weather.flow.Sky";
    // Template "8" (Units) takes Sky's identity: the later one is refused.
    let units = "github.com/acme/weather@1.2.0/weather.flow.Units";
    let renamed = edit(&w, units, sky).replace(r#""name":"Units""#, r#""name":"Sky""#);
    expect(&renamed, "identity", r#"$.declarations["8"].identity"#);
    let other_version = edit(&w, units, "github.com/acme/weather@9.9.9/weather.flow.Sky")
        .replace(r#""name":"Units""#, r#""name":"Sky""#);
    expect(&other_version, "identity", r#"$.declarations["8"].identity"#);
    // Tools too, and Tools come first.
    let echo = "github.com/acme/weather@1.2.0/weather.flow.echo";
    expect(&edit(&w, echo, "github.com/acme/weather@0.1/weather.flow.get_forecast"), "identity", "$.tools[3].tool");
    // A declaration sharing a Tool's identity.
    let clash = edit(&w, units, "github.com/acme/weather@1.2.0/weather.flow.echo")
        .replace(r#""name":"Units""#, r#""name":"echo""#);
    expect(&clash, "identity", r#"$.declarations["8"].identity"#);
    // Same NAME in different files is fine.
    accept(&edit(&w, units, "github.com/acme/weather@1.2.0/units.flow.Units"));
}
