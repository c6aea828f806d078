//! docs/writing-a-listing.md shows what `flow-gen check` prints for each
//! common mistake. Each `<!-- flow-gen check: FROM => TO -->` marker names an
//! edit of the weather listing (in canonical text); the fenced block after it
//! must be exactly the command and what it prints, so the guide cannot drift
//! from the real messages. `FLOW_BLESS=1` rewrites the blocks instead.

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
    let output =
        Command::new(env!("CARGO_BIN_EXE_flow-gen")).args(["check", "weather.tools.json"]).current_dir(dir).output().unwrap();
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
            stale.push(format!("after {}\n  the guide shows:\n{shown}  flow-gen check prints:\n{wanted}", line.trim_end()));
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
        assert!(stale.is_empty(), "docs/writing-a-listing.md differs from flow-gen (FLOW_BLESS=1 rewrites it):\n{}", stale.join("\n"));
    }
}
