//! Rust spellings of Flow names, and text that must stay inside doc
//! comments and string literals whatever it holds.
//!
//! Types and constructors take the NAME in upper camel case, fields,
//! parameters and methods in snake_case (Rust's lints warn on anything
//! else). Escaping keywords and numbering equal names is the shared naming
//! pass's ([`crate::naming::Scope`] with the Rust styles): `r#type`,
//! `self_`, `Item2`, `item_2`.

use crate::naming::{pascal_case, snake_case};
pub use crate::naming::{Scope, Style};

/// A field, parameter or method name: snake_case, all lower case (the `uXXXX`
/// of a non-ASCII letter too, which the snake_case lint would flag).
pub fn snake(name: &str) -> String {
    snake_case(name).to_lowercase()
}

/// A type or constructor name: PascalCase, starting upper case (the
/// camel-case lint flags `u00C9lan`, so it is `U00C9lan`).
///
/// It starts with an upper case letter: `2fa` is `X2fa`, not `_2fa`, which
/// a binding of a parameter or field could equal (E0170: a binding named
/// like a variant of its type).
pub fn pascal(name: &str) -> String {
    let mut pascal = pascal_case(name);
    if let Some(first) = pascal.get(0..1) {
        let upper = first.to_ascii_uppercase();
        pascal.replace_range(0..1, &upper);
    }
    let rest = pascal.trim_start_matches('_');
    if !rest.starts_with(|c: char| c.is_ascii_uppercase()) {
        return format!("X{rest}");
    }
    pascal
}

/// A constant name: SCREAMING_SNAKE_CASE.
pub fn screaming(name: &str) -> String {
    snake_case(name).to_uppercase()
}

/// Doc comment lines (`/// ...`) holding `text` as written: each line of it
/// on its own comment line (a bare carriage return is no line break rustc
/// accepts in a doc comment), and the bidirectional controls that rustc
/// refuses in comments written as `\u{...}`. Empty when there is no text.
pub fn doc_lines(text: Option<&str>, indent: &str) -> String {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else { return String::new() };
    let mut out = String::new();
    for line in text.split("\r\n").flat_map(|l| l.split(['\r', '\n'])) {
        let line = visible(line.trim_end());
        out.push_str(indent);
        if line.is_empty() {
            out.push_str("///\n");
        } else {
            out.push_str("/// ");
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// Replaces the characters rustc refuses in comments
/// (`text_direction_codepoint_in_comment`) by their escapes.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => format!("\\u{{{:X}}}", c as u32),
            // clippy's tabs_in_doc_comments refuses a tab in any doc.
            '\t' => "\\t".to_owned(),
            c => c.to_string(),
        })
        .collect()
}

/// A Rust string literal holding `text` exactly.
pub fn string_literal(text: &str) -> String {
    format!("{text:?}")
}

/// `text` as a JSON string, as the canonical text writes it.
pub fn json_string(text: &str) -> String {
    let mut out = String::new();
    flow_core::json::write_string(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(snake("highC"), "high_c");
        assert_eq!(snake("Zürich"), "zu00fcrich");
        assert_eq!(snake("-"), "_");
        assert_eq!(pascal("élan"), "U00C9lan");
        assert_eq!(pascal("unknown_city"), "UnknownCity");
        assert_eq!(pascal("2fa"), "X2fa");
        assert_eq!(pascal("_"), "X");
        assert_eq!(screaming("get_forecast"), "GET_FORECAST");
        assert_eq!(screaming("type"), "TYPE");
    }

    #[test]
    fn docs_stay_comments() {
        assert_eq!(
            doc_lines(Some("a */ b\r\nc\rd\n\n#[x] \"q\""), "    "),
            "    /// a */ b\n    /// c\n    /// d\n    ///\n    /// #[x] \"q\"\n"
        );
        assert_eq!(doc_lines(Some("rtl \u{202E} here"), ""), "/// rtl \\u{202E} here\n");
        assert_eq!(doc_lines(Some("  "), ""), "");
        assert_eq!(doc_lines(None, ""), "");
        assert_eq!(string_literal("a\"b\\c\nd"), "\"a\\\"b\\\\c\\nd\"");
    }
}
