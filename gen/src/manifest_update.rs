//! Binding a generated package in the Tool repository's flow.toml: the table of
//! each declaring file gets `command = "..."`, every other table and comment is
//! kept as written (toml_edit preserves formatting).

use std::path::Path;

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

/// Adds or updates `[tools."FILE"] command = COMMAND` for every declaring file
/// of the listing. A table that named `mcp` is switched to `command` (a table
/// names exactly one). Returns whether the file changed.
pub fn update(manifest: &Path, listing: &Listing, command: &str) -> Result<bool, String> {
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
        table.remove("mcp");
        table.insert("command", value(command));
    }
    document.set_trailing(trailing);
    let updated = document.to_string();
    if updated == original {
        return Ok(false);
    }
    std::fs::write(manifest, updated).map_err(|e| format!("{}: {e}", manifest.display()))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn updated(original: &str) -> String {
        let dir = std::env::temp_dir().join(format!("flow-gen-manifest-{}-{}", std::process::id(), original.len()));
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = dir.join("flow.toml");
        std::fs::write(&manifest, original).unwrap();
        let listing = flow_core::types::parse::listing_from_text(
            include_bytes!("../../tests/examples/weather.tools.json"),
            &flow_core::Limits::default(),
        )
        .unwrap();
        update(&manifest, &listing, "python -m weather_tools").unwrap();
        let text = std::fs::read_to_string(&manifest).unwrap();
        std::fs::remove_dir_all(dir).unwrap();
        text
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
