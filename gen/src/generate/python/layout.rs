//! The shape of a generated Python file as ruff (the repository's
//! ruff.toml) holds it: isort's order of imported names, and lines within
//! E501's width.

/// The order isort (ruff's I001) gives imported names: constants
/// (`HTTP`), then classes (`Http`), then the rest, each group in natural
/// order of its lower case spelling, then by the spelling itself.
pub fn isort_order(a: &str, b: &str) -> std::cmp::Ordering {
    let kind = |name: &str| {
        let cased = name.chars().any(char::is_alphabetic);
        if name.chars().count() > 1 && cased && !name.chars().any(char::is_lowercase) {
            0
        } else if name.starts_with(char::is_uppercase) {
            1
        } else {
            2
        }
    };
    kind(a).cmp(&kind(b)).then_with(|| natural_order(&a.to_lowercase(), &b.to_lowercase())).then_with(|| a.cmp(b))
}

/// Natural order as the `natord` crate (ruff's) has it, after strnatcmp:
/// digit runs compare as numbers, except that a run starting with `0`
/// compares digit by digit as a fraction would.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let digit = |s: &[char], i: usize| s.get(i).is_some_and(char::is_ascii_digit);
    let (mut i, mut j) = (0, 0);
    loop {
        while a.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        while b.get(j).is_some_and(|c| c.is_whitespace()) {
            j += 1;
        }
        if digit(&a, i) && digit(&b, j) {
            let fractional = a[i] == '0' || b[j] == '0';
            let (mut x, mut y, mut bias) = (i, j, Equal);
            let order = loop {
                match (digit(&a, x), digit(&b, y)) {
                    (false, false) => break if fractional { Equal } else { bias },
                    (false, true) => break Less,
                    (true, false) => break Greater,
                    (true, true) => {
                        let by_digit = a[x].cmp(&b[y]);
                        if fractional && by_digit != Equal {
                            break by_digit;
                        }
                        if bias == Equal {
                            bias = by_digit;
                        }
                    }
                }
                x += 1;
                y += 1;
            };
            if order != Equal {
                return order;
            }
        }
        match (a.get(i), b.get(j)) {
            (None, None) => return Equal,
            (None, Some(_)) => return Less,
            (Some(_), None) => return Greater,
            (Some(x), Some(y)) if x != y => return x.cmp(y),
            _ => {}
        }
        i += 1;
        j += 1;
    }
}

/// The longest line ruff's E501 (the repository's `ruff.toml`) allows.
const MAX_LINE: usize = 120;

/// A line's width as E501 counts it, or more: every character from the
/// Hangul Jamo on counts as two columns (East Asian wide ones and emoji are
/// two; the others are overcounted, which only breaks a line sooner).
fn width(text: &str) -> usize {
    text.chars().map(|c| if c >= '\u{1100}' { 2 } else { 1 }).sum()
}

/// Holds a generated file to `MAX_LINE` columns: a docstring line too long
/// is broken at spaces (its continuation keeps its indent); a code line too
/// long (an annotation of deeply nested types) says so to ruff, since
/// breaking it would take parentheses mypy and readers gain nothing from.
pub fn fit_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let quotes = body.matches("\"\"\"").count();
        let starts_in_string = in_string;
        in_string ^= quotes % 2 == 1;
        if width(body) <= MAX_LINE {
            out.push_str(line);
            continue;
        }
        let newline = if line.ends_with('\n') { "\n" } else { "" };
        if starts_in_string || quotes > 0 {
            let indent: String = body.chars().take_while(|c| *c == ' ').collect();
            let mut current = String::new();
            for word in body.trim_start().split(' ') {
                if !current.is_empty() && indent.len() + width(&current) + 1 + width(word) > MAX_LINE {
                    out.push_str(&format!("{indent}{current}\n"));
                    current.clear();
                }
                if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(word);
            }
            out.push_str(&format!("{indent}{current}{newline}"));
        } else {
            out.push_str(&format!("{body}  # noqa: E501{newline}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imported_names_are_in_isorts_order() {
        let mut names = vec![
            "u65E5u672Cu210C",
            "u65E5u672Cu65E5u672C",
            "FooBaru0661u0662",
            "FOOBARu65E5u672C",
            "HX",
            "A",
            "x10",
            "x9",
        ];
        names.sort_by(|a, b| isort_order(a, b));
        assert_eq!(
            names,
            ["HX", "A", "FooBaru0661u0662", "FOOBARu65E5u672C", "u65E5u672Cu65E5u672C", "u65E5u672Cu210C", "x9", "x10"]
        );
    }
}
