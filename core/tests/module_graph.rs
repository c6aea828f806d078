//! The module dependency graph of docs/architecture.md, held: the I/O
//! modules import each other in one direction only, and the process
//! supervisor imports none of them.

use std::path::{Path, PathBuf};

/// For each module: the crate modules it must not import.
const FORBIDDEN: &[(&str, &[&str])] = &[("protocol", &["mcp", "toolkit"]), ("mcp", &["toolkit"])];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_io_modules_import_in_one_direction() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut broken = Vec::new();
    for (module, forbidden) in FORBIDDEN {
        let mut files = Vec::new();
        rust_files(&src.join(module), &mut files);
        assert!(!files.is_empty(), "no files under src/{module}");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for other in *forbidden {
                    if code.contains(&format!("crate::{other}::"))
                        || code.contains(&format!("crate::{other};"))
                        || code.contains(&format!("crate::{other}}}"))
                    {
                        broken.push(format!("{}:{}: {module} imports {other}: {}", file.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "imports against docs/architecture.md's graph:\n{}", broken.join("\n"));
}
