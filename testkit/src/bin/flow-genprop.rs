//! flow-genprop: the generators' property test. Random valid listings with
//! hostile names (`flow_testkit::random_listing`) are generated in Python,
//! TypeScript and Rust, and every package is checked by its language's
//! checker: mypy --strict and ruff, tsc --strict, cargo clippy -D warnings.
//! A listing holding a type that cannot cross must be refused by all three
//! generators alike.
//!
//! ```sh
//! flow-genprop [--seed S] [--count N] [--dir DIR] [--langs python,typescript,rust]
//!              [--python PYTHON] [--node NODE] [--repo DIR] [--keep]
//! ```
//!
//! The checks are batched so a run is fast: all Python packages in one mypy
//! run and one ruff run, all TypeScript packages in one tsc project, all Rust
//! crates as members of one throwaway workspace whose target dir
//! (`target/genprop` under the repository) is kept between runs, so
//! the runtime is built once. Defaults: seed from the clock (printed), 20
//! listings, a temporary directory (kept on failure or with `--keep`).
//! Exit 1 names every failing listing by its seed and writes each one to
//! `DIR/failures/SEED.tools.json`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use flow_core::types::parse::listing_from_text;
use flow_core::Limits;
use flow_gen::generate::{self, GenInput, Language};
use flow_testkit::random_listing::random_listing;

struct Options {
    seed: u64,
    count: u64,
    dir: Option<PathBuf>,
    langs: Vec<String>,
    python: PathBuf,
    node: PathBuf,
    repo: PathBuf,
    keep: bool,
}

fn options() -> Options {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut o = Options {
        seed: SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64 % 1_000_000_000).unwrap_or(1),
        count: 20,
        dir: None,
        langs: vec!["python".into(), "typescript".into(), "rust".into()],
        python: repo.join(".venv/bin/python"),
        node: PathBuf::from("node"),
        repo,
        keep: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{flag} takes a value"));
        match flag.as_str() {
            "--seed" => o.seed = value().parse().expect("--seed S"),
            "--count" => o.count = value().parse().expect("--count N"),
            "--dir" => o.dir = Some(PathBuf::from(value())),
            "--langs" => o.langs = value().split(',').map(str::to_owned).collect(),
            "--python" => o.python = PathBuf::from(value()),
            "--node" => o.node = PathBuf::from(value()),
            "--repo" => o.repo = PathBuf::from(value()),
            "--keep" => o.keep = true,
            other => panic!("unknown flag {other} (see the doc comment of testkit/src/bin/flow-genprop.rs)"),
        }
    }
    o.repo = o.repo.canonicalize().expect("the repository exists");
    o
}

/// What went wrong with one listing, by seed.
#[derive(Default)]
struct Failures {
    by_seed: BTreeMap<u64, Vec<String>>,
}

impl Failures {
    fn add(&mut self, seed: u64, what: String) {
        self.by_seed.entry(seed).or_default().push(what);
    }
}

fn language(name: &str, runtime: &Path) -> Box<dyn Language> {
    match name {
        "python" => Box::new(generate::python::Python),
        "typescript" => Box::new(generate::typescript::TypeScript),
        "rust" => Box::new(generate::rust::Rust { runtime_path: Some(runtime.display().to_string()) }),
        other => panic!("unknown language {other}: python, typescript or rust"),
    }
}

/// The package folder of listing `seed` in `lang`.
fn package_dir(dir: &Path, lang: &str, seed: u64) -> PathBuf {
    match lang {
        "python" => dir.join("python").join(format!("p{seed}_tools")),
        _ => dir.join(lang).join(format!("p{seed}")),
    }
}

/// The seed a checker's message is about: the first `p<SEED>` folder it names.
fn seed_in(line: &str) -> Option<u64> {
    let mut rest = line;
    while let Some(at) = rest.find('p') {
        let digits: String = rest[at + 1..].chars().take_while(char::is_ascii_digit).collect();
        let after = rest[at + 1 + digits.len()..].chars().next();
        let before_ok = at == 0 || matches!(rest[..at].chars().next_back(), Some('/' | ' ' | '"' | '\''));
        if !digits.is_empty() && before_ok && matches!(after, Some('/' | '_' | '-' | '\\')) {
            return digits.parse().ok();
        }
        rest = &rest[at + 1..];
    }
    None
}

/// Runs a checker; its output lines that name a listing are that listing's
/// failures; a failure naming none fails every listing checked.
fn check(name: &str, command: &mut Command, seeds: &[u64], failures: &mut Failures) {
    let started = Instant::now();
    let output = command.output().unwrap_or_else(|e| panic!("{name} could not be started: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    eprintln!(
        "flow-genprop: {name} over {} packages: {} ({:.1} s)",
        seeds.len(),
        output.status,
        started.elapsed().as_secs_f64()
    );
    if output.status.success() {
        return;
    }
    let mut named = false;
    let mut current: Option<u64> = None;
    for line in text.lines() {
        if let Some(seed) = seed_in(line) {
            current = Some(seed);
        }
        // mypy's and tsc's lines say error; clippy's short format says error
        // or warning; ruff's concise lines are `FILE.py:LINE:COL: CODE ...`.
        let is_error = line.contains("error") || line.contains("warning") || line.contains(".py:");
        if let (Some(seed), true) = (current, is_error) {
            failures.add(seed, format!("{name}: {line}"));
            named = true;
        }
    }
    if !named {
        let tail: Vec<&str> = text.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        for seed in seeds {
            failures.add(*seed, format!("{name} failed naming no listing:\n{}", tail.join("\n")));
        }
    }
}

fn main() -> ExitCode {
    let o = options();
    let dir = o.dir.clone().unwrap_or_else(|| std::env::temp_dir().join(format!("flow-genprop-{}", o.seed)));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the run's folder");
    eprintln!("flow-genprop: seed {} count {} in {}", o.seed, o.count, dir.display());
    let runtime = o.repo.join("runtime");
    let languages: Vec<(String, Box<dyn Language>)> =
        o.langs.iter().map(|l| (l.clone(), language(l, &runtime))).collect();
    let mut failures = Failures::default();
    let mut generated: BTreeMap<String, Vec<u64>> = BTreeMap::new();
    let mut listings: BTreeMap<u64, String> = BTreeMap::new();
    let (mut refused, mut crossing) = (0, 0);
    let started = Instant::now();
    for seed in o.seed..o.seed + o.count {
        let random = random_listing(seed);
        let text = generate::pretty::pretty_json(&flow_core::types::listing_to_json(&random.listing)) + "\n";
        if o.keep {
            let kept = dir.join("listings");
            std::fs::create_dir_all(&kept).expect("the listings folder");
            std::fs::write(kept.join(format!("{seed}.tools.json")), &text).expect("writing a listing");
        }
        listings.insert(seed, text.clone());
        // As a user runs it: from the listing's text, validated.
        let listing = match listing_from_text(text.as_bytes(), &Limits::default()) {
            Ok(listing) => listing,
            Err(e) => {
                failures.add(seed, format!("the listing is invalid (a fault of random_listing): {e}"));
                continue;
            }
        };
        crossing += usize::from(random.cannot_cross);
        let input = GenInput::prepare(&listing);
        for (lang, language) in &languages {
            let out = package_dir(&dir, lang, seed);
            let output = input.as_ref().map_err(Clone::clone).and_then(|input| language.generate(input, &out));
            match (output, random.cannot_cross) {
                (Ok(output), false) => {
                    generate::write(&out, &output).expect("writing a package");
                    generated.entry(lang.clone()).or_default().push(seed);
                }
                (Err(e), false) => failures.add(seed, format!("{lang}: generation refused a valid listing: {e}")),
                (Ok(_), true) => {
                    failures.add(seed, format!("{lang}: generated a package for a type that cannot cross"))
                }
                (Err(e), true) => {
                    refused += 1;
                    if o.keep {
                        eprintln!("flow-genprop: listing {seed}: {lang} refused: {e}");
                    }
                    if !e.contains("cannot cross") {
                        failures.add(seed, format!("{lang}: refused, but without saying the type cannot cross: {e}"));
                    }
                }
            }
        }
    }
    eprintln!(
        "flow-genprop: generated in {:.1} s; {crossing} listings hold a type that cannot cross ({refused} refusals)",
        started.elapsed().as_secs_f64()
    );
    for (lang, seeds) in &generated {
        match lang.as_str() {
            "python" => check_python(&o, &dir, seeds, &mut failures),
            "typescript" => check_typescript(&o, &dir, seeds, &mut failures),
            "rust" => check_rust(&o, &dir, seeds, &mut failures),
            _ => {}
        }
    }
    let checked = generated.values().map(Vec::len).sum::<usize>();
    if failures.by_seed.is_empty() {
        eprintln!(
            "flow-genprop: {} listings, {checked} packages, all clean (seed {}, count {})",
            o.count, o.seed, o.count
        );
        if !o.keep {
            let _ = std::fs::remove_dir_all(&dir);
        }
        return ExitCode::SUCCESS;
    }
    let failed = dir.join("failures");
    std::fs::create_dir_all(&failed).expect("the failures folder");
    for (seed, lines) in &failures.by_seed {
        std::fs::write(failed.join(format!("{seed}.tools.json")), &listings[seed]).expect("writing a failing listing");
        eprintln!("flow-genprop: listing {seed} ({}):", failed.join(format!("{seed}.tools.json")).display());
        for line in lines.iter().take(12) {
            eprintln!("    {line}");
        }
    }
    eprintln!(
        "flow-genprop: {} of {} listings failed (seed {}, count {})",
        failures.by_seed.len(),
        o.count,
        o.seed,
        o.count
    );
    ExitCode::FAILURE
}

fn check_python(o: &Options, dir: &Path, seeds: &[u64], failures: &mut Failures) {
    let root = dir.join("python");
    let packages: Vec<String> = seeds.iter().map(|s| format!("p{s}_tools")).collect();
    let mut mypy = Command::new(&o.python);
    mypy.args(["-m", "mypy", "--strict", "--no-incremental", "--cache-dir", "/dev/null"]).current_dir(&root);
    for p in &packages {
        mypy.args(["-p", p]);
    }
    check("mypy --strict", &mut mypy, seeds, failures);
    let mut ruff = Command::new(&o.python);
    ruff.args(["-m", "ruff", "check", "--no-cache", "--output-format", "concise", "--config"])
        .arg(o.repo.join("ruff.toml"))
        .arg(".")
        .current_dir(&root);
    check("ruff", &mut ruff, seeds, failures);
}

fn check_typescript(o: &Options, dir: &Path, seeds: &[u64], failures: &mut Failures) {
    let root = dir.join("typescript");
    let link = root.join("node_modules");
    if !link.exists() {
        std::os::unix::fs::symlink(o.repo.join("node_modules"), &link).expect("linking node_modules");
    }
    // One project over every package, with the generated tsconfig's options.
    let tsconfig = r#"{
  "compilerOptions": {
    "target": "es2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "resolveJsonModule": true,
    "strict": true,
    "noEmit": true,
    "types": ["node"],
    "skipLibCheck": false
  },
  "include": ["p*/src"]
}
"#;
    std::fs::write(root.join("tsconfig.json"), tsconfig).expect("writing tsconfig.json");
    // Each package is an ES module package, as its package.json says.
    let tsc = o.repo.join("node_modules/typescript/bin/tsc");
    let mut command = Command::new(&o.node);
    command.arg(tsc).args(["-p", "tsconfig.json", "--pretty", "false"]).current_dir(&root);
    check("tsc --strict", &mut command, seeds, failures);
}

fn check_rust(o: &Options, dir: &Path, seeds: &[u64], failures: &mut Failures) {
    let root = dir.join("rust");
    let members: Vec<String> = seeds.iter().map(|s| format!("\"p{s}\"")).collect();
    let manifest = format!(
        "# flow-genprop's throwaway workspace: one generated crate per listing.\n[workspace]\nresolver = \"2\"\nmembers = [{}]\n",
        members.join(", ")
    );
    std::fs::write(root.join("Cargo.toml"), manifest).expect("writing the workspace");
    // The repository's lockfile: the same dependency versions, no resolution.
    std::fs::copy(o.repo.join("Cargo.lock"), root.join("Cargo.lock")).expect("copying Cargo.lock");
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    command
        .args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--keep-going",
            "--quiet",
            "--message-format",
            "short",
            "--",
            "-D",
            "warnings",
        ])
        .env("CARGO_TARGET_DIR", o.repo.join("target/genprop"))
        .current_dir(&root);
    check("cargo clippy -D warnings", &mut command, seeds, failures);
}
