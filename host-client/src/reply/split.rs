//! A `reply` line in its canonical envelope, split without building the
//! envelope's tree: the reader's fast path, which sees one line per call.
//!
//! Only a line that is exactly `{"jsonrpc":"2.0","method":"reply","params":
//! {"call":C,"outcome":O,"run":R}}`, with C and R strings free of escapes
//! and control characters (as canonical writers and serde_json write them),
//! is read here; its outcome is parsed alone, at the depth it has in the
//! line. Anything else, and any outcome that does not parse, is `None`, for
//! [`flow_protocol::message::parse_line`] to judge and to word its error: so this
//! path only ever gives what that one would.

use flow_core::json;
use flow_core::limits::Limits;

use flow_protocol::message::{CallKey, Incoming, ReplyMessage};

const HEAD: &[u8] = br#"{"jsonrpc":"2.0","method":"reply","params":{"call":""#;
const OUTCOME: &[u8] = br#","outcome":"#;
const RUN: &[u8] = br#","run":""#;
const TAIL: &[u8] = br#""}}"#;

/// A string's body up to its closing quote: `None` if it holds an escape or
/// a control character (the full parser decides those).
fn plain(bytes: &[u8]) -> Option<&str> {
    if bytes.iter().any(|&b| b == b'\\' || b == b'"' || b < 0x20) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// A canonical `reply` line's parts, its outcome's text not yet read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReplyParts<'a> {
    /// The `run` string, which holds no escape.
    pub(crate) run: &'a str,
    /// The `call` string, which holds no escape.
    pub(crate) call: &'a str,
    /// The `outcome` member's text, as written.
    pub(crate) outcome: &'a [u8],
}

/// The parts of a line in the canonical envelope (within the size limit),
/// or `None` for any other line.
pub(super) fn split_reply<'a>(line: &'a [u8], limits: &Limits) -> Option<ReplyParts<'a>> {
    if line.len() > limits.max_bytes {
        return None;
    }
    let rest = line.strip_prefix(HEAD)?;
    let close = rest.iter().position(|&b| b == b'"')?;
    let call = plain(&rest[..close])?;
    let rest = rest[close + 1..].strip_prefix(OUTCOME)?;
    let body = rest.strip_suffix(TAIL)?;
    // The run string holds no quote, so the last `,"run":"` starts it.
    let run_at = body.windows(RUN.len()).rposition(|w| w == RUN)?;
    let run = plain(&body[run_at + RUN.len()..])?;
    Some(ReplyParts { run, call, outcome: &body[..run_at] })
}

/// The reply a canonical `reply` line carries, or `None` for any other line.
#[cfg(test)]
fn parse_reply(line: &[u8], limits: &Limits) -> Option<Incoming> {
    parse_parts(split_reply(line, limits)?, limits)
}

/// The reply whose parts these are, its outcome parsed into a tree; `None`
/// when the outcome does not parse.
pub(super) fn parse_parts(parts: ReplyParts<'_>, limits: &Limits) -> Option<Incoming> {
    // The outcome is the third level of the message.
    let inner = Limits { max_depth: limits.max_depth.checked_sub(2)?, ..*limits };
    let outcome = json::parse(parts.outcome, &inner).ok()?;
    let key = CallKey { run: parts.run.to_owned(), call: parts.call.to_owned() };
    Some(Incoming::Reply(ReplyMessage { key, outcome }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_protocol::message::parse_line;

    fn both(line: &str) -> (Option<Incoming>, Incoming) {
        let limits = Limits::default();
        (parse_reply(line.as_bytes(), &limits), parse_line(line.as_bytes(), &limits))
    }

    #[test]
    fn a_canonical_reply_reads_as_the_full_parser_reads_it() {
        for line in [
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"7","outcome":{"Ok":{"city":"Oslo","days":2}},"run":"r"}}"#,
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"c","outcome":{"Ok":"a,\"run\":\"b"},"run":"été"}}"#,
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"","outcome":{"Failed":{"NotFound":null}},"run":""}}"#,
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"x","outcome":12345678901234567890.50,"run":"y"}}"#,
            // Space inside the outcome is the outcome's.
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome": {"Ok" : 1} ,"run":"r"}}"#,
        ] {
            let (fast, full) = both(line);
            assert_eq!(format!("{:?}", fast.expect(line)), format!("{full:?}"), "{line}");
        }
    }

    #[test]
    fn any_other_line_is_left_to_the_full_parser() {
        for line in [
            // Envelopes section 7 refuses: BadReply there, with its reason.
            r#"{"id":null,"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome":{"Ok":1},"run":"r"}}"#,
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome":{"Ok":1},"run":"r","x":1}}"#,
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome":{"Ok":1},"run":"r"},"x":1}"#,
            // Escapes, a duplicate key, an outcome that is not JSON.
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"\u0031","outcome":{"Ok":1},"run":"r"}}"#,
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome":{"Ok":1,"Ok":2},"run":"r"}}"#,
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome":{"Ok":1},"run":"r"},"run":"s"}}"#,
            r#"{"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome":{"Ok":},"run":"r"}}"#,
            r#"{"jsonrpc":"2.0","method":"call","params":{"args":{},"call":"1","run":"r","tool":"t"}}"#,
        ] {
            let (fast, _) = both(line);
            assert!(fast.is_none(), "{line}");
        }
    }

    #[test]
    fn the_outcome_counts_its_depth_from_the_message() {
        let limits = Limits { max_depth: 5, ..Limits::default() };
        // Message 1, params 2, outcome 3, its Ok 4, the array inside 5.
        let at_limit = br#"{"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome":{"Ok":[[]]},"run":"r"}}"#;
        assert!(parse_reply(at_limit, &limits).is_some());
        let past = br#"{"jsonrpc":"2.0","method":"reply","params":{"call":"1","outcome":{"Ok":[[[]]]},"run":"r"}}"#;
        assert!(parse_reply(past, &limits).is_none());
        assert!(!matches!(parse_line(past, &limits), Incoming::Reply(_)), "too deep for the full parser too");
    }
}
