//! A JSON string's canonical text: the one writer every canonical writer and
//! every refusal that quotes a name uses. A leaf, so that `crate::error` can
//! quote without depending on the JSON reader.

/// Appends a string in canonical form: only `"`, `\` and U+0000..U+001F are
/// escaped, with the short escapes where they exist and lower-case `\u00xx`
/// otherwise; every other code point is written as itself.
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    // `run`: where the bytes not yet written start; `i`: the next to look at.
    let (mut run, mut i) = (0, 0);
    while i < bytes.len() {
        // Eight bytes at a time while none of them needs escaping.
        if let Some(word) = bytes.get(i..i + 8) {
            if !needs_escape(u64::from_le_bytes(word.try_into().expect("eight bytes"))) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[run..i]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        } else {
            out.push_str(escape);
        }
        i += 1;
        run = i;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// Whether any of eight bytes (a little-endian word) is `"`, `\` or below
/// 0x20. Exact: each test is nonzero only when some byte matches (a borrow
/// starts only at a matching byte).
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w & HIGH;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    (below(word, 0x20) | below(quote, 1) | below(backslash, 1)) != 0
}
