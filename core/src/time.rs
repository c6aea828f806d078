//! Instant and Duration: exact integer nanoseconds (`decisions.md` section 1),
//! their strict text forms and their canonical text (`host-boundary.md`, "The
//! canonical form"). Dates are proleptic Gregorian without leap seconds.

use std::fmt;

const NANOS_PER_SECOND: i128 = 1_000_000_000;
const NANOS_PER_DAY: i128 = 86_400 * NANOS_PER_SECOND;

/// A point in time: nanoseconds since 1970-01-01T00:00:00Z, within
/// plus or minus 8.64e21 ns (100,000,000 days, the range of TC39 Temporal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant {
    nanos: i128,
}

/// A span of time: nanoseconds, magnitude at most 1.728e22.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration {
    nanos: i128,
}

/// Why a text is not an Instant or Duration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeError {
    /// Not of the accepted form; says what is wrong.
    Form(String),
    /// Well-formed but outside the range.
    Range(String),
}

impl Instant {
    /// The largest distance from the epoch an Instant may have, in nanoseconds (100,000,000 days).
    pub const MAX_NANOS: i128 = 8_640_000_000_000_000_000_000;

    /// The instant `nanos` nanoseconds from the epoch, or `None` past [`Instant::MAX_NANOS`].
    pub fn from_nanos(nanos: i128) -> Option<Instant> {
        (nanos.abs() <= Self::MAX_NANOS).then_some(Instant { nanos })
    }

    /// Nanoseconds from the epoch.
    pub fn nanos(self) -> i128 {
        self.nanos
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|+HH:MM|-HH:MM)`.
    pub fn parse(text: &str) -> Result<Instant, TimeError> {
        let form = |what: &str| TimeError::Form(format!("{what} in Instant {}", quote(text)));
        let b = text.as_bytes();
        let mut i = 0;
        // Year: four digits, or a sign and at least four.
        let sign = match b.first() {
            Some(b'+') => {
                i = 1;
                1
            }
            Some(b'-') => {
                i = 1;
                -1
            }
            _ => 0,
        };
        let year_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let year_digits = &text[year_start..i];
        if year_digits.len() < 4 || (sign == 0 && year_digits.len() != 4) {
            return Err(form("the year takes four digits, or a sign and at least four"));
        }
        if year_digits.len() > 12 {
            return Err(TimeError::Range(format!("Instant {} is outside the range of ±8.64e21 ns", quote(text))));
        }
        let magnitude: i64 = year_digits.parse().expect("digits");
        if sign == -1 && magnitude == 0 {
            return Err(form("a negative zero year"));
        }
        let year = if sign == -1 { -magnitude } else { magnitude };
        let rest = &b[i..];
        // -MM-DDTHH:MM:SS
        if rest.len() < 15
            || rest[0] != b'-'
            || rest[3] != b'-'
            || rest[6] != b'T'
            || rest[9] != b':'
            || rest[12] != b':'
        {
            return Err(form("expected -MM-DDTHH:MM:SS after the year"));
        }
        let two = |at: usize| -> Result<i64, TimeError> {
            match (rest[at], rest[at + 1]) {
                (x @ b'0'..=b'9', y @ b'0'..=b'9') => Ok(((x - b'0') * 10 + (y - b'0')) as i64),
                _ => Err(form("expected two digits")),
            }
        };
        let (month, day, hour, minute, second) = (two(1)?, two(4)?, two(7)?, two(10)?, two(13)?);
        if !(1..=12).contains(&month) {
            return Err(form("month out of 01..12"));
        }
        if day < 1 || day > days_in_month(year, month) {
            return Err(form("day out of its month"));
        }
        if hour > 23 {
            return Err(form("hour out of 00..23"));
        }
        if minute > 59 {
            return Err(form("minute out of 00..59"));
        }
        if second > 59 {
            return Err(form("second out of 00..59 (leap seconds are not represented)"));
        }
        let mut j = 15;
        let mut fraction: i128 = 0;
        if rest.get(j) == Some(&b'.') {
            j += 1;
            let start = j;
            while rest.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            let digits = j - start;
            if digits == 0 || digits > 9 {
                return Err(form("the fraction takes 1 to 9 digits"));
            }
            let value: i128 = std::str::from_utf8(&rest[start..j]).expect("digits").parse().expect("digits");
            fraction = value * 10i128.pow((9 - digits) as u32);
        }
        let offset_minutes: i64 = match &rest[j..] {
            [b'Z'] => 0,
            [s @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
                let digit =
                    |c: &u8| if c.is_ascii_digit() { Ok((c - b'0') as i64) } else { Err(form("malformed offset")) };
                let (h, m) = (digit(h1)? * 10 + digit(h2)?, digit(m1)? * 10 + digit(m2)?);
                if h > 23 || m > 59 {
                    return Err(form("offset out of 00:00..23:59"));
                }
                let total = h * 60 + m;
                if *s == b'-' {
                    -total
                } else {
                    total
                }
            }
            _ => return Err(form("expected Z, +HH:MM or -HH:MM at the end")),
        };
        let days = days_from_civil(year, month, day) as i128;
        let seconds = (hour * 3600 + minute * 60 + second - offset_minutes * 60) as i128;
        let nanos = days * NANOS_PER_DAY + seconds * NANOS_PER_SECOND + fraction;
        Instant::from_nanos(nanos)
            .ok_or_else(|| TimeError::Range(format!("Instant {} is outside the range of ±8.64e21 ns", quote(text))))
    }

    /// Canonical text: UTC, `Z`, the fewest exact fraction digits.
    pub fn write_canonical(self, out: &mut String) {
        let days = days_of(self.nanos);
        // Under a day of nanoseconds: the rest is 64-bit arithmetic.
        let in_day = (self.nanos - days as i128 * NANOS_PER_DAY) as u64;
        let (year, month, day) = civil_from_days(days);
        let mut text = Text::new();
        if year < 0 {
            text.byte(b'-');
        } else if year > 9999 {
            text.byte(b'+');
        }
        text.padded(year.unsigned_abs(), 4);
        let seconds = in_day / NANOS_PER_SECOND as u64;
        for (separator, part) in [
            (b'-', month as u64),
            (b'-', day as u64),
            (b'T', seconds / 3600),
            (b':', seconds / 60 % 60),
            (b':', seconds % 60),
        ] {
            text.byte(separator);
            text.two(part);
        }
        text.fraction(in_day % NANOS_PER_SECOND as u64);
        text.byte(b'Z');
        text.append_to(out);
    }
}

/// The day of `nanos` since the epoch, rounded down, without 128-bit
/// division: a day is 2^16 * 1,318,359,375 ns, and flooring by each factor in
/// turn floors by their product. A shift floors by 2^16 and leaves under
/// 2^58 in magnitude (an Instant is under 2^73 ns), which 64 bits divide.
fn days_of(nanos: i128) -> i64 {
    const ODD_PART: i64 = 1_318_359_375;
    const _: () = assert!(ODD_PART as i128 * (1 << 16) == NANOS_PER_DAY);
    ((nanos >> 16) as i64).div_euclid(ODD_PART)
}

impl Duration {
    /// The largest magnitude a Duration may have, in nanoseconds (200,000,000 days).
    pub const MAX_NANOS: i128 = 17_280_000_000_000_000_000_000;

    /// The duration of `nanos` nanoseconds, or `None` past [`Duration::MAX_NANOS`].
    pub fn from_nanos(nanos: i128) -> Option<Duration> {
        (nanos.abs() <= Self::MAX_NANOS).then_some(Duration { nanos })
    }

    /// The length in nanoseconds.
    pub fn nanos(self) -> i128 {
        self.nanos
    }

    /// Reads `PT<seconds>S`: seconds a plain decimal (JSON's number grammar
    /// without exponent) with an optional `-` and at most 9 fraction digits.
    pub fn parse(text: &str) -> Result<Duration, TimeError> {
        let form = |what: &str| TimeError::Form(format!("{what} in Duration {}", quote(text)));
        let Some(body) = text.strip_prefix("PT").and_then(|t| t.strip_suffix('S')) else {
            return Err(form("expected PT<seconds>S"));
        };
        let (negative, digits) = match body.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, body),
        };
        let (whole, fraction) = match digits.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (digits, None),
        };
        if whole.is_empty() || !whole.bytes().all(|c| c.is_ascii_digit()) || (whole.len() > 1 && whole.starts_with('0'))
        {
            return Err(form("the seconds must be a plain decimal without leading zeros"));
        }
        let mut nanos_fraction: i128 = 0;
        if let Some(f) = fraction {
            if f.is_empty() || f.len() > 9 || !f.bytes().all(|c| c.is_ascii_digit()) {
                return Err(form("the fraction takes 1 to 9 digits"));
            }
            nanos_fraction = f.parse::<i128>().expect("digits") * 10i128.pow((9 - f.len()) as u32);
        }
        let out_of_range = || TimeError::Range(format!("Duration {} is past the limit of 1.728e22 ns", quote(text)));
        if whole.len() > 20 {
            return Err(out_of_range());
        }
        let seconds: i128 = whole.parse().expect("digits");
        let magnitude = seconds * NANOS_PER_SECOND + nanos_fraction;
        Duration::from_nanos(if negative { -magnitude } else { magnitude }).ok_or_else(out_of_range)
    }

    /// Canonical text: `PT90S`, `PT0.25S`, `PT-5S`.
    pub fn write_canonical(self, out: &mut String) {
        let mut text = Text::new();
        text.bytes_of(b"PT");
        if self.nanos < 0 {
            text.byte(b'-');
        }
        let magnitude = self.nanos.unsigned_abs();
        // At most 1.728e13 seconds: a u64 holds them.
        text.padded((magnitude / NANOS_PER_SECOND as u128) as u64, 1);
        text.fraction((magnitude % NANOS_PER_SECOND as u128) as u64);
        text.byte(b'S');
        text.append_to(out);
    }
}

/// A canonical time's text, built on the stack and appended to the output
/// once: times are written once per value on the reply path, and a push per
/// field costs more than the field's digits. 40 bytes hold the longest
/// (`-271821-04-20T00:00:00.000000001Z` is 33, a Duration at most 28).
struct Text {
    bytes: [u8; 40],
    len: usize,
}

impl Text {
    fn new() -> Text {
        Text { bytes: [0; 40], len: 0 }
    }

    fn byte(&mut self, b: u8) {
        self.bytes[self.len] = b;
        self.len += 1;
    }

    fn bytes_of(&mut self, bytes: &[u8]) {
        self.bytes[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    /// `value` in decimal, zero-padded to at least `width` digits (what
    /// `{value:0width$}` writes).
    fn padded(&mut self, value: u64, width: usize) {
        // The digits go to the end of a buffer of zeros, which pad them.
        let mut digits = [b'0'; 20];
        let start = digits.len() - crate::number::u64_digits(value, &mut digits).len();
        self.bytes_of(&digits[start.min(digits.len() - width)..]);
    }

    /// A field under 100 as its two digits.
    fn two(&mut self, value: u64) {
        self.byte(b'0' + (value / 10) as u8);
        self.byte(b'0' + (value % 10) as u8);
    }

    /// `.` and the fewest digits of `nanos` as nine fraction digits; nothing
    /// for 0. All nine are written, then the trailing zeros dropped.
    fn fraction(&mut self, mut nanos: u64) {
        if nanos == 0 {
            return;
        }
        self.byte(b'.');
        let end = self.len + 9;
        for at in (self.len..end).rev() {
            self.bytes[at] = b'0' + (nanos % 10) as u8;
            nanos /= 10;
        }
        self.len = end;
        while self.bytes[self.len - 1] == b'0' {
            self.len -= 1;
        }
    }

    fn append_to(&self, out: &mut String) {
        out.push_str(std::str::from_utf8(&self.bytes[..self.len]).expect("ASCII digits and signs"));
    }
}

fn quote(text: &str) -> String {
    let mut s = String::new();
    crate::json::write_string(&mut s, text);
    s
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    (year, month, day)
}

impl fmt::Display for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_canonical(&mut s);
        f.write_str(&s)
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_canonical(&mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The canonical texts as `format!` writes them: what the writers above
    /// must match byte for byte.
    fn reference_instant(i: Instant) -> String {
        let days = i.nanos.div_euclid(NANOS_PER_DAY);
        let in_day = i.nanos.rem_euclid(NANOS_PER_DAY);
        let (year, month, day) = civil_from_days(days as i64);
        let mut out = if (0..=9999).contains(&year) {
            format!("{year:04}")
        } else if year < 0 {
            format!("-{:04}", -year)
        } else {
            format!("+{year:04}")
        };
        let seconds = in_day / NANOS_PER_SECOND;
        let nanos = in_day % NANOS_PER_SECOND;
        out += &format!("-{month:02}-{day:02}T{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
        out + &reference_fraction(nanos) + "Z"
    }

    fn reference_fraction(nanos: i128) -> String {
        if nanos == 0 {
            return String::new();
        }
        format!(".{}", format!("{nanos:09}").trim_end_matches('0'))
    }

    fn reference_duration(d: Duration) -> String {
        let magnitude = d.nanos.unsigned_abs();
        let sign = if d.nanos < 0 { "-" } else { "" };
        let fraction = reference_fraction((magnitude % NANOS_PER_SECOND as u128) as i128);
        format!("PT{sign}{}{fraction}S", magnitude / NANOS_PER_SECOND as u128)
    }

    #[test]
    fn canonical_times_are_the_formatted_texts() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut nanos: Vec<i128> = vec![0, 1, -1, 999_999_999, -1_000_000_000, NANOS_PER_DAY - 1, -NANOS_PER_DAY];
        nanos.extend([Instant::MAX_NANOS, -Instant::MAX_NANOS, Duration::MAX_NANOS, -Duration::MAX_NANOS]);
        for _ in 0..20_000 {
            let wide = ((next() as i128) << 64 | next() as i128) % Duration::MAX_NANOS;
            // Whole seconds and short fractions as often as any nanosecond.
            let rounded = wide - wide % 10i128.pow((next() % 10) as u32);
            nanos.extend([wide, rounded, (next() as i64) as i128]);
        }
        for n in nanos {
            if let Some(i) = Instant::from_nanos(n) {
                let mut out = String::new();
                i.write_canonical(&mut out);
                assert_eq!(out, reference_instant(i), "{n}");
            }
            let d = Duration::from_nanos(n).unwrap();
            let mut out = String::new();
            d.write_canonical(&mut out);
            assert_eq!(out, reference_duration(d), "{n}");
        }
    }

    #[test]
    fn days_are_the_128_bit_floor_division() {
        let mut nanos = vec![Instant::MAX_NANOS, -Instant::MAX_NANOS, 0, 1, -1];
        for k in [-100_000_000i128, -1, 0, 1, 99_999_999] {
            for delta in [-(1 << 16) - 1, -(1 << 16), -1, 0, 1, 1 << 16] {
                nanos.push(k * NANOS_PER_DAY + delta);
            }
        }
        for n in nanos.into_iter().filter(|n| n.abs() <= Instant::MAX_NANOS) {
            assert_eq!(days_of(n) as i128, n.div_euclid(NANOS_PER_DAY), "{n}");
        }
    }

    fn instant(t: &str) -> String {
        Instant::parse(t).map(|i| i.to_string()).unwrap_or_else(|e| format!("{e:?}"))
    }

    #[test]
    fn instants() {
        assert_eq!(instant("1970-01-01T00:00:00Z"), "1970-01-01T00:00:00Z");
        assert_eq!(instant("2024-02-29T23:59:59.120+01:30"), "2024-02-29T22:29:59.12Z");
        assert_eq!(instant("2024-01-01T00:00:00-00:00"), "2024-01-01T00:00:00Z");
        assert_eq!(instant("+2024-01-01T00:00:00.000000001Z"), "2024-01-01T00:00:00.000000001Z");
        assert_eq!(instant("+10000-01-01T00:00:00Z"), "+10000-01-01T00:00:00Z");
        assert_eq!(instant("-0001-12-31T23:59:59Z"), "-0001-12-31T23:59:59Z");
        assert_eq!(instant("0000-01-01T00:00:00Z"), "0000-01-01T00:00:00Z");
        assert_eq!(instant("+275760-09-13T00:00:00Z"), "+275760-09-13T00:00:00Z");
        assert_eq!(instant("-271821-04-20T00:00:00Z"), "-271821-04-20T00:00:00Z");
        assert_eq!(Instant::parse("+275760-09-13T00:00:00Z").unwrap().nanos(), Instant::MAX_NANOS);
        assert!(matches!(Instant::parse("+275760-09-13T00:00:00.000000001Z"), Err(TimeError::Range(_))));
        for bad in [
            "2023-02-29T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:60Z",
            "2024-01-01t00:00:00Z",
            "2024-01-01T00:00:00z",
            "2024-01-01T00:00:00.1234567890Z",
            "-0000-01-01T00:00:00Z",
            "24-01-01T00:00:00Z",
            "2024-01-01T00:00:00+24:00",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00.Z",
        ] {
            assert!(matches!(Instant::parse(bad), Err(TimeError::Form(_))), "{bad}");
        }
    }

    #[test]
    fn durations() {
        let d = |t: &str| Duration::parse(t).map(|d| d.to_string());
        assert_eq!(d("PT90S").unwrap(), "PT90S");
        assert_eq!(d("PT0.25S").unwrap(), "PT0.25S");
        assert_eq!(d("PT-5S").unwrap(), "PT-5S");
        assert_eq!(d("PT-0S").unwrap(), "PT0S");
        assert_eq!(d("PT1.50S").unwrap(), "PT1.5S");
        assert_eq!(d("PT-0.000000001S").unwrap(), "PT-0.000000001S");
        assert_eq!(d("PT17280000000000S").unwrap(), "PT17280000000000S");
        assert!(matches!(Duration::parse("PT17280000000000.000000001S"), Err(TimeError::Range(_))));
        for bad in ["PT01S", "PT1M30S", "P1D", "PT+5S", "PT1e3S", "PT1.S", "PT.5S", "PT0.1234567891S", "PTS", "pt1s"] {
            assert!(matches!(Duration::parse(bad), Err(TimeError::Form(_))), "{bad}");
        }
    }
}
