//! flow-crosslang: cross-language agreement (issue 8, item 2). Rust writes
//! random values of random types and random JSON texts
//! (`flow_testkit::agreement`); the Python and Node checkers in
//! `tests/crosslang/` decode and re-encode (or canonicalize) every one
//! through their bindings' public APIs, each process started once; Rust
//! compares what they wrote with what it expects, byte for byte.
//!
//! ```sh
//! flow-crosslang [--values N] [--texts N] [--seed S] [--dir DIR]
//!                [--python PYTHON] [--node NODE] [--repo DIR]
//! ```
//!
//! Defaults: 2,000 values, 2,000 texts, a seed from the clock (printed, so a
//! failure can be rerun), a temporary directory (kept on failure), `.venv`'s
//! python and `node` from PATH. Exit 1 names every disagreement.

use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::{SystemTime, UNIX_EPOCH};

use flow_testkit::agreement::{compare, write_json, write_values, Case};

struct Options {
    values: usize,
    texts: usize,
    seed: u64,
    dir: Option<PathBuf>,
    python: PathBuf,
    node: PathBuf,
    repo: PathBuf,
}

fn options() -> Options {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut o = Options {
        values: 2000,
        texts: 2000,
        seed: SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1),
        dir: None,
        python: repo.join(".venv/bin/python"),
        node: PathBuf::from("node"),
        repo,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{flag} takes a value"));
        match flag.as_str() {
            "--values" => o.values = value().parse().expect("--values N"),
            "--texts" => o.texts = value().parse().expect("--texts N"),
            "--seed" => o.seed = value().parse().expect("--seed S"),
            "--dir" => o.dir = Some(PathBuf::from(value())),
            "--python" => o.python = PathBuf::from(value()),
            "--node" => o.node = PathBuf::from(value()),
            "--repo" => o.repo = PathBuf::from(value()),
            other => panic!("unknown flag {other} (see the doc comment of testkit/src/bin/flow-crosslang.rs)"),
        }
    }
    o
}

fn main() -> ExitCode {
    let o = options();
    let dir = o.dir.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("flow-crosslang-{}", o.seed)));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    eprintln!("flow-crosslang: seed {} ({} values, {} JSON texts) in {}", o.seed, o.values, o.texts, dir.display());
    let values = write_values(&dir, o.seed, o.values).expect("values.jsonl written");
    let texts = write_json(&dir, o.seed, o.texts).expect("json.jsonl written");

    // Both checkers at once: the machine has two cores.
    let script = |name: &str| o.repo.join("tests/crosslang").join(name);
    let python = Command::new(&o.python).arg(script("agree.py")).arg(&dir).spawn();
    let node = Command::new(&o.node).arg(script("agree.js")).arg(&dir).spawn();
    let mut problems = Vec::new();
    for (lang, child) in [("python", python), ("node", node)] {
        match child.map(|mut c| c.wait()) {
            Ok(Ok(status)) if status.success() => {}
            Ok(Ok(status)) => problems.push(format!("{lang}: the checker exited with {status}")),
            Ok(Err(e)) | Err(e) => problems.push(format!("{lang}: the checker did not run: {e}")),
        }
    }

    let value_groups: Vec<Vec<&Case>> = values.iter().map(|g| g.iter().collect()).collect();
    let text_groups: Vec<Vec<&Case>> = texts.iter().map(|c| vec![c]).collect();
    let mut counts = Vec::new();
    for lang in ["python", "node"] {
        for (file, groups) in [("values", &value_groups), ("json", &text_groups)] {
            let (compared, mut found) = compare(lang, &dir.join(format!("{file}.{lang}.jsonl")), groups);
            counts.push(format!("{lang} {file}: {compared}"));
            problems.append(&mut found);
        }
    }
    let total_values: usize = values.iter().map(Vec::len).sum();
    eprintln!(
        "flow-crosslang: {total_values} values and {} JSON texts; answers compared: {}",
        texts.len(),
        counts.join(", ")
    );
    if problems.is_empty() {
        if o.dir.is_none() {
            let _ = std::fs::remove_dir_all(&dir);
        }
        println!("flow-crosslang: all agree (seed {})", o.seed);
        ExitCode::SUCCESS
    } else {
        for p in problems.iter().take(30) {
            eprintln!("{p}");
        }
        eprintln!(
            "flow-crosslang: {} disagreements (seed {}); inputs kept in {}",
            problems.len(),
            o.seed,
            dir.display()
        );
        ExitCode::FAILURE
    }
}
