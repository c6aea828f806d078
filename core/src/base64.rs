//! Bytes as standard base64 with padding (RFC 4648 section 4), read strictly:
//! `decisions.md` section 1 refuses anything whose re-encoding differs (missing
//! padding, whitespace, URL-safe letters, non-zero pad bits).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Appends the canonical base64 text of `bytes` (standard alphabet, padded) to `out`.
pub fn encode(bytes: &[u8], out: &mut String) {
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32;
        for shift in [18, 12, 6, 0] {
            out.push(ALPHABET[(n >> shift & 63) as usize] as char);
        }
    }
    match *chunks.remainder() {
        [a] => {
            let n = (a as u32) << 16;
            out.push(ALPHABET[(n >> 18 & 63) as usize] as char);
            out.push(ALPHABET[(n >> 12 & 63) as usize] as char);
            out.push_str("==");
        }
        [a, b] => {
            let n = (a as u32) << 16 | (b as u32) << 8;
            out.push(ALPHABET[(n >> 18 & 63) as usize] as char);
            out.push(ALPHABET[(n >> 12 & 63) as usize] as char);
            out.push(ALPHABET[(n >> 6 & 63) as usize] as char);
            out.push('=');
        }
        _ => {}
    }
}

fn sextet(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

/// What a refusal says of a character outside the alphabet.
const OUTSIDE: &str = "a character outside the standard base64 alphabet";

/// Decodes canonical base64; `Err` says what is wrong.
pub fn decode(text: &str) -> Result<Vec<u8>, &'static str> {
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return Err("length is not a multiple of 4 (padding is required)");
    }
    // Every character is checked before any output is allocated: a text
    // refused for its last character (12 MiB of base64 ending in `!`) costs
    // no decoded bytes on top of itself. Padding is at most the last two.
    let pad = bytes.iter().rev().take_while(|&&c| c == b'=').count();
    if bytes[..bytes.len() - pad].iter().any(|&c| sextet(c).is_none()) {
        return Err(OUTSIDE);
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for (i, quad) in bytes.chunks_exact(4).enumerate() {
        let last = (i + 1) * 4 == bytes.len();
        let pad = if last { quad.iter().rev().take_while(|&&c| c == b'=').count() } else { 0 };
        if pad > 2 {
            return Err("too much padding");
        }
        let mut n = 0u32;
        for &c in &quad[..4 - pad] {
            n = n << 6 | sextet(c).ok_or(OUTSIDE)?;
        }
        n <<= 6 * pad as u32;
        match pad {
            0 => out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]),
            1 => {
                if n & 0xff != 0 {
                    return Err("non-zero pad bits");
                }
                out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8]);
            }
            _ => {
                if n & 0xffff != 0 {
                    return Err("non-zero pad bits");
                }
                out.push((n >> 16) as u8);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_refusals() {
        for (raw, text) in [(&b""[..], ""), (b"f", "Zg=="), (b"fo", "Zm8="), (b"foo", "Zm9v"), (b"\xfb\xff", "+/8=")] {
            let mut s = String::new();
            encode(raw, &mut s);
            assert_eq!(s, text);
            assert_eq!(decode(text).unwrap(), raw);
        }
        for bad in ["Zg", "Zg=", "Zh==", "Zm9v\n", "-_8=", "Z===", "Zg==Zg==", "====", "Zm9v!A=="] {
            assert!(decode(bad).is_err(), "{bad}");
        }
        // Which refusal: the alphabet wherever a character breaks it, then
        // padding, then the pad bits.
        assert_eq!(decode("Zm9vZm9vZm9v!AAA"), Err(OUTSIDE));
        assert_eq!(decode("Zm=v"), Err(OUTSIDE));
        assert_eq!(decode("Zm9vZ==="), Err("too much padding"));
        assert_eq!(decode("Zh=="), Err("non-zero pad bits"));
    }
}
