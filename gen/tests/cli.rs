//! The flow-gen utility subcommands, run as a person would run them.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn weather() -> String {
    repo().join("tests/examples/weather.tools.json").display().to_string()
}

fn flow_gen(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_flow-gen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A refusal: exit status 1 and exactly one line on stderr.
fn refusal(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(1), "stdout: {}", String::from_utf8_lossy(&output.stdout));
    let stderr = String::from_utf8(output.stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn fingerprints_of_the_weather_listing_are_pinned() {
    assert_eq!(
        stdout(&flow_gen(&["fingerprint", &weather()], "")),
        "github.com/acme/weather@1.2.0/weather.flow.get_forecast sha256:b4a7dd12b61824766026c553b8a36477ddba6adfae61a46ea3e8aeca026df077\n\
         github.com/acme/weather@1.2.0/weather.flow.list_stations sha256:12298ed82fe3070ba2a67592e8b4df6e17e9d982093ba2024f791c5bdead04b1\n\
         github.com/acme/weather@1.2.0/weather.flow.station_history sha256:4686e3f7a71b3fb08def9c890b66e9cf4e68df310e4920184defb76d02144df4\n\
         github.com/acme/weather@1.2.0/weather.flow.echo sha256:f0c47b163440554ce0fde4a4817bdfe8b3caaa2407160dfab854468af3778ff7\n"
    );
    let one = flow_gen(&["fingerprint", &weather(), "--tool", "github.com/acme/weather@1.2.0/weather.flow.echo"], "");
    assert_eq!(
        stdout(&one),
        "github.com/acme/weather@1.2.0/weather.flow.echo sha256:f0c47b163440554ce0fde4a4817bdfe8b3caaa2407160dfab854468af3778ff7\n"
    );
}

#[test]
fn check_accepts_and_refuses_with_path_and_rule() {
    assert_eq!(stdout(&flow_gen(&["check", &weather()], "")), "ok\n");
    let text = std::fs::read_to_string(weather()).unwrap().replace("\"lexical_ordinal\": 7", "\"lexical_ordinal\": 0");
    let dir = std::env::temp_dir().join(format!("flow-gen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.tools.json");
    std::fs::write(&bad, text).unwrap();
    let stderr = refusal(&flow_gen(&["check", bad.to_str().unwrap()], ""));
    assert!(stderr.contains(r#"$.declarations["7"].lexical_ordinal"#) && stderr.contains("[shape]"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn signature_prints_both_forms() {
    let id = "github.com/acme/weather@1.2.0/weather.flow.echo";
    let expected = r#"{"err":false,"generic":["T"],"ok":{"$param":"T"},"params":[["value",{"$param":"T"}]]}"#;
    assert_eq!(stdout(&flow_gen(&["signature", &weather(), "--tool", id, "--stripped"], "")), format!("{expected}\n"));
    let id = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
    let describe = stdout(&flow_gen(&["signature", &weather(), "--tool", id], ""));
    assert!(describe.contains(r#""description":"A forecast for one city.""#), "{describe}");
    assert!(describe.contains("weather@1.2.0"));
    let stripped = stdout(&flow_gen(&["signature", &weather(), "--tool", id, "--stripped"], ""));
    assert!(!stripped.contains("description") && !stripped.contains("@1.2.0"), "{stripped}");
}

#[test]
fn canonical_reads_stdin() {
    assert_eq!(
        stdout(&flow_gen(&["canonical"], r#" {"b": 1.50, "a": ["\u00e9", 1e2]} "#)),
        "{\"a\":[\"é\",100],\"b\":1.5}\n"
    );
    let stderr = refusal(&flow_gen(&["canonical"], r#"{"a": 1, "a": 2}"#));
    assert!(stderr.contains("[duplicate-key]"), "{stderr}");
}

#[test]
fn decode_prints_canonical_text_or_the_refused_path() {
    let forecast = r#"{"city": "Zürich", "issued": "2026-11-30T09:15:00.500+01:00", "tags": ["b", "a"],
        "days": [{"date": "d", "high_c": 4.50, "low_c": -1, "sky": "Clear"},
                 {"date": "e", "high_c": 3, "low_c": -2, "sky": {"Cloudy": 80}}]}"#;
    let ty = r#"{"Named":{"declaration":"1","args":[]}}"#;
    assert_eq!(
        stdout(&flow_gen(&["decode", &weather(), "--type", ty], forecast)),
        "{\"city\":\"Zürich\",\"days\":[{\"date\":\"d\",\"high_c\":4.5,\"low_c\":-1,\"sky\":\"Clear\"},\
         {\"date\":\"e\",\"high_c\":3,\"low_c\":-2,\"sky\":{\"Cloudy\":80}}],\"issued\":\"2026-11-30T08:15:00.5Z\",\"tags\":[\"a\",\"b\"]}\n"
    );
    let bad = forecast.replace("\"high_c\": 3", "\"high_c\": \"3\"");
    let stderr = refusal(&flow_gen(&["decode", &weather(), "--type", ty], &bad));
    assert!(stderr.contains("$.days[1].high_c: expected a number, found a string [type]"), "{stderr}");
}

/// A Tool whose types cannot cross is refused by every language alike, in
/// the shared front, before any generator runs: the same one line, naming
/// the listing member, the rule and the fix, and nothing written.
#[test]
fn every_language_refuses_what_cannot_cross_alike() {
    let token = r#"{"k":{"name":"K","identity":"t.flow.K","lexical_ordinal":1,"generic":[],"opaque":true,"kind":"host","doc":null}}"#;
    let listing = |param: &str| {
        format!(
            r#"{{"data":"0.1","tools":[{{"tool":"t.flow.f","doc":null,"generic":[],"params":[{{"name":"p","type":{param}}}],"ok":"Unit","err":"Never"}}],"declarations":{token}}}"#
        )
    };
    let k = r#"{"Named":{"declaration":"k","args":[]}}"#;
    let cases = [
        (listing(&format!(r#"{{"Set":{k}}}"#)), "Set<K> has elements that hold a host token (K)"),
        (listing(&format!(r#"{{"Dict":[{k},"Int"]}}"#)), "Dict<K,Int> has keys that hold a host token (K)"),
        (
            r#"{"data":"0.1","tools":[{"tool":"t.flow.f","doc":null,"generic":[],"params":[{"name":"p","type":{"List":{"Function":{"params":[],"result":"Unit"}}}}],"ok":"Unit","err":"Never"}],"declarations":{}}"#.to_owned(),
            "fn()->Unit is a function",
        ),
    ];
    let scratch = std::env::temp_dir().join(format!("flow-gen-cannot-cross-{}", std::process::id()));
    for (listing, expected) in &cases {
        let mut lines = Vec::new();
        for lang in ["python", "typescript", "rust"] {
            let out = scratch.join(lang);
            let output = flow_gen(&["--lang", lang, "--out", out.to_str().unwrap(), "--no-manifest"], listing);
            let line = refusal(&output);
            assert!(
                line.contains("$.tools[0].params[0].type: t.flow.f: parameter p: ") && line.contains(expected),
                "{lang}: {line}"
            );
            assert!(line.trim_end().ends_with("[cannot-cross]"), "{lang}: {line}");
            assert!(!out.exists(), "{lang} wrote {}", out.display());
            lines.push(line);
        }
        assert!(lines.iter().all(|l| *l == lines[0]), "{lines:?}");
    }
}
