//! Hostile messages (issue 8, item 4): one catalog of texts past every limit
//! of `decisions.md` 2 or breaking a reading rule, each with the rule that
//! must refuse it. The same texts go into a call's args (the server core),
//! a reply's outcome (the host client) and each binding's decode.
//!
//! Texts are built with their exact capacity, so building one costs its size
//! once and a memory reading of the process that builds it stays honest.

use flow_core::Limits;

pub const MAX_BYTES: usize = Limits::DEFAULT.max_bytes;

/// The Tools of [`LISTING`]: which one a case is sent to decides the type its
/// value is decoded at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `json(value: json.Value) -> json.Value`
    Json,
    /// `bytes(data: Bytes) -> Bytes`
    Bytes,
    /// `text(text: Text) -> Text`
    Text,
}

impl Tool {
    pub fn identity(self) -> &'static str {
        match self {
            Tool::Json => "github.com/example/hostile@0.1.0/h.flow.json",
            Tool::Bytes => "github.com/example/hostile@0.1.0/h.flow.bytes",
            Tool::Text => "github.com/example/hostile@0.1.0/h.flow.text",
        }
    }

    pub fn param(self) -> &'static str {
        match self {
            Tool::Json => "value",
            Tool::Bytes => "data",
            Tool::Text => "text",
        }
    }

    /// The type term of its parameter and success value.
    pub fn term(self) -> &'static str {
        match self {
            Tool::Json => "\"json.Value\"",
            Tool::Bytes => "\"Bytes\"",
            Tool::Text => "\"Text\"",
        }
    }
}

/// The listing the hostile Tool process serves.
pub const LISTING: &str = r#"{"data":"0.1","declarations":{},"tools":[
{"tool":"github.com/example/hostile@0.1.0/h.flow.json","doc":null,"generic":[],"params":[{"name":"value","type":"json.Value"}],"ok":"json.Value","err":"Never"},
{"tool":"github.com/example/hostile@0.1.0/h.flow.bytes","doc":null,"generic":[],"params":[{"name":"data","type":"Bytes"}],"ok":"Bytes","err":"Never"},
{"tool":"github.com/example/hostile@0.1.0/h.flow.text","doc":null,"generic":[],"params":[{"name":"text","type":"Text"}],"ok":"Text","err":"Never"}]}"#;

pub struct Case {
    pub name: &'static str,
    pub tool: Tool,
    /// The rule code that refuses it.
    pub rule: &'static str,
    /// What it is, for the table in docs/testing.md.
    pub what: &'static str,
}

impl Case {
    /// Whether JSON reading itself refuses it (else only decoding at its
    /// type does: base64 is a valid JSON string).
    pub fn refused_as_json(&self) -> bool {
        self.rule != "base64"
    }
}

pub const CASES: [Case; 10] = [
    Case {
        name: "too-large",
        tool: Tool::Text,
        rule: "too-large",
        what: "a message of 16 MiB + 1 byte (a long string)",
    },
    Case { name: "too-deep", tool: Tool::Json, rule: "too-deep", what: "arrays nested 129 deep" },
    Case { name: "big-exponent", tool: Tool::Json, rule: "number-too-large", what: "`1e5000`" },
    Case { name: "small-exponent", tool: Tool::Json, rule: "number-too-large", what: "`-1e-5000`" },
    Case { name: "huge-exponent", tool: Tool::Json, rule: "number-too-large", what: "`1e999999999999999999999`" },
    Case { name: "duplicate-keys", tool: Tool::Json, rule: "duplicate-key", what: "one key 10^6 times" },
    Case {
        name: "duplicate-keys-spread",
        tool: Tool::Json,
        rule: "duplicate-key",
        what: "500,000 keys, then each again (10^6 members)",
    },
    Case {
        name: "huge-base64",
        tool: Tool::Bytes,
        rule: "base64",
        what: "12 MiB of base64 ending in a character outside its alphabet",
    },
    Case {
        name: "invalid-utf8",
        tool: Tool::Text,
        rule: "utf8",
        what: "a 1 MiB string with an invalid UTF-8 byte at its end",
    },
    Case {
        name: "lone-surrogate",
        tool: Tool::Text,
        rule: "lone-surrogate",
        what: "a 1 MiB string ending in an escaped lone surrogate",
    },
];

/// The fixed part of every memory bound: allocator arenas, a reader
/// thread's buffers, the reply written back.
pub const BASELINE: u64 = 4 * 1024 * 1024;

/// The most that reading `size` bytes of `case` may add to a process's peak
/// resident memory: three times the message, plus [`BASELINE`] (issue 8).
/// `duplicate-keys-spread` is held to what any object of its 500,000
/// distinct members costs before its first repeat is read: the JSON tree
/// spends over 100 bytes a member, which for keys of a few bytes is some
/// six times the text (docs/testing.md, "Hardening").
pub fn memory_bound(case: &Case, size: u64) -> u64 {
    let factor = if case.name == "duplicate-keys-spread" { 10 } else { 3 };
    factor * size + BASELINE
}

pub fn case(name: &str) -> Option<&'static Case> {
    CASES.iter().find(|c| c.name == name)
}

fn repeated(
    prefix: &[u8],
    item: impl Fn(usize, &mut Vec<u8>),
    count: usize,
    separator: u8,
    suffix: &[u8],
    capacity: usize,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity);
    out.extend_from_slice(prefix);
    for i in 0..count {
        if i > 0 {
            out.push(separator);
        }
        item(i, &mut out);
    }
    out.extend_from_slice(suffix);
    out
}

/// The case's value as JSON text, embedded in a message that adds `around`
/// bytes (0 for a text decoded alone): only `too-large` depends on it, so
/// that the whole message is 16 MiB + 1 byte.
pub fn value_text(case: &Case, around: usize) -> Vec<u8> {
    match case.name {
        "too-large" => {
            let len = MAX_BYTES + 1 - around;
            let mut out = Vec::with_capacity(len);
            out.push(b'"');
            out.resize(len - 1, b'a');
            out.push(b'"');
            out
        }
        "too-deep" => [vec![b'['; 129], vec![b']'; 129]].concat(),
        "big-exponent" => b"1e5000".to_vec(),
        "small-exponent" => b"-1e-5000".to_vec(),
        "huge-exponent" => b"1e999999999999999999999".to_vec(),
        "duplicate-keys" => {
            repeated(b"{", |_, out| out.extend_from_slice(b"\"a\":0"), 1_000_000, b',', b"}", 6_000_001)
        }
        "duplicate-keys-spread" => repeated(
            b"{",
            |i, out| {
                out.extend_from_slice(b"\"");
                out.extend_from_slice((i % 500_000).to_string().as_bytes());
                out.extend_from_slice(b"\":0");
            },
            1_000_000,
            b',',
            b"}",
            11_000_000,
        ),
        "huge-base64" => {
            // Whole groups of four, the last one holding a `!`.
            let len = 12 * 1024 * 1024;
            let mut out = Vec::with_capacity(len + 2);
            out.push(b'"');
            out.resize(len, b'A');
            out.push(b'!');
            out.push(b'"');
            out
        }
        "invalid-utf8" => {
            let mut out = Vec::with_capacity(1 << 20);
            out.push(b'"');
            out.resize((1 << 20) - 2, b'a');
            out[(1 << 20) - 3] = 0xff;
            out.push(b'"');
            out
        }
        "lone-surrogate" => {
            let mut out = Vec::with_capacity(1 << 20);
            out.push(b'"');
            out.resize((1 << 20) - 8, b'a');
            out.extend_from_slice(b"\\ud800\"");
            out
        }
        other => panic!("no hostile case {other}"),
    }
}

const CALL_HEAD: &str = "{\"jsonrpc\":\"2.0\",\"method\":\"call\",\"params\":{\"args\":{";

/// A whole call line (with its `\n`) whose one argument is the case's value.
pub fn call_line(case: &Case, run: &str, call: &str) -> Vec<u8> {
    let head = format!("{CALL_HEAD}\"{}\":", case.tool.param());
    let tail = format!("}},\"call\":\"{call}\",\"run\":\"{run}\",\"tool\":\"{}\"}}}}", case.tool.identity());
    message(case, head.as_bytes(), tail.as_bytes())
}

/// A whole reply line (with its `\n`) answering Ok with the case's value.
pub fn reply_line(case: &Case, run: &str, call: &str) -> Vec<u8> {
    let head =
        format!("{{\"jsonrpc\":\"2.0\",\"method\":\"reply\",\"params\":{{\"call\":\"{call}\",\"outcome\":{{\"Ok\":");
    let tail = format!("}},\"run\":\"{run}\"}}}}");
    message(case, head.as_bytes(), tail.as_bytes())
}

fn message(case: &Case, head: &[u8], tail: &[u8]) -> Vec<u8> {
    let value = value_text(case, head.len() + tail.len());
    let mut out = Vec::with_capacity(head.len() + value.len() + tail.len() + 1);
    out.extend_from_slice(head);
    out.extend_from_slice(&value);
    out.extend_from_slice(tail);
    out.push(b'\n');
    out
}
