//! Exact JSON numbers, kept as normalized decimal digits so that a number is
//! never rounded and never materialized before the limits are checked.
//!
//! A `Number` is `(-1)^negative * digits * 10^exponent` where `digits` has no
//! leading or trailing zeros; zero has empty digits, exponent 0 and is never
//! negative (`-0` is `0`, `decisions.md` section 1). Two numbers are equal
//! exactly when their fields are, so `1.50`, `1.5` and `15e-1` are one value.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::{BigInt, Sign};

use crate::error::{Error, Rule};

/// An exact number, normalized: significant digits, a sign and an exponent, so `1.50` and `1.5` are one number.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Number {
    negative: bool,
    digits: Box<str>,
    exponent: i64,
}

/// Appends the canonical text of `Number::from_parts(negative, digits,
/// exponent)` without building the number (no digits to allocate).
pub fn write_parts(out: &mut String, negative: bool, digits: &str, exponent: i64) {
    match significant(digits, exponent) {
        Some((digits, exponent)) => write_plain(out, negative, digits, exponent),
        None => out.push('0'),
    }
}

/// The significant digits of `digits * 10^exponent` (no leading or trailing
/// zeros) and their exponent, clamped; `None` for zero.
fn significant(digits: &str, exponent: i64) -> Option<(&str, i64)> {
    let trimmed = digits.trim_start_matches('0');
    let significant = trimmed.trim_end_matches('0');
    if significant.is_empty() {
        return None;
    }
    let dropped = (trimmed.len() - significant.len()) as i64;
    Some((significant, exponent.saturating_add(dropped).clamp(-EXPONENT_CLAMP, EXPONENT_CLAMP)))
}

/// The decimal digits of `value`, written into the end of `buffer` (its
/// other bytes are left as they were).
#[inline]
pub fn u64_digits(mut value: u64, buffer: &mut [u8; 20]) -> &str {
    let mut start = buffer.len();
    loop {
        start -= 1;
        buffer[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    std::str::from_utf8(&buffer[start..]).expect("ASCII digits")
}

/// Appends `digits * 10^exponent` (digits significant: no leading or trailing
/// zeros, not empty) as plain decimal.
fn write_plain(out: &mut String, negative: bool, digits: &str, exponent: i64) {
    if negative {
        out.push('-');
    }
    let len = digits.len();
    if exponent >= 0 {
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', exponent as usize));
    } else {
        let fraction = exponent.unsigned_abs() as usize;
        if len > fraction {
            out.push_str(&digits[..len - fraction]);
            out.push('.');
            out.push_str(&digits[len - fraction..]);
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', fraction - len));
            out.push_str(digits);
        }
    }
}

/// Exponents are clamped here while parsing: any number with a non-zero digit
/// and an exponent this large is far past every digit limit, and the clamp keeps
/// the arithmetic from overflowing.
const EXPONENT_CLAMP: i64 = 1 << 48;

impl Number {
    /// The number zero.
    pub fn zero() -> Number {
        Number { negative: false, digits: "".into(), exponent: 0 }
    }

    /// Builds a number from significant digits (ASCII, any leading or trailing
    /// zeros) and an exponent, normalizing it.
    pub fn from_parts(negative: bool, digits: &str, exponent: i64) -> Number {
        match significant(digits, exponent) {
            Some((digits, exponent)) => Number { negative, digits: digits.into(), exponent },
            None => Number::zero(),
        }
    }

    /// The number of an integer.
    pub fn from_bigint(value: &BigInt) -> Number {
        let negative = value.sign() == Sign::Minus;
        let text = value.magnitude().to_str_radix(10);
        Number::from_parts(negative, &text, 0)
    }

    /// The number of an `i64`.
    pub fn from_i64(value: i64) -> Number {
        Number::from_bigint(&BigInt::from(value))
    }

    /// Whether the number is zero.
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Whether the number is below zero.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The significant digits, without leading or trailing zeros ("" for zero).
    pub fn digits(&self) -> &str {
        &self.digits
    }

    /// The power of ten the significant digits are multiplied by.
    pub fn exponent(&self) -> i64 {
        self.exponent
    }

    /// Whether the value is a whole number.
    pub fn is_whole(&self) -> bool {
        self.exponent >= 0
    }

    /// How many digits the canonical text has, sign and point not counted,
    /// computed without writing it out.
    pub fn canonical_digit_count(&self) -> u64 {
        digit_count(self.digits.len(), self.exponent)
    }

    /// Refuses the number when its canonical text would exceed `max_digits`.
    pub fn check_digits(&self, max_digits: u64) -> Result<(), Error> {
        if self.canonical_digit_count() > max_digits {
            return Err(too_many_digits(max_digits));
        }
        Ok(())
    }

    /// The integer value, when whole. Callers check the digit limit first: this
    /// materializes the number.
    pub fn to_bigint(&self) -> Option<BigInt> {
        if self.exponent < 0 {
            return None;
        }
        if self.digits.is_empty() {
            return Some(BigInt::from(0));
        }
        // Up to 19 digits fit a u64: no text to build and parse.
        if self.digits.len() as i64 + self.exponent <= 19 {
            let mut magnitude: u64 = 0;
            for d in self.digits.bytes() {
                magnitude = magnitude * 10 + u64::from(d - b'0');
            }
            for _ in 0..self.exponent {
                magnitude *= 10;
            }
            let magnitude = BigInt::from(magnitude);
            return Some(if self.negative { -magnitude } else { magnitude });
        }
        let mut text = String::with_capacity(self.digits.len() + self.exponent as usize);
        text.push_str(&self.digits);
        text.extend(std::iter::repeat_n('0', self.exponent as usize));
        let magnitude = BigInt::parse_bytes(text.as_bytes(), 10).expect("digits are ASCII decimal");
        Some(if self.negative { -magnitude } else { magnitude })
    }

    /// Appends the canonical text: plain decimal, no exponent, no superfluous
    /// zeros, `0` for zero.
    pub fn write_canonical(&self, out: &mut String) {
        if self.digits.is_empty() {
            out.push('0');
            return;
        }
        write_plain(out, self.negative, &self.digits, self.exponent);
    }

    /// The canonical text of the number, as the canonical form of JSON writes it.
    pub fn to_canonical(&self) -> String {
        let mut out = String::new();
        self.write_canonical(&mut out);
        out
    }

    /// Parses a complete JSON number (RFC 8259 grammar, nothing around it).
    pub fn parse_json(text: &str) -> Option<Number> {
        let (number, used) = scan_json_number(text.as_bytes(), 0)?;
        (used == text.len()).then(|| number.to_number())
    }

    /// The decimal order of the values.
    fn magnitude_cmp(&self, other: &Number) -> Ordering {
        // Compare by the position of the most significant digit, then digit-wise.
        let a_top = self.digits.len() as i64 + self.exponent;
        let b_top = other.digits.len() as i64 + other.exponent;
        a_top.cmp(&b_top).then_with(|| {
            let a = self.digits.as_bytes();
            let b = other.digits.as_bytes();
            let n = a.len().max(b.len());
            for i in 0..n {
                let x = a.get(i).copied().unwrap_or(b'0');
                let y = b.get(i).copied().unwrap_or(b'0');
                if x != y {
                    return x.cmp(&y);
                }
            }
            Ordering::Equal
        })
    }
}

impl Ord for Number {
    fn cmp(&self, other: &Number) -> Ordering {
        let sign = |n: &Number| {
            if n.is_zero() {
                0
            } else if n.negative {
                -1
            } else {
                1
            }
        };
        match sign(self).cmp(&sign(other)) {
            Ordering::Equal => {}
            unequal => return unequal,
        }
        match sign(self) {
            0 => Ordering::Equal,
            1 => self.magnitude_cmp(other),
            _ => other.magnitude_cmp(self),
        }
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Number) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_canonical())
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({})", self.to_canonical_capped())
    }
}

impl Number {
    /// Canonical text for messages: a huge number is abbreviated, never written out.
    pub fn to_canonical_capped(&self) -> String {
        if self.canonical_digit_count() <= 64 {
            self.to_canonical()
        } else {
            format!(
                "{}{}e{}",
                if self.negative { "-" } else { "" },
                self.digits.chars().take(20).collect::<String>(),
                self.exponent
            )
        }
    }
}

/// A JSON number as written, read without allocating: its sign, the digits
/// before and after the point (borrowed from the text) and the written
/// exponent (clamped). [`crate::json::read`] hands these to its sinks, which
/// either make a [`Number`] of it or, for small values, take the normalized
/// coefficient as an `i64` without any heap work.
#[derive(Debug, Clone, Copy)]
pub struct ScannedNumber<'a> {
    negative: bool,
    int: &'a [u8],
    frac: &'a [u8],
    exponent: i64,
    /// The written digits from the first non-zero one on (`counted` of
    /// them), and the first 19 of them as an integer.
    value: u64,
    counted: usize,
}

/// A number's normalized shape: where its significant digits are among the
/// written ones (`int` then `frac`), how many there are, and the exponent of
/// the last one, exactly as [`Number::from_parts`] computes them.
#[derive(Debug, Clone, Copy)]
struct Normal {
    lead: usize,
    len: usize,
    exponent: i64,
}

fn digit_count(len: usize, exponent: i64) -> u64 {
    let len = len as u64;
    if len == 0 {
        1
    } else if exponent >= 0 {
        len + exponent as u64
    } else {
        let fraction = exponent.unsigned_abs();
        if len > fraction {
            len
        } else {
            1 + fraction
        }
    }
}

fn too_many_digits(max_digits: u64) -> Error {
    Error::new(Rule::NumberTooLarge, format!("number has more than {max_digits} digits in canonical form"))
}

/// The exponent of a normalized number: the written one, less the fraction's
/// digits, plus the trailing zeros dropped; clamped as `from_parts` clamps it.
fn normal_exponent(written: i64, fraction: usize, dropped: usize) -> i64 {
    (written - fraction as i64).saturating_add(dropped as i64).clamp(-EXPONENT_CLAMP, EXPONENT_CLAMP)
}

impl<'a> ScannedNumber<'a> {
    /// Whether the written number has a minus sign.
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    fn normal(&self) -> Normal {
        let zeros = |digits: &[u8]| digits.iter().take_while(|&&d| d == b'0').count();
        let trailing = |digits: &[u8]| digits.iter().rev().take_while(|&&d| d == b'0').count();
        // The integer part has no leading zero unless it is "0".
        let lead = if self.int == b"0" { 1 + zeros(self.frac) } else { 0 };
        let total = self.int.len() + self.frac.len();
        if lead >= total {
            return Normal { lead: 0, len: 0, exponent: 0 };
        }
        let mut dropped = trailing(self.frac);
        if dropped == self.frac.len() {
            dropped += trailing(self.int);
        }
        Normal { lead, len: total - lead - dropped, exponent: normal_exponent(self.exponent, self.frac.len(), dropped) }
    }

    /// Refuses the number when its canonical text would exceed `max_digits`
    /// (as [`Number::check_digits`] does, without making the number).
    #[inline]
    pub fn check_digits(&self, max_digits: u64) -> Result<(), Error> {
        // Fewer written digits than the limit and a small exponent: no
        // canonical text can be longer (the common case, decided at once).
        let written = (self.int.len() + self.frac.len()) as u64;
        if written < max_digits && self.exponent.unsigned_abs() < max_digits - written {
            return Ok(());
        }
        let n = self.normal();
        if digit_count(n.len, n.exponent) > max_digits {
            return Err(too_many_digits(max_digits));
        }
        Ok(())
    }

    /// The exact value as `coefficient * 10^exponent`, normalized as a
    /// [`Number`] is (no trailing zeros; zero is `(0, 0)`), when the
    /// coefficient has at most 18 digits. No allocation.
    #[inline]
    pub fn small(&self) -> Option<(i64, i64)> {
        if self.counted == 0 {
            return Some((0, 0));
        }
        if self.counted > 19 {
            // Perhaps few significant digits and many zeros after them.
            let n = self.normal();
            if n.len > 18 {
                return None;
            }
            let mut c: i64 = 0;
            for &d in self.int.iter().chain(self.frac).skip(n.lead).take(n.len) {
                c = c * 10 + i64::from(d - b'0');
            }
            return Some((if self.negative { -c } else { c }, n.exponent));
        }
        let mut c = self.value;
        let mut dropped = 0;
        while c % 10 == 0 {
            c /= 10;
            dropped += 1;
        }
        if self.counted - dropped > 18 {
            return None;
        }
        let c = c as i64;
        Some((if self.negative { -c } else { c }, normal_exponent(self.exponent, self.frac.len(), dropped)))
    }

    /// Appends the significant digits (none for zero) and returns the
    /// exponent, as the [`Number`] of this text would hold them.
    pub fn write_digits(&self, out: &mut Vec<u8>) -> i64 {
        let n = self.normal();
        let (int, frac) = self.significant(n);
        out.extend_from_slice(int);
        out.extend_from_slice(frac);
        n.exponent
    }

    /// The `n.len` significant digits, which may span the integer and the
    /// fraction parts: the integer part's share, then the fraction's.
    fn significant(&self, n: Normal) -> (&'a [u8], &'a [u8]) {
        let (lead, end) = (n.lead, n.lead + n.len);
        let int = self.int.len();
        let from_int = if lead < int { &self.int[lead..end.min(int)] } else { &[][..] };
        let from_frac = if end > int { &self.frac[lead.max(int) - int..end - int] } else { &[][..] };
        (from_int, from_frac)
    }

    /// Appends the canonical text, as [`Number::write_canonical`] writes the
    /// [`Number`] of this text, without making the number.
    pub fn write_canonical(&self, out: &mut String) {
        let n = self.normal();
        if n.len == 0 {
            out.push('0');
            return;
        }
        if self.negative {
            out.push('-');
        }
        if n.exponent >= 0 {
            self.write_significant(out, n);
            out.extend(std::iter::repeat_n('0', n.exponent as usize));
            return;
        }
        let fraction = n.exponent.unsigned_abs() as usize;
        if n.len > fraction {
            let start = out.len();
            self.write_significant(out, n);
            // The digits are ASCII, so any byte offset among them is a char boundary.
            out.insert(start + n.len - fraction, '.');
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', fraction - n.len));
            self.write_significant(out, n);
        }
    }

    /// Appends the `n.len` significant digits.
    fn write_significant(&self, out: &mut String, n: Normal) {
        let (int, frac) = self.significant(n);
        out.push_str(ascii(int));
        out.push_str(ascii(frac));
    }

    /// The number, normalized.
    pub fn to_number(&self) -> Number {
        if self.frac.is_empty() {
            Number::from_parts(self.negative, ascii(self.int), self.exponent)
        } else {
            let mut all = String::with_capacity(self.int.len() + self.frac.len());
            all.push_str(ascii(self.int));
            all.push_str(ascii(self.frac));
            Number::from_parts(self.negative, &all, self.exponent - self.frac.len() as i64)
        }
    }
}

/// Eight ASCII digits at `i`, as their value.
#[inline]
fn eight_digits(bytes: &[u8], i: usize) -> Option<u32> {
    let chunk: [u8; 8] = bytes.get(i..i + 8)?.try_into().ok()?;
    let w = u64::from_le_bytes(chunk);
    // Every byte 0x30..=0x39 (Lemire's test and sum, "Fast numeric string to int").
    if (w & 0xF0F0_F0F0_F0F0_F0F0) | ((w.wrapping_add(0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
        != 0x3333_3333_3333_3333
    {
        return None;
    }
    let mut v = w.wrapping_sub(0x3030_3030_3030_3030);
    v = v.wrapping_mul(10).wrapping_add(v >> 8);
    let mask = 0x0000_00FF_0000_00FF;
    v = ((v & mask)
        .wrapping_mul(100 + (1_000_000 << 32))
        .wrapping_add(((v >> 16) & mask).wrapping_mul(1 + (10_000 << 32))))
        >> 32;
    Some(v as u32)
}

/// Reads the digits at `i` on, adding the first of them to `value` while it
/// holds fewer than 19 (`counted`); leading zeros are the caller's.
#[inline]
fn digits(bytes: &[u8], i: &mut usize, value: &mut u64, counted: &mut usize) {
    while *counted <= 11 {
        match eight_digits(bytes, *i) {
            Some(eight) => {
                *value = *value * 100_000_000 + u64::from(eight);
                *counted += 8;
                *i += 8;
            }
            None => break,
        }
    }
    while *counted < 19 {
        match bytes.get(*i) {
            Some(&d @ b'0'..=b'9') => {
                *value = *value * 10 + u64::from(d - b'0');
                *counted += 1;
                *i += 1;
            }
            _ => return,
        }
    }
    let start = *i;
    while eight_digits(bytes, *i).is_some() {
        *i += 8;
    }
    while matches!(bytes.get(*i), Some(b'0'..=b'9')) {
        *i += 1;
    }
    *counted += *i - start;
}

/// Scans a JSON number starting at `start`; returns it and the index after it,
/// or `None` when the bytes there are not a JSON number.
#[inline]
pub fn scan_json_number(bytes: &[u8], start: usize) -> Option<(ScannedNumber<'_>, usize)> {
    let mut i = start;
    let negative = bytes.get(i) == Some(&b'-');
    if negative {
        i += 1;
    }
    let mut value: u64 = 0;
    let mut counted = 0;
    let int_start = i;
    match bytes.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => digits(bytes, &mut i, &mut value, &mut counted),
        _ => return None,
    }
    let int_end = i;
    let mut frac_start = i;
    let mut frac_end = i;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        frac_start = i;
        if counted == 0 {
            // After "0.", zeros lead.
            while bytes.get(i) == Some(&b'0') {
                i += 1;
            }
        }
        digits(bytes, &mut i, &mut value, &mut counted);
        if i == frac_start {
            return None;
        }
        frac_end = i;
    }
    let mut exponent: i64 = 0;
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        let exp_negative = match bytes.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let exp_start = i;
        while let Some(&d @ b'0'..=b'9') = bytes.get(i) {
            exponent = (exponent * 10 + (d - b'0') as i64).min(EXPONENT_CLAMP);
            i += 1;
        }
        if i == exp_start {
            return None;
        }
        if exp_negative {
            exponent = -exponent;
        }
    }
    let (int, frac) = (&bytes[int_start..int_end], &bytes[frac_start..frac_end]);
    Some((ScannedNumber { negative, int, frac, exponent, value, counted }, i))
}

fn ascii(bytes: &[u8]) -> &str {
    // The bytes scanned are ASCII digits.
    std::str::from_utf8(bytes).expect("ASCII digits")
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_testkit::Rng;

    fn canon(text: &str) -> String {
        Number::parse_json(text).unwrap().to_canonical()
    }

    #[test]
    fn canonical_text() {
        assert_eq!(canon("1.50"), "1.5");
        assert_eq!(canon("-0"), "0");
        assert_eq!(canon("-0.0e7"), "0");
        assert_eq!(canon("1e3"), "1000");
        assert_eq!(canon("10.0"), "10");
        assert_eq!(canon("0.001"), "0.001");
        assert_eq!(canon("123.456e1"), "1234.56");
        assert_eq!(canon("-12e-5"), "-0.00012");
        assert_eq!(canon("100"), "100");
    }

    #[test]
    fn digit_count_matches_written_text() {
        for text in ["0", "1e4299", "1e-4299", "12.5", "0.00012", "-120", "1e-1"] {
            let n = Number::parse_json(text).unwrap();
            let written = n.to_canonical().bytes().filter(u8::is_ascii_digit).count() as u64;
            assert_eq!(n.canonical_digit_count(), written, "{text}");
        }
        assert_eq!(Number::parse_json("1e4299").unwrap().canonical_digit_count(), 4300);
        assert_eq!(Number::parse_json("1e-4299").unwrap().canonical_digit_count(), 4300);
        assert_eq!(Number::parse_json("1e4300").unwrap().canonical_digit_count(), 4301);
        assert_eq!(Number::parse_json("1e-4300").unwrap().canonical_digit_count(), 4301);
        assert!(Number::parse_json("1e99999999999999999999999").unwrap().canonical_digit_count() > 4300);
    }

    #[test]
    fn to_bigint_agrees_on_both_sides_of_the_u64_fast_path() {
        for text in [
            "0",
            "-0",
            "7",
            "-12e3",
            "9999999999999999999",
            "18446744073709551615",
            "1e18",
            "1e19",
            "-1e19",
            "12345678901234567890123",
        ] {
            let n = Number::parse_json(text).unwrap();
            let expected = BigInt::parse_bytes(n.to_canonical().as_bytes(), 10).unwrap();
            assert_eq!(n.to_bigint(), Some(expected), "{text}");
        }
        assert_eq!(Number::parse_json("1.5").unwrap().to_bigint(), None);
    }

    #[test]
    fn order_is_numeric() {
        let n = |t| Number::parse_json(t).unwrap();
        assert!(n("-2") < n("-1.5"));
        assert!(n("-1") < n("0"));
        assert!(n("0") < n("0.0001"));
        assert!(n("9") < n("10"));
        assert!(n("1.25") < n("1.3"));
        assert_eq!(n("1.50").cmp(&n("15e-1")), Ordering::Equal);
    }

    /// Every view a sink takes of a scanned number agrees with the Number it
    /// makes: the small coefficient, the digits, and the digit limit.
    #[test]
    fn scanned_views_agree_with_the_number() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "0.000",
            "-0.0e9",
            "7",
            "-7",
            "10",
            "1e3",
            "100e-2",
            "0.5",
            "-0.05",
            "1.50",
            "15e-1",
            "120.0300e2",
            "999999999999999999",
            "1000000000000000000",
            "9999999999999999999",
            "123456789012345678.9",
            "0.000000000000000001",
            "1e4299",
            "1e4300",
            "1e-4299",
            "1e-4300",
            "12.5e-4298",
            "1e99999999999999999999",
            "-1e-99999999999999999999",
            "0e99999999999999999999",
            "123456789012345678901234567890",
            "10000000000000000000000",
            "1234567890123456789000",
            "123456789012345678000",
            "-0.0000000000000000000001234500",
            "1234567890123456789",
            "9223372036854775807",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        // Generated forms: signs, zeros around the digits, fractions, exponents.
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u64| rng.next_u64() % n;
        for _ in 0..5000 {
            let mut t = String::new();
            if next(2) == 0 {
                t.push('-');
            }
            let int_len = next(22) as usize;
            if int_len == 0 {
                t.push('0');
            } else {
                t.push(char::from(b'1' + next(9) as u8));
                for _ in 1..int_len {
                    t.push(if next(3) == 0 { '0' } else { char::from(b'0' + next(10) as u8) });
                }
            }
            if next(2) == 0 {
                t.push('.');
                for _ in 0..1 + next(22) {
                    t.push(if next(3) == 0 { '0' } else { char::from(b'0' + next(10) as u8) });
                }
            }
            if next(3) == 0 {
                t.push(['e', 'E'][next(2) as usize]);
                t.push_str(["", "+", "-"][next(3) as usize]);
                let bound = [10, 100, 5000][next(3) as usize];
                t.push_str(&next(bound).to_string());
            }
            texts.push(t);
        }
        for text in &texts {
            let (scanned, used) = scan_json_number(text.as_bytes(), 0).unwrap();
            assert_eq!(used, text.len(), "{text}");
            let n = scanned.to_number();
            let mut digits = Vec::new();
            assert_eq!(scanned.write_digits(&mut digits), n.exponent(), "{text}");
            assert_eq!(digits, n.digits().as_bytes(), "{text}");
            match scanned.small() {
                Some((c, e)) => {
                    assert!(n.digits().len() <= 18, "{text}");
                    assert_eq!(Number::from_parts(c < 0, &c.unsigned_abs().to_string(), e), n, "{text}");
                }
                None => assert!(n.digits().len() > 18, "{text}"),
            }
            for max in [0, 1, 5, 18, 19, 40, 4300] {
                assert_eq!(scanned.check_digits(max).is_ok(), n.check_digits(max).is_ok(), "{text} under {max}");
            }
        }
    }

    #[test]
    fn grammar() {
        for bad in ["01", "+1", "1.", ".1", "1e", "1e+", "-", "--1", "0x1", "1.e3", "Infinity"] {
            assert!(Number::parse_json(bad).is_none(), "{bad}");
        }
    }
}
