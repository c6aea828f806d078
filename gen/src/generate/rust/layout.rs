//! Line breaking as rustfmt does it with its default settings, for the few
//! shapes generated code has, so the generated files read like formatted
//! Rust (and `rustfmt --check` leaves them be).

/// rustfmt's `max_width`.
pub const MAX_WIDTH: usize = 100;
/// rustfmt's `fn_call_width` and `array_width`: wider argument lists and
/// array items go one per line.
pub const LIST_WIDTH: usize = 60;

/// `head(a, b)` (or `head![a, b]`) starting at `column` on a line indented
/// by `indent`, followed by `tail`: on one line when the items and the line
/// fit, else one item per line. `open` and `close` are the brackets.
///
/// A call whose one argument is a `vec![...]` (`head` ends in `(vec!`) counts
/// that argument whole against the call width, as rustfmt does.
pub fn list(indent: usize, column: usize, head: &str, open: &str, close: &str, items: &[String], tail: &str) -> String {
    let joined = items.join(", ");
    let one_line = format!("{head}{open}{joined}{close}{tail}");
    let multiline = items.iter().any(|i| i.contains('\n'));
    let width = if head.ends_with("(vec!") { joined.len() + "vec![]".len() } else { joined.len() };
    if !multiline && width <= LIST_WIDTH && column + one_line.len() <= MAX_WIDTH {
        return one_line;
    }
    let pad = " ".repeat(indent + 4);
    let mut out = format!("{head}{open}\n");
    for item in items {
        out.push_str(&pad);
        out.push_str(item);
        out.push_str(",\n");
    }
    out.push_str(&" ".repeat(indent));
    out.push_str(close);
    out.push_str(tail);
    out
}

/// `let name = value;` on a line indented by `indent`: on one line when it
/// fits; else with the value on the next line when it fits there; else the
/// value broken as `layout(column)` breaks it.
pub fn let_statement(indent: usize, name: &str, layout: impl Fn(usize) -> String) -> String {
    let prefix = format!("let {name} = ");
    let same_line = layout(indent + prefix.len());
    if !same_line.contains('\n') && indent + prefix.len() + same_line.len() < MAX_WIDTH {
        return format!("{prefix}{same_line};");
    }
    let next_line = layout(indent + 4);
    if !next_line.contains('\n') && indent + 4 + next_line.len() < MAX_WIDTH {
        return format!("let {name} =\n{}{next_line};", " ".repeat(indent + 4));
    }
    format!("{prefix}{same_line};")
}

/// `pattern => expression,` on a line indented by `indent`, the expression
/// laid out by `layout(column)`: on the arm's line when it fits, else alone
/// in a block when it fits there, else broken after the arrow.
pub fn match_arm(indent: usize, pattern: &str, layout: impl Fn(usize) -> String) -> String {
    let prefix = format!("{pattern} => ");
    let same_line = layout(indent + prefix.len());
    if !same_line.contains('\n') && indent + prefix.len() + same_line.len() < MAX_WIDTH {
        return format!("{prefix}{same_line},");
    }
    let in_block = layout(indent + 4);
    if !in_block.contains('\n') && indent + 4 + in_block.len() <= MAX_WIDTH {
        let pad = " ".repeat(indent);
        return format!("{prefix}{{\n{pad}    {in_block}\n{pad}}}");
    }
    format!("{prefix}{same_line},")
}

/// A type `Outer<A, B>` that does not fit after `prefix` at `indent`, with
/// its arguments one per line, as rustfmt breaks a long return type.
pub fn generic_type(indent: usize, prefix: &str, ty: &str, suffix: &str) -> String {
    let one_line = format!("{prefix}{ty}{suffix}");
    let (Some(open), true) = (ty.find('<'), ty.ends_with('>')) else { return one_line };
    if indent + one_line.len() <= MAX_WIDTH {
        return one_line;
    }
    let mut args = Vec::new();
    let (mut depth, mut start) = (0, open + 1);
    let inner = &ty[..ty.len() - 1];
    for (i, c) in inner.char_indices().skip(open + 1) {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                args.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    args.push(inner[start..].trim());
    let pad = " ".repeat(indent + 4);
    let mut out = format!("{prefix}{}\n", &ty[..=open]);
    for arg in args {
        out.push_str(&format!("{pad}{arg},\n"));
    }
    out.push_str(&format!("{}>{suffix}", " ".repeat(indent)));
    out
}

/// rustfmt's order of `use` paths: segment by segment, in [`name_order`].
pub fn use_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn key(path: &str) -> Vec<(u8, bool, &str)> {
        path.split("::").map(|seg| name_key(seg.trim_end_matches(';'))).collect()
    }
    key(a).cmp(&key(b))
}

/// rustfmt's order of the names in a `use` list (and of path segments):
/// snake_case names (modules, functions; also `_x` and `r#x`) first, then
/// CamelCase (types), then UPPER_SNAKE_CASE (constants, and type names such
/// as `N0` or `AB` that read as one), each group by text. Checked against
/// rustfmt 1.9 with edition 2021 (the tests below are its output).
pub fn name_order(a: &str, b: &str) -> std::cmp::Ordering {
    name_key(a).cmp(&name_key(b))
}

fn name_key(name: &str) -> (u8, bool, &str) {
    let upper_snake = name.chars().all(|c| c.is_uppercase() || c.is_numeric() || c == '_');
    let class = if upper_snake && !name.is_empty() {
        2
    } else if name.starts_with(char::is_uppercase) {
        1
    } else {
        0
    };
    // Within a group a leading underscore comes first (`_B` before `A`), as
    // rustfmt writes it; elsewhere `_` is compared as its byte.
    (class, !name.starts_with('_'), name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_break_past_the_widths() {
        let short = ["1".to_owned(), "\"a\"".to_owned()];
        assert_eq!(list(8, 8, "f", "(", ")", &short, ";"), "f(1, \"a\");");
        let long: Vec<String> = (0..8).map(|i| format!("argument_{i}")).collect();
        assert_eq!(list(0, 0, "f", "(", ")", &long[..2], ""), "f(argument_0, argument_1)");
        assert!(list(0, 0, "f", "(", ")", &long, "").starts_with("f(\n    argument_0,\n"));
        // Fits the list width, not the line.
        assert!(list(4, 95, "f", "(", ")", &short, "").contains('\n'));
    }

    #[test]
    fn arms_and_lets() {
        fn text(t: String) -> impl Fn(usize) -> String {
            move |_| t.clone()
        }
        assert_eq!(match_arm(12, "A", text("b".into())), "A => b,");
        let long = "x".repeat(84);
        assert_eq!(match_arm(12, "A", text(long.clone())), format!("A => {{\n                {long}\n            }}"));
        assert_eq!(let_statement(8, "r", text("f(a)".into())), "let r = f(a);");
        let long = "c".repeat(85);
        assert_eq!(let_statement(8, "r", text(long.clone())), format!("let r =\n            {long};"));
    }

    #[test]
    fn long_types_break_their_arguments() {
        assert_eq!(generic_type(4, ") -> ", "R<A, B>", " {"), ") -> R<A, B> {");
        let long = format!("Result<{}, Option<(B, C)>>", "a".repeat(90));
        assert_eq!(
            generic_type(4, ") -> ", &long, " {"),
            format!(") -> Result<\n        {},\n        Option<(B, C)>,\n    > {{", "a".repeat(90))
        );
    }

    #[test]
    fn modules_before_types() {
        let mut paths = vec!["use a::Zed;", "use a::types::{B};", "use a::B;"];
        paths.sort_by(|a, b| use_order(a, b));
        assert_eq!(paths, ["use a::types::{B};", "use a::Zed;", "use a::B;"]);
    }

    #[test]
    fn names_in_rustfmt_order() {
        // What rustfmt 1.9 (edition 2021) writes for this list.
        let mut names = vec!["X12", "x", "Send", "N0", "_y", "_Z", "U01C4ungla", "N1", "B", "b2", "ZZ", "Zz", "r#type"];
        names.sort_by(|a, b| name_order(a, b));
        assert_eq!(names, ["_y", "b2", "r#type", "x", "Send", "U01C4ungla", "Zz", "_Z", "B", "N0", "N1", "X12", "ZZ"]);
        let mut paths = vec!["use a::Zed;", "use a::N0;", "use a::m;"];
        paths.sort_by(|a, b| use_order(a, b));
        assert_eq!(paths, ["use a::m;", "use a::Zed;", "use a::N0;"]);
        let mut names = vec!["_B", "A", "C", "_a", "a", "AB", "_AA", "A_", "A0"];
        names.sort_by(|a, b| name_order(a, b));
        assert_eq!(names, ["_a", "a", "_AA", "_B", "A", "A0", "AB", "A_", "C"]);
    }
}
