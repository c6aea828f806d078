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

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Number {
    negative: bool,
    digits: Box<str>,
    exponent: i64,
}

/// Exponents are clamped here while parsing: any number with a non-zero digit
/// and an exponent this large is far past every digit limit, and the clamp keeps
/// the arithmetic from overflowing.
const EXPONENT_CLAMP: i64 = 1 << 48;

impl Number {
    pub fn zero() -> Number {
        Number { negative: false, digits: "".into(), exponent: 0 }
    }

    /// Builds a number from significant digits (ASCII, any leading or trailing
    /// zeros) and an exponent, normalizing it.
    pub fn from_parts(negative: bool, digits: &str, exponent: i64) -> Number {
        let trimmed = digits.trim_start_matches('0');
        let significant = trimmed.trim_end_matches('0');
        if significant.is_empty() {
            return Number::zero();
        }
        let dropped = (trimmed.len() - significant.len()) as i64;
        Number {
            negative,
            digits: significant.into(),
            exponent: exponent.saturating_add(dropped).clamp(-EXPONENT_CLAMP, EXPONENT_CLAMP),
        }
    }

    pub fn from_bigint(value: &BigInt) -> Number {
        let negative = value.sign() == Sign::Minus;
        let text = value.magnitude().to_str_radix(10);
        Number::from_parts(negative, &text, 0)
    }

    pub fn from_i64(value: i64) -> Number {
        Number::from_bigint(&BigInt::from(value))
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// The significant digits, without leading or trailing zeros ("" for zero).
    pub fn digits(&self) -> &str {
        &self.digits
    }

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
        let len = self.digits.len() as u64;
        if len == 0 {
            1
        } else if self.exponent >= 0 {
            len + self.exponent as u64
        } else {
            let fraction = self.exponent.unsigned_abs();
            if len > fraction {
                len
            } else {
                1 + fraction
            }
        }
    }

    /// Refuses the number when its canonical text would exceed `max_digits`.
    pub fn check_digits(&self, max_digits: u64) -> Result<(), Error> {
        if self.canonical_digit_count() > max_digits {
            return Err(Error::new(
                Rule::NumberTooLarge,
                format!("number has more than {max_digits} digits in canonical form"),
            ));
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
        if self.negative {
            out.push('-');
        }
        let len = self.digits.len();
        if self.exponent >= 0 {
            out.push_str(&self.digits);
            out.extend(std::iter::repeat_n('0', self.exponent as usize));
        } else {
            let fraction = self.exponent.unsigned_abs() as usize;
            if len > fraction {
                out.push_str(&self.digits[..len - fraction]);
                out.push('.');
                out.push_str(&self.digits[len - fraction..]);
            } else {
                out.push_str("0.");
                out.extend(std::iter::repeat_n('0', fraction - len));
                out.push_str(&self.digits);
            }
        }
    }

    pub fn to_canonical(&self) -> String {
        let mut out = String::new();
        self.write_canonical(&mut out);
        out
    }

    /// Parses a complete JSON number (RFC 8259 grammar, nothing around it).
    pub fn parse_json(text: &str) -> Option<Number> {
        let (number, used) = scan_json_number(text.as_bytes(), 0)?;
        (used == text.len()).then_some(number)
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
        let sign = |n: &Number| if n.is_zero() { 0 } else if n.negative { -1 } else { 1 };
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
            format!("{}{}e{}", if self.negative { "-" } else { "" }, self.digits.chars().take(20).collect::<String>(), self.exponent)
        }
    }
}

/// Scans a JSON number starting at `start`; returns it and the index after it,
/// or `None` when the bytes there are not a JSON number.
pub(crate) fn scan_json_number(bytes: &[u8], start: usize) -> Option<(Number, usize)> {
    let mut i = start;
    let negative = bytes.get(i) == Some(&b'-');
    if negative {
        i += 1;
    }
    let int_start = i;
    match bytes.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while matches!(bytes.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        _ => return None,
    }
    let int_end = i;
    let mut frac_start = i;
    let mut frac_end = i;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        frac_start = i;
        while matches!(bytes.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
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
    // The bytes scanned are ASCII digits, so these slices are valid UTF-8.
    let int_digits = &bytes[int_start..int_end];
    let frac_digits = &bytes[frac_start..frac_end];
    let frac_len = frac_digits.len() as i64;
    let number = if frac_digits.is_empty() {
        Number::from_parts(negative, ascii(int_digits), exponent)
    } else {
        let mut all = String::with_capacity(int_digits.len() + frac_digits.len());
        all.push_str(ascii(int_digits));
        all.push_str(ascii(frac_digits));
        Number::from_parts(negative, &all, exponent - frac_len)
    };
    Some((number, i))
}

fn ascii(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("ASCII digits")
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for text in ["0", "-0", "7", "-12e3", "9999999999999999999", "18446744073709551615", "1e18", "1e19", "-1e19", "12345678901234567890123"] {
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

    #[test]
    fn grammar() {
        for bad in ["01", "+1", "1.", ".1", "1e", "1e+", "-", "--1", "0x1", "1.e3", "Infinity"] {
            assert!(Number::parse_json(bad).is_none(), "{bad}");
        }
    }
}
