//! Rust identifiers for Flow names, and text that must stay inside doc
//! comments and string literals whatever it holds.
//!
//! Types and constructors take the NAME in PascalCase, fields, parameters and
//! methods in snake_case (Rust's lints warn on anything else). A keyword
//! becomes a raw identifier (`r#type`); the few that cannot be raw (`self`,
//! `Self`, `super`, `crate`) and the bare `_` get a trailing `_`. Names are
//! claimed in declaration order in each scope, and a later equal name gets a
//! number (`Item2`, `item_2`).

use std::collections::BTreeSet;

use crate::generate::names::{pascal_case, snake_case};

/// Rust's strict and reserved keywords (2015 to 2024 editions).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else", "enum",
    "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut",
    "override", "priv", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type",
    "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super", "_"];

fn escape_keyword(name: String) -> String {
    if NOT_RAW.contains(&name.as_str()) {
        format!("{name}_")
    } else if KEYWORDS.contains(&name.as_str()) {
        format!("r#{name}")
    } else {
        name
    }
}

/// A field, parameter or method name: snake_case, all lower case (the `uXXXX`
/// of a non-ASCII letter too, which the snake_case lint would flag).
pub fn snake(name: &str) -> String {
    escape_keyword(snake_case(name).to_lowercase())
}

/// A type or constructor name: PascalCase, starting upper case (the
/// camel-case lint flags `u00C9lan`, so it is `U00C9lan`).
pub fn pascal(name: &str) -> String {
    let mut pascal = pascal_case(name);
    if let Some(first) = pascal.get(0..1) {
        let upper = first.to_ascii_uppercase();
        pascal.replace_range(0..1, &upper);
    }
    escape_keyword(pascal)
}

/// A constant name: SCREAMING_SNAKE_CASE.
pub fn screaming(name: &str) -> String {
    let upper = snake_case(name).to_uppercase();
    if upper == "_" {
        "__".to_owned()
    } else {
        upper
    }
}

/// Names claimed in one scope.
#[derive(Debug, Default, Clone)]
pub struct Scope {
    taken: BTreeSet<String>,
}

impl Scope {
    /// A scope where `reserved` are already taken.
    pub fn with(reserved: impl IntoIterator<Item = impl Into<String>>) -> Scope {
        Scope { taken: reserved.into_iter().map(Into::into).collect() }
    }

    /// `base`, or the first of `base2`, `base3`, ... (`base_2` for a snake_case
    /// or SCREAMING name) not yet taken.
    pub fn claim(&mut self, base: String) -> String {
        // A numbered name is no keyword, so it needs no `r#`.
        let stem = base.strip_prefix("r#").unwrap_or(&base).to_owned();
        let pascal = stem.starts_with(|c: char| c.is_ascii_uppercase()) && stem.chars().any(|c| c.is_ascii_lowercase());
        let separator = if pascal { "" } else { "_" };
        let mut candidate = base;
        let mut n = 2;
        while self.taken.contains(&candidate) {
            candidate = format!("{stem}{separator}{n}");
            n += 1;
        }
        self.taken.insert(candidate.clone());
        candidate
    }
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
            c => c.to_string(),
        })
        .collect()
}

/// A Rust string literal holding `text` exactly.
pub fn string_literal(text: &str) -> String {
    format!("{text:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(snake("type"), "r#type");
        assert_eq!(snake("self"), "self_");
        assert_eq!(snake("highC"), "high_c");
        assert_eq!(snake("Zürich"), "zu00fcrich");
        assert_eq!(snake("-"), "__");
        assert_eq!(pascal("Self"), "Self_");
        assert_eq!(pascal("élan"), "U00C9lan");
        assert_eq!(pascal("unknown_city"), "UnknownCity");
        assert_eq!(screaming("get_forecast"), "GET_FORECAST");
        assert_eq!(screaming("type"), "TYPE");
    }

    #[test]
    fn later_equal_names_are_numbered() {
        let mut scope = Scope::with(["Tools"]);
        assert_eq!(scope.claim("Tools".into()), "Tools2");
        assert_eq!(scope.claim("Item".into()), "Item");
        assert_eq!(scope.claim("Item".into()), "Item2");
        let mut fields = Scope::default();
        assert_eq!(fields.claim("get_sum".into()), "get_sum");
        assert_eq!(fields.claim("get_sum".into()), "get_sum_2");
        assert_eq!(fields.claim("r#type".into()), "r#type");
        assert_eq!(fields.claim("r#type".into()), "type_2");
        let mut consts = Scope::default();
        assert_eq!(consts.claim("ECHO".into()), "ECHO");
        assert_eq!(consts.claim("ECHO".into()), "ECHO_2");
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
