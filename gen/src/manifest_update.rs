//! Binding a generated package in the Tool repository's flow.toml: the table of
//! each declaring file gets `command = "..."`, every other table and comment is
//! kept as written (toml_edit preserves formatting).

use std::path::{Path, PathBuf};

use flow_core::types::{identity_name, Listing};
use toml_edit::{value, DocumentMut, Item, Table};

/// The declaring file of a Tool identity: FILE of `REPO@VERSION/FILE.NAME`,
/// PATH of `PATH.NAME`.
pub fn declaring_file(identity: &str) -> &str {
    let without_name = &identity[..identity.len() - identity_name(identity).len()];
    let without_name = without_name.strip_suffix('.').unwrap_or(without_name);
    match without_name.split_once('@') {
        Some((_, version_and_file)) => version_and_file.split_once('/').map_or(version_and_file, |(_, file)| file),
        None => without_name,
    }
}

/// A flow.toml change worked out and checked, not yet written.
#[derive(Debug)]
pub struct Update {
    path: PathBuf,
    original: String,
    updated: String,
}

impl Update {
    /// Writes the file when it changed; returns whether it did.
    pub fn write(&self) -> Result<bool, String> {
        if self.updated == self.original {
            return Ok(false);
        }
        std::fs::write(&self.path, &self.updated).map_err(|e| format!("{}: {e}", self.path.display()))?;
        Ok(true)
    }
}

/// What binds a table now, when it is something other than `command`.
fn other_binding(table: &Table, command: &str) -> Option<String> {
    if let Some(mcp) = table.get("mcp").and_then(Item::as_str) {
        return Some(format!("the MCP server `{mcp}`"));
    }
    match table.get("command").and_then(Item::as_str) {
        Some(existing) if existing != command => Some(format!("`{existing}`")),
        _ => None,
    }
}

/// Works out `[tools."FILE"] command = COMMAND` for every declaring file of
/// the listing. A table that already runs something else (another
/// language's package, an MCP server) is refused, naming it and what it
/// runs, unless `rebind`; then it is switched (a table names exactly one of
/// `command` and `mcp`).
pub fn plan(manifest: &Path, listing: &Listing, command: &str, rebind: bool) -> Result<Update, String> {
    let original = match std::fs::read_to_string(manifest) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", manifest.display())),
    };
    let mut document: DocumentMut = original.parse().map_err(|e| format!("{}: {e}", manifest.display()))?;
    // Comments after the last table are the document's trailing text, which
    // toml_edit writes after every table; a table added here goes after them.
    let mut trailing = document.trailing().as_str().unwrap_or("").to_owned();
    document.set_trailing("");
    let tools = document.entry("tools").or_insert_with(|| {
        let mut table = Table::new();
        table.set_implicit(true);
        Item::Table(table)
    });
    let Some(tools) = tools.as_table_mut() else {
        return Err(format!("{}: `tools` is not a table", manifest.display()));
    };
    let mut files: Vec<&str> = listing.tools.iter().map(|t| declaring_file(&t.tool)).collect();
    files.sort_unstable();
    files.dedup();
    let mut refused = Vec::new();
    for file in files {
        let entry = tools.entry(file).or_insert_with(|| {
            let mut table = Table::new();
            if !trailing.is_empty() {
                table.decor_mut().set_prefix(std::mem::take(&mut trailing) + "\n");
            }
            Item::Table(table)
        });
        let Some(table) = entry.as_table_mut() else {
            return Err(format!("{}: tools.\"{file}\" is not a table", manifest.display()));
        };
        if let (Some(existing), false) = (other_binding(table, command), rebind) {
            refused.push(format!("[tools.\"{file}\"] runs {existing}"));
            continue;
        }
        table.remove("mcp");
        table.insert("command", value(command));
    }
    if !refused.is_empty() {
        return Err(format!(
            "{}: {}, not `{command}`: pass --rebind to bind this package instead, or --no-manifest to leave {} alone (nothing was written)",
            manifest.display(),
            refused.join(", "),
            manifest.display()
        ));
    }
    document.set_trailing(trailing);
    Ok(Update { path: manifest.to_path_buf(), updated: document.to_string(), original })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn updated(original: &str) -> String {
        updated_with(original, true).unwrap()
    }

    fn updated_with(original: &str, rebind: bool) -> Result<String, String> {
        // One folder per call: tests run in parallel.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("flow-gen-manifest-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = dir.join("flow.toml");
        std::fs::write(&manifest, original).unwrap();
        let listing = flow_core::types::parse::listing_from_text(
            include_bytes!("../../tests/examples/weather.tools.json"),
            &flow_core::Limits::default(),
        )
        .unwrap();
        let planned = plan(&manifest, &listing, "python -m weather_tools", rebind);
        let result = planned.and_then(|update| update.write()).map(|_| std::fs::read_to_string(&manifest).unwrap());
        std::fs::remove_dir_all(dir).unwrap();
        result
    }

    #[test]
    fn a_table_running_another_command_is_refused_without_rebind() {
        let typescript = "[tools.\"weather.flow\"]\ncommand = \"node weather-tools/dist/main.js\"\n";
        assert_eq!(
            updated_with(typescript, false)
                .unwrap_err()
                .split(": pass")
                .next()
                .unwrap()
                .rsplit_once("flow.toml: ")
                .unwrap()
                .1,
            "[tools.\"weather.flow\"] runs `node weather-tools/dist/main.js`, not `python -m weather_tools`"
        );
        let mcp = "[tools.\"weather.flow\"]\nmcp = \"npx weather-mcp\"\n";
        assert!(updated_with(mcp, false).unwrap_err().contains("runs the MCP server `npx weather-mcp`"));
        // The same command again is no rebind, and other tables are no concern.
        let same = "[tools.\"weather.flow\"]\ncommand = \"python -m weather_tools\"\n";
        assert_eq!(updated_with(same, false).unwrap(), same);
        let other = "[tools.\"search.flow\"]\ncommand = \"x\"\n";
        assert!(updated_with(other, false).is_ok());
        assert_eq!(updated_with(typescript, true).unwrap(), same);
    }

    #[test]
    fn adds_tables_after_existing_text_and_keeps_other_tables() {
        assert_eq!(
            updated("# Bindings of this repository.\n"),
            "# Bindings of this repository.\n\n[tools.\"weather.flow\"]\ncommand = \"python -m weather_tools\"\n"
        );
        let other = "[tools.\"search.flow\"]\nmcp = \"npx @acme/search-mcp\" # kept\n";
        assert_eq!(
            updated(other),
            format!("{other}\n[tools.\"weather.flow\"]\ncommand = \"python -m weather_tools\"\n")
        );
        let existing = "[tools.\"weather.flow\"]\nmcp = \"old\"\n";
        assert_eq!(updated(existing), "[tools.\"weather.flow\"]\ncommand = \"python -m weather_tools\"\n");
    }

    #[test]
    fn declaring_files() {
        assert_eq!(declaring_file("github.com/acme/weather@1.2.0/weather.flow.get_forecast"), "weather.flow");
        assert_eq!(declaring_file("github.com/acme/weather@1.2.0/src/a.b.flow.Thing"), "src/a.b.flow");
        assert_eq!(declaring_file("tools/local.flow.echo"), "tools/local.flow");
    }
}
