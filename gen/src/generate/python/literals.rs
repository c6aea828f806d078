//! Python literals that hold any text exactly: docstrings, `"""` bodies
//! and `"..."` strings.

/// A docstring at `indent` spaces: escaped so any text is a valid literal.
pub fn docstring(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    // Trailing spaces on a line are no part of any doc a reader sees (and
    // ruff's W291 refuses them).
    let text: Vec<&str> = text.trim_end().split('\n').map(str::trim_end).collect();
    let body = string_body(&text.join("\n"));
    let lines: Vec<&str> = body.split('\n').collect();
    if lines.len() == 1 {
        return format!("{pad}\"\"\"{}\"\"\"", lines[0]);
    }
    let mut out = format!("{pad}\"\"\"{}\n", lines[0]);
    for line in &lines[1..] {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("{pad}{line}\n"));
        }
    }
    out.push_str(&format!("{pad}\"\"\""));
    out
}

/// The inside of a `"""` string literal holding `text` exactly.
pub fn string_body(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push(c),
            // A tab is as wide as ruff's indent, which a line's width would
            // have to count.
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || ('\u{7f}'..='\u{9f}').contains(&c) => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            // Line and paragraph separators, and every other space but the
            // plain one: a line break to some readers, trailing whitespace
            // to ruff at a line's end.
            c if c.is_whitespace() && c != ' ' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    // No `"""` inside, and no `"` just before the closing quotes.
    let mut out = out.replace("\"\"\"", "\"\"\\\"");
    if out.ends_with('"') {
        out.pop();
        out.push_str("\\\"");
    }
    out
}

/// A `"..."` string literal holding `text` exactly: quotes, backslashes,
/// line breaks and every other control or separator character escaped.
pub fn string_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
