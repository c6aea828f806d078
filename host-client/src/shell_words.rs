//! Splitting a flow.toml `command` into a program and its arguments, as a
//! POSIX shell splits words, but with no shell: no variables, globs, pipes,
//! redirections or `~`. Only whitespace, quotes and backslashes mean anything,
//! so a command runs the same everywhere and nothing in it is evaluated.
//!
//! - Unquoted whitespace separates words.
//! - `'...'` is literal.
//! - `"..."` is literal except that `\` escapes `"`, `\`, `$`, `` ` `` and a
//!   newline (which is removed); before anything else it stays a backslash.
//! - An unquoted `\` escapes the next character; `\` then newline is removed.
//! - An unterminated quote or a trailing `\` is an error.

/// The words of `command`, or why it cannot be split.
pub fn split(command: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started: `''` is an empty word, not nothing.
    let mut started = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("an unterminated single quote".to_owned()),
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("an unterminated double quote".to_owned()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("an unterminated double quote".to_owned()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => {
                    started = true;
                    word.push(c);
                }
                None => return Err("a backslash at the end".to_owned()),
            },
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::split;

    fn ok(command: &str) -> Vec<String> {
        split(command).unwrap()
    }

    #[test]
    fn splits_like_a_shell_without_one() {
        assert_eq!(ok("acme-tools  openai\t--x"), ["acme-tools", "openai", "--x"]);
        assert_eq!(ok(r#"python3 -c 'print("a b")'"#), ["python3", "-c", r#"print("a b")"#]);
        assert_eq!(ok(r#"a "b \"c\" \\ \n $HOME" d"#), ["a", r#"b "c" \ \n $HOME"#, "d"]);
        assert_eq!(ok(r"a\ b c\\d"), ["a b", r"c\d"]);
        assert_eq!(ok("a '' \"\" b"), ["a", "", "", "b"]);
        assert_eq!(ok("pre'fix'\"ed\" x\\\ny"), ["prefixed", "xy"]);
        assert_eq!(ok("a | b; c > d"), ["a", "|", "b;", "c", ">", "d"]);
        assert_eq!(ok("  "), Vec::<String>::new());
    }

    #[test]
    fn refuses_what_it_cannot_close() {
        assert!(split("a 'b").is_err());
        assert!(split("a \"b").is_err());
        assert!(split("a \"b\\").is_err());
        assert!(split("a\\").is_err());
    }
}
