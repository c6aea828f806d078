//! Random JSON texts for canonicalization: any value written in any of the
//! forms JSON allows (whitespace, escapes, exponents, member order), texts
//! that sit exactly at a limit or one past it (depth 128 and 129, 4,300
//! digits and 4,301), duplicate keys (also ones equal only once unescaped),
//! and broken texts (truncated, invalid UTF-8, a BOM, lone surrogates, what
//! other parsers accept: NaN, trailing commas, leading zeros). Every text
//! is bytes: some are not UTF-8.

use flow_core::Limits;

use crate::Rng;

const MAX_DEPTH: usize = Limits::DEFAULT.max_depth;
const MAX_DIGITS: usize = Limits::DEFAULT.max_digits as usize;

fn ws(rng: &mut Rng, out: &mut Vec<u8>) {
    if rng.chance(70) {
        return;
    }
    for _ in 0..1 + rng.below(3) {
        out.push(rng.pick(b" \t\n\r"));
    }
}

fn digits(rng: &mut Rng, count: usize, out: &mut Vec<u8>) {
    for _ in 0..count {
        out.push(b'0' + rng.below(10) as u8);
    }
}

/// A number in any valid form: `-0`, `0.000`, `1E+3`, `12.50e-7`, long.
fn number(rng: &mut Rng, out: &mut Vec<u8>) {
    if rng.chance(10) {
        out.extend_from_slice(rng.pick(&[
            &b"0"[..],
            b"-0",
            b"0.0",
            b"-0.0e0",
            b"0e-999",
            b"1e0",
            b"1E+2",
            b"100e-2",
            b"9007199254740993",
            b"-9223372036854775809",
            b"18446744073709551616",
            b"1e4299",
            b"1e-4299",
        ]));
        return;
    }
    if rng.chance(40) {
        out.push(b'-');
    }
    let len = if rng.chance(5) { 50 + rng.below(200) as usize } else { 1 + rng.below(20) as usize };
    if rng.chance(20) {
        out.push(b'0');
    } else {
        out.push(b'1' + rng.below(9) as u8);
        digits(rng, len - 1, out);
    }
    if rng.chance(40) {
        out.push(b'.');
        let n = 1 + rng.below(12) as usize;
        digits(rng, n, out);
    }
    if rng.chance(30) {
        out.push(rng.pick(b"eE"));
        if rng.chance(50) {
            out.push(rng.pick(b"+-"));
        }
        let n = 1 + rng.below(3) as usize;
        digits(rng, n, out);
    }
}

/// A string: raw characters, every short escape, `\u` escapes (surrogate
/// pairs included), raw non-ASCII.
fn string(rng: &mut Rng, out: &mut Vec<u8>) {
    const PIECES: [&str; 20] = [
        "a",
        "key",
        "Zürich",
        "東京",
        "🌧",
        "\\\"",
        "\\\\",
        "\\/",
        "\\b",
        "\\f",
        "\\n",
        "\\r",
        "\\t",
        "\\u0000",
        "\\u00e9",
        "\\u00E9",
        "\\ud83c\\udf27",
        "\\u2028",
        "\u{7f}",
        "__proto__",
    ];
    out.push(b'"');
    for _ in 0..rng.below(5) {
        out.extend_from_slice(rng.pick(&PIECES).as_bytes());
    }
    out.push(b'"');
}

fn value(rng: &mut Rng, depth: usize, out: &mut Vec<u8>) {
    ws(rng, out);
    match if depth == 0 { rng.below(5) } else { rng.below(7) } {
        0 => out.extend_from_slice(b"null"),
        1 => out.extend_from_slice(rng.pick(&[&b"true"[..], b"false"])),
        2 | 3 => number(rng, out),
        4 => string(rng, out),
        5 => {
            out.push(b'[');
            for i in 0..rng.below(4) {
                if i > 0 {
                    out.push(b',');
                }
                value(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push(b']');
        }
        _ => {
            out.push(b'{');
            // Distinct keys by a counter, in no particular order.
            let count = rng.below(4);
            let base = rng.below(1000);
            for i in 0..count {
                if i > 0 {
                    out.push(b',');
                }
                ws(rng, out);
                out.extend_from_slice(format!("\"k{}\"", (base + i * 7919) % 1000).as_bytes());
                ws(rng, out);
                out.push(b':');
                value(rng, depth - 1, out);
            }
            ws(rng, out);
            out.push(b'}');
        }
    }
    ws(rng, out);
}

/// Arrays (or objects) nested `depth` deep around `inner`.
fn nested(rng: &mut Rng, depth: usize, inner: &[u8]) -> Vec<u8> {
    let arrays = rng.chance(50);
    let mut out = Vec::new();
    for _ in 0..depth {
        out.extend_from_slice(if arrays { b"[" } else { b"{\"a\":" });
    }
    out.extend_from_slice(inner);
    for _ in 0..depth {
        out.push(if arrays { b']' } else { b'}' });
    }
    out
}

fn long_number(rng: &mut Rng, count: usize) -> Vec<u8> {
    let mut out = vec![b'1' + rng.below(9) as u8];
    digits(rng, count - 1, &mut out);
    out
}

/// Texts at the limits and just past them, and other hostile-but-valid ones.
fn hostile(rng: &mut Rng) -> Vec<u8> {
    match rng.below(12) {
        0 => nested(rng, MAX_DEPTH, b"1"),
        1 => nested(rng, MAX_DEPTH + 1, b"1"),
        2 => nested(rng, MAX_DEPTH - 1, b"[]"),
        3 => long_number(rng, MAX_DIGITS),
        4 => long_number(rng, MAX_DIGITS + 1),
        // 4,300 digits as a fraction: `0.` then zeros then a digit.
        5 => format!("0.{}1", "0".repeat(MAX_DIGITS - 2 + rng.below(3) as usize)).into_bytes(),
        6 => rng
            .pick(&[
                &b"1e5000"[..],
                b"-1e-5000",
                b"1e4300",
                b"1e-4300",
                b"1E+999999999999999999999",
                b"0e999999999999999999999",
            ])
            .to_vec(),
        // Equal keys once unescaped.
        7 => rng
            .pick(&[
                &br#"{"a":1,"\u0061":2}"#[..],
                r#"{"\u00e9":1,"é":2}"#.as_bytes(),
                br#"{"b":{"a":1,"a":1}}"#,
                br#"[{"x":1},{"y":1,"x":2,"y":3}]"#,
            ])
            .to_vec(),
        8 => {
            let mut out = b"{".to_vec();
            let n = 2 + rng.below(300);
            for i in 0..n {
                out.extend_from_slice(format!("\"k{}\":{},", i % (n - 1), i).as_bytes());
            }
            out.pop();
            out.push(b'}');
            out
        }
        9 => {
            // Long strings of escapes and non-ASCII.
            let mut out = b"\"".to_vec();
            for _ in 0..rng.below(2000) {
                out.extend_from_slice(rng.pick(&[
                    &b"\\u00e9"[..],
                    "é".as_bytes(),
                    b"\\n",
                    b"\\ud83c\\udf27",
                    "🌧".as_bytes(),
                ]));
            }
            out.push(b'"');
            out
        }
        10 => format!("[{}]", vec!["1"; 5000].join(",")).into_bytes(),
        _ => format!("{{{}}}", (0..2000).map(|i| format!("\"{i:05}\":{i}")).collect::<Vec<_>>().join(",")).into_bytes(),
    }
}

/// Broken texts: refused by every reader, each with its rule and path.
fn broken(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    value(rng, 3, &mut out);
    match rng.below(16) {
        0 => {
            let cut = rng.below(out.len() as u64) as usize;
            out.truncate(cut);
            out
        }
        1 => [&b"\xef\xbb\xbf"[..], &out].concat(),
        2 => b"\"\xff\"".to_vec(),
        3 => b"[\"\xc3\"]".to_vec(),
        4 => b"{\"\xed\xa0\x80\":1}".to_vec(),
        5 => br#"["\ud800"]"#.to_vec(),
        6 => br#"{"a":"\udc00x"}"#.to_vec(),
        7 => rng
            .pick(&[
                &b"NaN"[..],
                b"Infinity",
                b"-Infinity",
                b"[1,]",
                b"{\"a\":1,}",
                b"01",
                b"-",
                b"1.",
                b".5",
                b"1e",
                b"+1",
                b"0x10",
            ])
            .to_vec(),
        8 => rng.pick(&[&b""[..], b" ", b"\n", b"nul", b"tru", b"[", b"{", b"\"", b"\"\\x\"", b"\"\\u12\""]).to_vec(),
        9 => b"\"a\tb\"".to_vec(),
        10 => [&out, &b" x"[..]].concat(),
        11 => [&out, &b" 1"[..]].concat(),
        12 => b"{'a':1}".to_vec(),
        13 => b"[1 2]".to_vec(),
        14 => b"{\"a\" 1}".to_vec(),
        _ => b"\"\x00\"".to_vec(),
    }
}

/// One random JSON text: mostly valid in any form, some hostile, some broken.
pub fn random_json_text(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    match rng.below(10) {
        0 | 1 => hostile(&mut rng),
        2 | 3 => broken(&mut rng),
        _ => {
            let mut out = Vec::new();
            let depth = 1 + rng.below(5) as usize;
            value(&mut rng, depth, &mut out);
            out
        }
    }
}
