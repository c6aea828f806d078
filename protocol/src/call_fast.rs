//! A `call` line in its canonical envelope, read without building the
//! envelope's tree: a Tool process's reader sees one per call.
//!
//! Only a line that is exactly `{"jsonrpc":"2.0","method":"call","params":
//! {"args":A,"call":C,"run":R,"tool":T}}` (a nongeneric call, as canonical
//! writers and serde_json write it), with C, R and T strings free of escapes
//! and control characters, is read here; its args are parsed alone, at the
//! depth they have in the line, and must be an object. Anything else, and
//! any args that do not parse, is `None`, for [`super::message::parse_line`]
//! to judge and to word its error: so this path only ever gives what that one
//! would.

use flow_core::json::{self, Json};
use flow_core::limits::Limits;

use super::message::{CallKey, CallMessage, Incoming};

const HEAD: &[u8] = br#"{"jsonrpc":"2.0","method":"call","params":{"args":"#;
const CALL: &[u8] = br#","call":"#;
const RUN: &[u8] = br#","run":"#;
const TOOL: &[u8] = br#","tool":"#;
const TAIL: &[u8] = b"}}";

/// Splits `"S"` off the end of `bytes` for a string S free of escapes and
/// control characters: `(what precedes it, S)`. Since S holds no quote, its
/// opening quote is the last one before its closing quote. One backward pass
/// finds that quote and refuses an escape or control byte met before it.
fn last_plain_string(bytes: &[u8]) -> Option<(&[u8], &str)> {
    let inner = bytes.strip_suffix(b"\"")?;
    let mut open = inner.len();
    loop {
        open = open.checked_sub(1)?;
        match inner[open] {
            b'"' => break,
            b'\\' | 0..=0x1f => return None,
            _ => {}
        }
    }
    Some((&inner[..open], std::str::from_utf8(&inner[open + 1..]).ok()?))
}

/// The call a canonical nongeneric `call` line carries, or `None` for any
/// other line.
pub(crate) fn parse_call(line: &[u8], limits: &Limits) -> Option<Incoming> {
    if line.len() > limits.max_bytes {
        return None;
    }
    let rest = line.strip_prefix(HEAD)?.strip_suffix(TAIL)?;
    // From the end: each string is plain, so each member's start is exact.
    let (rest, tool) = last_plain_string(rest)?;
    let (rest, run) = last_plain_string(rest.strip_suffix(TOOL)?)?;
    let (rest, call) = last_plain_string(rest.strip_suffix(RUN)?)?;
    let args = rest.strip_suffix(CALL)?;
    // The args are the third level of the message.
    let inner = Limits { max_depth: limits.max_depth.checked_sub(2)?, ..*limits };
    let Json::Object(args) = json::parse(args, &inner).ok()? else { return None };
    let key = CallKey { run: run.to_owned(), call: call.to_owned() };
    Some(Incoming::Call(CallMessage { key, tool: tool.to_owned(), args, schema: None, types: None }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::parse_line;
    use flow_testkit::Rng;

    const TOOL_ID: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";

    fn canonical(args: &str, call: &str, run: &str, tool: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","method":"call","params":{{"args":{args},"call":{call},"run":{run},"tool":{tool}}}}}"#
        )
    }

    const ARGS: &[&str] = &[
        r#"{"city":"Oslo","days":2,"units":"None"}"#,
        r#"{"city":"Oslo","days":2e0,"units":"None"}"#,
        r#"{}"#,
        r#"{ "city" : "O\"slo" , "days":[1,{"a":null}] }"#,
        r#"{"city":"a\",\"call\":\"x","days":1}"#,
        r#"{"city":"Oslo","city":"Bergen"}"#,
        r#"{"v":[[[[[[[[[[1]]]]]]]]]]}"#,
        r#"{"v":12345678901234567890123456789.5}"#,
        r#"{"v":}"#,
        r#"[]"#,
        r#""text""#,
        r#"null"#,
        r#"{"v":"\ud800"}"#,
        "{\"v\":\"\u{e9}t\u{e9}\"}",
        " {\"city\":\"Oslo\"} ",
    ];
    const IDS: &[&str] = &[
        r#""c1""#,
        r#""""#,
        r#""r""#,
        "\"\u{e9}t\u{e9}\"",
        r#""a,\"run\":\"b""#,
        r#""\u0031""#,
        r#""x\\""#,
        r#"7"#,
        r#"null"#,
        r#"{"a":1}"#,
        r#""a b""#,
        "\"tab\there\"",
    ];

    /// A call line: canonical, or bent in one of the ways a line may differ.
    fn line(rng: &mut Rng) -> String {
        let args = if rng.below(2) == 0 { ARGS[0] } else { rng.pick(ARGS) };
        // Half the ids are plain, as hosts write them.
        let id = |rng: &mut Rng| if rng.below(2) == 0 { rng.pick(&IDS[..4]) } else { rng.pick(IDS) };
        let call = id(rng);
        let run = id(rng);
        let tool = if rng.below(4) == 0 { rng.pick(IDS).to_owned() } else { format!("\"{TOOL_ID}\"") };
        let base = canonical(args, call, run, &tool);
        match rng.below(12) {
            0..=4 => base,
            5 => base.replacen(":", ": ", 1 + rng.below(6)),
            6 => format!(
                r#"{{"jsonrpc":"2.0","method":"call","params":{{"call":{call},"args":{args},"run":{run},"tool":{tool}}}}}"#
            ),
            7 => base.replacen(r#""tool":"#, &format!(r#""call":{call},"tool":"#), 1),
            8 => base.replacen(r#""tool":"#, r#""types":{},"tool":"#, 1),
            9 => base.replacen(r#"{"jsonrpc""#, r#"{"id":1,"jsonrpc""#, 1),
            10 => base.replacen(r#""2.0""#, rng.pick(&[r#""1.0""#, r#""2.0 ""#, "2"]), 1),
            _ => {
                let cut = rng.below(base.len());
                if base.is_char_boundary(cut) {
                    base[..cut].to_owned()
                } else {
                    base
                }
            }
        }
    }

    #[test]
    fn every_line_reads_as_the_full_parser_reads_it_or_is_left_to_it() {
        let limits = Limits::default();
        let (mut fast_read, mut left) = (0, 0);
        for seed in 1..=4000u64 {
            let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let text = line(&mut rng);
            let full = parse_line(text.as_bytes(), &limits);
            match parse_call(text.as_bytes(), &limits) {
                Some(fast) => {
                    assert_eq!(fast, full, "seed {seed}: {text}");
                    fast_read += 1;
                }
                None => {
                    // Left over only when the full parser does not read it
                    // as a sound call with plain ids, or when it is not canonical.
                    if let Incoming::Call(c) = &full {
                        let plain = |s: &str| !s.contains(['"', '\\']) && !s.chars().any(|c| c < ' ');
                        assert!(
                            text != canonical_of(c) || !plain(&c.key.call) || !plain(&c.key.run) || !plain(&c.tool),
                            "seed {seed}: a canonical call was left over: {text}"
                        );
                    }
                    left += 1;
                }
            }
        }
        assert!(fast_read > 500 && left > 500, "{fast_read} read here, {left} left over");
    }

    /// The canonical line of a sound nongeneric call.
    fn canonical_of(c: &CallMessage) -> String {
        let string = |s: &str| {
            let mut out = String::new();
            json::write_string(&mut out, s);
            out
        };
        let args = Json::Object(c.args.clone()).to_canonical();
        canonical(&args, &string(&c.key.call), &string(&c.key.run), &string(&c.tool))
    }

    #[test]
    fn a_canonical_call_is_read_here() {
        let text = canonical(ARGS[0], r#""c1""#, r#""r""#, &format!("\"{TOOL_ID}\""));
        match parse_call(text.as_bytes(), &Limits::default()) {
            Some(Incoming::Call(c)) => {
                assert_eq!((c.key, c.tool.as_str()), (CallKey::new("r", "c1"), TOOL_ID));
                assert_eq!(Json::Object(c.args).to_canonical(), ARGS[0]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_args_count_their_depth_and_the_line_its_size_from_the_message() {
        let text = |v: &str| canonical(&format!(r#"{{"v":{v}}}"#), r#""c""#, r#""r""#, r#""t""#);
        // Message 1, params 2, args 3, the array inside 4 and 5.
        let limits = Limits { max_depth: 5, ..Limits::default() };
        assert!(parse_call(text("[[]]").as_bytes(), &limits).is_some());
        let past = text("[[[]]]");
        assert!(parse_call(past.as_bytes(), &limits).is_none());
        assert!(matches!(parse_line(past.as_bytes(), &limits), Incoming::BadCall { .. }), "too deep there too");
        let at = text("1");
        let limits = Limits { max_bytes: at.len(), ..Limits::default() };
        assert!(parse_call(at.as_bytes(), &limits).is_some());
        let limits = Limits { max_bytes: at.len() - 1, ..Limits::default() };
        assert!(parse_call(at.as_bytes(), &limits).is_none());
    }
}
