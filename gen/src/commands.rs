//! The utility subcommands. Each returns its whole stdout, or one line saying
//! what was refused (the file, then the JSON path and the rule).

use std::io::Read;
use std::path::Path;

use flow_core::fingerprint::{fingerprint as tool_fingerprint, signature as tool_signature};
use flow_core::schema::SchemaForm;
use flow_core::types::parse::{listing_from_text, term_from_json_in};
use flow_core::types::Listing;
use flow_core::{decode as decoding, json, Limits};

type Outcome = Result<String, String>;

fn read_input(file: Option<&Path>) -> Result<(String, Vec<u8>), String> {
    match file {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((path.display().to_string(), bytes))
        }
        None => {
            let mut bytes = Vec::new();
            std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("stdin: {e}"))?;
            Ok(("stdin".to_owned(), bytes))
        }
    }
}

fn load_listing(path: &Path) -> Result<Listing, String> {
    let (name, bytes) = read_input(Some(path))?;
    listing_from_text(&bytes, &Limits::default()).map_err(|e| format!("{name}: {e}"))
}

pub fn check(listing: &Path) -> Outcome {
    load_listing(listing)?;
    Ok("ok\n".to_owned())
}

pub fn fingerprint(listing: &Path, only: Option<&str>) -> Outcome {
    let listing = load_listing(listing)?;
    if let Some(id) = only {
        if listing.tool(id).is_none() {
            return Err(format!("no Tool {id} in the listing"));
        }
    }
    let mut out = String::new();
    for tool in listing.tools.iter().filter(|t| only.is_none_or(|id| t.tool == id)) {
        let fp = tool_fingerprint(tool, &listing.declarations).map_err(|e| format!("{}: {e}", tool.tool))?;
        out.push_str(&format!("{} {fp}\n", tool.tool));
    }
    Ok(out)
}

pub fn signature(listing: &Path, id: &str, stripped: bool) -> Outcome {
    let listing = load_listing(listing)?;
    let tool = listing.tool(id).ok_or_else(|| format!("no Tool {id} in the listing"))?;
    let form = if stripped { SchemaForm::Canonical } else { SchemaForm::Describe };
    let signature = tool_signature(tool, &listing.declarations, form).map_err(|e| format!("{id}: {e}"))?;
    Ok(signature.to_canonical() + "\n")
}

pub fn canonical(file: Option<&Path>) -> Outcome {
    let (name, bytes) = read_input(file)?;
    let text = json::canonicalize(&bytes, &Limits::default()).map_err(|e| format!("{name}: {e}"))?;
    Ok(text + "\n")
}

pub fn decode(listing: &Path, ty: &str, file: Option<&Path>) -> Outcome {
    let listing = load_listing(listing)?;
    let term_json = json::parse_str(ty, &Limits::default()).map_err(|e| format!("--type: {e}"))?;
    let term = term_from_json_in(&term_json, &listing.declarations).map_err(|e| format!("--type: {e}"))?;
    let (name, bytes) = read_input(file)?;
    let value = decoding::decode(&bytes, &term, &listing.declarations, &Limits::default())
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(value.to_canonical() + "\n")
}
