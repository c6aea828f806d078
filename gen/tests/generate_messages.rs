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

/// The command flow.toml binds, run from the manifest's folder as the host
/// runs it: it answers `describe`.
fn describes(dir: &Path, command: &str) -> bool {
    let words: Vec<&str> = command.split(' ').collect();
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python");
    let program = if words[0] == "python3" && python.exists() { python.to_str().unwrap() } else { words[0] };
    let mut child = Command::new(program)
        .args(&words[1..])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"describe\",\"params\":{}}\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).contains("\"fingerprint\"")
}

#[test]
fn a_python_package_is_bound_only_by_a_module_path_that_runs_from_the_manifests_folder() {
    let dir = scratch("module-path");
    let listing = listing();
    // Outside the manifest's folder: refused with the fix, nothing written.
    let elsewhere = scratch("module-path-elsewhere-1541");
    let out = elsewhere.join("gen");
    let refused = flow_gen(&dir, &["--lang", "python", listing.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    let said = stderr(&refused);
    assert!(said.contains(": outside flow.toml's folder ("), "{said}");
    assert!(said.contains("--no-manifest"), "{said}");
    assert!(!out.exists() && !dir.join("flow.toml").exists());
    // A folder that is no module name: refused, naming a spelling that is.
    let hyphen = flow_gen(&dir, &["--lang", "python", listing.to_str().unwrap(), "--out", "tools-1541/gen"]);
    assert_eq!(hyphen.status.code(), Some(1));
    assert!(stderr(&hyphen).contains("\"tools-1541\" is not one"), "{}", stderr(&hyphen));
    assert!(stderr(&hyphen).contains("like tools_1541"), "{}", stderr(&hyphen));
    assert!(!dir.join("tools-1541").exists());
    // --no-manifest binds nothing, so any folder will do.
    let unbound = flow_gen(
        &dir,
        &["--lang", "python", listing.to_str().unwrap(), "--out", out.to_str().unwrap(), "--no-manifest"],
    );
    assert!(unbound.status.success(), "{}", stderr(&unbound));
    // Inside, nested and spelled absolutely: the dotted path from the folder, which runs there.
    let nested = dir.join("pkgs/./weather_tools");
    let bound = flow_gen(&dir, &["--lang", "python", listing.to_str().unwrap(), "--out", nested.to_str().unwrap()]);
    assert!(bound.status.success(), "{}", stderr(&bound));
    let manifest = std::fs::read_to_string(dir.join("flow.toml")).unwrap();
    assert!(manifest.contains("command = \"python3 -m pkgs.weather_tools\""), "{manifest}");
    assert!(describes(&dir, "python3 -m pkgs.weather_tools"), "the bound command does not serve");
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_dir_all(elsewhere).unwrap();
}
