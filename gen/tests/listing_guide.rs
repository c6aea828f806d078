//! docs/writing-a-listing.md shows what `flow-gen check` prints for each
//! common mistake. Each `<!-- flow-gen check: FROM => TO -->` marker names an
//! edit of the weather listing (in canonical text); the fenced block after it
//! must be exactly the command and what it prints, so the guide cannot drift
//! from the real messages (`FLOW_BLESS=1` rewrites the blocks instead); and
//! its JSON snippets must be the weather listing's own.

use std::path::{Path, PathBuf};
use std::process::Command;

const MARKER: &str = "<!-- flow-gen check: ";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What the block after a marker holds: the command, its stderr, its status.
fn block_for(dir: &Path, from: &str, to: &str) -> String {
    let weather = std::fs::read(repo().join("tests/examples/weather.tools.json")).unwrap();
    let canonical = flow_core::json::canonicalize(&weather, &flow_core::Limits::default()).unwrap();
    assert_eq!(canonical.matches(from).count(), 1, "the guide's edit target {from} must occur once in the listing");
    std::fs::write(dir.join("weather.tools.json"), canonical.replacen(from, to, 1)).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_flow-gen"))
        .args(["check", "weather.tools.json"])
        .current_dir(dir)
        .output()
        .unwrap();
    let status = output.status.code().unwrap();
    assert_ne!(status, 0, "the edit {from} => {to} is no mistake: flow-gen check accepts it");
    format!(
        "$ flow-gen check weather.tools.json\n{}{}(exit status {status})\n",
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap()
    )
}

#[test]
fn the_guide_shows_what_flow_gen_check_prints() {
    let path = repo().join("docs/writing-a-listing.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let dir = std::env::temp_dir().join(format!("flow-gen-guide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    let mut out = String::new();
    let mut lines = text.split_inclusive('\n').peekable();
    let (mut markers, mut stale) = (0, Vec::new());
    while let Some(line) = lines.next() {
        out.push_str(line);
        let Some(edit) = line.trim_end().strip_prefix(MARKER).and_then(|l| l.strip_suffix(" -->")) else { continue };
        let (from, to) = edit.split_once(" => ").unwrap_or_else(|| panic!("a marker is FROM => TO: {line}"));
        markers += 1;
        assert_eq!(lines.next().map(str::trim_end), Some("```text"), "a fenced text block follows the marker {line}");
        let mut shown = String::new();
        for line in lines.by_ref() {
            if line.trim_end() == "```" {
                break;
            }
            shown.push_str(line);
        }
        let wanted = block_for(&dir, from, to);
        if shown != wanted {
            stale.push(format!(
                "after {}\n  the guide shows:\n{shown}  flow-gen check prints:\n{wanted}",
                line.trim_end()
            ));
        }
        out.push_str("```text\n");
        out.push_str(&wanted);
        out.push_str("```\n");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(markers >= 10, "the guide lost its mistakes: {markers} markers");
    if std::env::var_os("FLOW_BLESS").is_some() {
        std::fs::write(&path, out).unwrap();
    } else {
        assert!(
            stale.is_empty(),
            "docs/writing-a-listing.md differs from flow-gen (FLOW_BLESS=1 rewrites it):\n{}",
            stale.join("\n")
        );
    }
}

/// Each JSON snippet of the guide is the listing's own text: a Tool
/// (`{"tool": ...}`) equals the listing's Tool of that identity, and
/// declarations (`"1": {...}, ...`) equal the listing's of those local ids.
#[test]
fn the_guide_snippets_are_the_weather_listing() {
    use flow_core::json::{parse_str, Json};
    let limits = flow_core::Limits::default();
    let listing =
        parse_str(&std::fs::read_to_string(repo().join("tests/examples/weather.tools.json")).unwrap(), &limits)
            .unwrap();
    let listing = listing.as_object().unwrap();
    let tools = listing.get("tools").and_then(Json::as_array).unwrap();
    let declarations = listing.get("declarations").and_then(Json::as_object).unwrap();

    let guide = std::fs::read_to_string(repo().join("docs/writing-a-listing.md")).unwrap();
    let (mut seen_tools, mut seen_declarations) = (Vec::new(), Vec::new());
    for snippet in guide.split("```json\n").skip(1).map(|rest| rest.split("```").next().unwrap()) {
        let text = snippet.trim();
        if text.starts_with("{\"tool\"") {
            let tool = parse_str(text, &limits).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let id = tool.as_object().and_then(|o| o.get("tool")).and_then(Json::as_str).unwrap().to_owned();
            let listed =
                tools.iter().find(|t| t.as_object().and_then(|o| o.get("tool")).and_then(Json::as_str) == Some(&id));
            assert_eq!(Some(&tool), listed, "the guide's {id} is not the listing's");
            seen_tools.push(id);
        } else if text.starts_with('"') {
            let entries = parse_str(&format!("{{{text}}}"), &limits).unwrap_or_else(|e| panic!("{e}\n{text}"));
            for (id, template) in entries.as_object().unwrap().iter() {
                assert_eq!(Some(template), declarations.get(id), "the guide's declaration {id} is not the listing's");
                seen_declarations.push(id.to_owned());
            }
        }
    }
    seen_declarations.sort();
    assert_eq!(seen_tools.len(), tools.len(), "the guide shows every Tool: {seen_tools:?}");
    assert_eq!(seen_declarations, declarations.keys().collect::<Vec<_>>(), "the guide shows every declaration");
}
