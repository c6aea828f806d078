//! The limits an outgoing line is held to before it is sent (`decisions.md`
//! section 2): the peer reads each message as a whole, so a side that sends
//! only what the peer would read never has a line refused that it let through.
//!
//! - Size: the line's bytes without its ending `\n`; exactly the limit passes.
//! - Depth: counted from the message's own object as level 1, so a value in a
//!   call's `args` or a reply's outcome starts at level 4.
//!
//! Both are decided on the written text, by one linear scan, so the rule is the
//! reader's rule and not an estimate of it.

use flow_core::error::{Error, Rule};
use flow_core::limits::Limits;

/// The deepest nesting of arrays and objects in JSON text, the outermost
/// counting 1; brackets inside strings do not count.
pub fn depth(text: &[u8]) -> usize {
    let (mut level, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                level += 1;
                deepest = deepest.max(level);
            }
            b']' | b'}' => level = level.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// How many `[` and `{` bytes `text` holds, strings or not: an upper bound
/// of [`depth`]. Counted in blocks of at most 255 bytes into a byte-wide
/// tally, which the compiler turns into wide compares and adds (a plain
/// filter and count widens every byte to a usize and does not).
fn openers(text: &[u8]) -> usize {
    // `[` is 0x5B and `{` is 0x7B: setting bit 0x20 maps both, and only
    // them, to `{`.
    text.chunks(255)
        .map(|block| block.iter().fold(0u8, |tally, &b| tally + u8::from(b | 0x20 == b'{')))
        .map(usize::from)
        .sum()
}

/// Why `line` (one message, with or without its ending `\n`) may not be sent
/// under `limits`, naming the limit and the rule; `None` when it may.
#[inline]
pub fn past_limit(line: &str, limits: &Limits) -> Option<String> {
    let body = line.strip_suffix('\n').unwrap_or(line).as_bytes();
    if body.len() > limits.max_bytes {
        let why = format!(
            "the message would be {} bytes (without its line's ending), more than the message size limit of {}",
            body.len(),
            limits.max_bytes
        );
        return Some(Error::new(Rule::TooLarge, why).to_string());
    }
    // Most lines open fewer brackets in all than the limit: a count that
    // vectorizes decides them without following strings.
    let nesting = if openers(body) <= limits.max_depth { 0 } else { depth(body) };
    if nesting > limits.max_depth {
        let why = format!(
            "the message would nest {nesting} levels deep (counting from the message's own object), more than the depth limit of {}; a value inside args or an outcome starts at level 4",
            limits.max_depth
        );
        return Some(Error::new(Rule::TooDeep, why).to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_brackets_outside_strings() {
        assert_eq!(depth(b"1"), 0);
        assert_eq!(depth(b"{}"), 1);
        assert_eq!(depth(br#"{"a":[[1],{"b":"[[[{"}]}"#), 3);
        assert_eq!(depth(br#"{"a":"\"[[","b":[]}"#), 2);
        assert_eq!(depth(br#"["\\",[]]"#), 2);
    }

    #[test]
    fn openers_counts_every_bracket_that_opens_and_nothing_else() {
        // Every byte value, in and out of blocks' edges: only `[` and `{` count.
        let all: Vec<u8> = (0..=255u8).cycle().take(255 * 7 + 3).collect();
        let expected = all.iter().filter(|&&b| b == b'[' || b == b'{').count();
        assert_eq!(openers(&all), expected);
        for len in [0, 1, 254, 255, 256, 511, 1000] {
            let text = vec![b'['; len];
            assert_eq!(openers(&text), len);
        }
        assert_eq!(openers(br#"{"a":"[{","b":[]}"#), 4);
    }

    #[test]
    fn exactly_the_size_limit_passes_and_one_more_does_not() {
        let limits = Limits { max_bytes: 10, ..Limits::default() };
        assert_eq!(past_limit(&format!("{}\n", "1".repeat(10)), &limits), None);
        assert_eq!(past_limit(&"1".repeat(10), &limits), None);
        let why = past_limit(&format!("{}\n", "1".repeat(11)), &limits).unwrap();
        assert!(why.contains("11 bytes") && why.ends_with("[too-large]"), "{why}");
    }

    #[test]
    fn depth_counts_from_the_message_object() {
        let limits = Limits::default();
        let nested = |n: usize| format!(r#"{{"params":{{"args":{{"v":{}{}}}}}}}"#, "[".repeat(n), "]".repeat(n));
        // The message 1, params 2, args 3: a value in args may nest 125 levels.
        assert_eq!(depth(nested(125).as_bytes()), 128);
        assert_eq!(past_limit(&nested(125), &limits), None);
        let why = past_limit(&nested(126), &limits).unwrap();
        assert!(why.contains("129 levels") && why.ends_with("[too-deep]"), "{why}");
    }
}
