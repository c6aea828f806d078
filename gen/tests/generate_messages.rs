//! What `flow-gen --lang` says and leaves behind in a Tool repository: "up to
//! date" when nothing needed writing, a TypeScript package's .gitignore, and
//! a flow.toml table that runs another command kept unless `--rebind`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn listing() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/examples/weather.tools.json")
}

/// An empty Tool repository.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("flow-gen-messages-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn flow_gen(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_flow-gen")).args(args).current_dir(dir).output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

#[test]
fn a_second_run_is_up_to_date_and_says_so() {
    let dir = scratch("again");
    let listing = listing();
    let args = ["--lang", "python", listing.to_str().unwrap(), "--out", "weather_tools"];
    let first = flow_gen(&dir, &args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stderr(&first).starts_with("flow-gen: wrote 10 files under weather_tools\n"), "{}", stderr(&first));
    let again = flow_gen(&dir, &args);
    assert!(again.status.success());
    assert_eq!(stderr(&again), "flow-gen: up to date: weather_tools (10 files)\n");
    // One generated file edited: only it is written again.
    std::fs::write(dir.join("weather_tools/tools.py"), "edited\n").unwrap();
    let one = flow_gen(&dir, &args);
    assert_eq!(stderr(&one), "flow-gen: wrote 1 of 10 files under weather_tools (the others were up to date)\n");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_typescript_package_ignores_its_build_output() {
    let dir = scratch("gitignore");
    let listing = listing();
    let made =
        flow_gen(&dir, &["--lang", "typescript", listing.to_str().unwrap(), "--out", "weather-tools", "--no-manifest"]);
    assert!(made.status.success(), "{}", stderr(&made));
    let ignore = std::fs::read_to_string(dir.join("weather-tools/.gitignore")).unwrap();
    let lines: Vec<&str> = ignore.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines, ["dist/", "node_modules/"]);
    // A scaffold: the author's edits are kept.
    std::fs::write(dir.join("weather-tools/.gitignore"), "mine\n").unwrap();
    flow_gen(&dir, &["--lang", "typescript", listing.to_str().unwrap(), "--out", "weather-tools", "--no-manifest"]);
    assert_eq!(std::fs::read_to_string(dir.join("weather-tools/.gitignore")).unwrap(), "mine\n");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn another_language_in_the_same_repository_needs_rebind() {
    let dir = scratch("rebind");
    let listing = listing();
    let python = flow_gen(&dir, &["--lang", "python", listing.to_str().unwrap()]);
    assert!(python.status.success(), "{}", stderr(&python));
    let bound = std::fs::read_to_string(dir.join("flow.toml")).unwrap();
    assert!(bound.contains("command = \"python3 -m weather_tools\""), "{bound}");

    let refused = flow_gen(&dir, &["--lang", "typescript", listing.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        stderr(&refused),
        "flow-gen: flow.toml: [tools.\"weather.flow\"] runs `python3 -m weather_tools`, not `node weather-tools/dist/main.js`: \
         pass --rebind to bind this package instead, or --no-manifest to leave flow.toml alone (nothing was written)\n"
    );
    assert!(!dir.join("weather-tools").exists(), "a refused run writes nothing");
    assert_eq!(std::fs::read_to_string(dir.join("flow.toml")).unwrap(), bound);

    let rebound = flow_gen(&dir, &["--lang", "typescript", listing.to_str().unwrap(), "--rebind"]);
    assert!(rebound.status.success(), "{}", stderr(&rebound));
    let text = std::fs::read_to_string(dir.join("flow.toml")).unwrap();
    assert!(text.contains("command = \"node weather-tools/dist/main.js\"") && !text.contains("python3"), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}
