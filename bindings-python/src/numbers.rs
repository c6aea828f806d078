//! Canonical number text read straight from Python's `int` and
//! `decimal.Decimal`, without going through their `str`: the encoder's fast
//! path. Each reader answers None for anything it does not cover (past 128
//! bits, past 76 significant digits, NaN and Infinity, a Decimal whose layout
//! is not the one checked at start-up, a number past the digit limit), and the
//! caller then takes the checked path, which words every refusal.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// An int's value when it fits an i64, without raising. `value` must be an int.
pub fn small_int(value: &Bound<'_, PyAny>) -> Option<i64> {
    let mut overflow = 0;
    // SAFETY: `value` is an int (checked by the caller); with an overflow
    // flag the call sets no exception.
    let small = unsafe { ffi::PyLong_AsLongLongAndOverflow(value.as_ptr(), &mut overflow) };
    // SAFETY: the GIL is held (`value` is bound to it).
    let raised = small == -1 && unsafe { !ffi::PyErr_Occurred().is_null() };
    (overflow == 0 && !raised).then_some(small)
}

/// Writes a decimal integer (ASCII digits: the String stays UTF-8).
pub fn push_int(out: &mut String, value: impl itoa::Integer) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// The canonical text of an exact `int`: i64 and i128 read directly, without
/// Python's decimal conversion. False, with nothing written, past 128 bits or
/// past `max_digits` (the caller takes the general path, which words the
/// refusal); like that path, an i64 is not held to the limit.
pub fn write_int(value: &Bound<'_, PyAny>, out: &mut String, max_digits: u64) -> bool {
    if let Some(small) = small_int(value) {
        push_int(out, small);
        return true;
    }
    let Ok(big) = value.extract::<i128>() else { return false };
    let mut buffer = itoa::Buffer::new();
    let text = buffer.format(big);
    if text.trim_start_matches('-').len() as u64 > max_digits {
        return false;
    }
    out.push_str(text);
    true
}

/// The canonical text of `(-1)^negative × digits × 10^exponent`: plain
/// notation, no exponent, no trailing zero after a point, no `-0` (the rules
/// of `flow_core::Number::write_canonical`). `digits` are ASCII digits with no
/// leading zero (but "0" for zero), possibly ending in zeros. False, with
/// nothing written, when the text would hold more than `max_digits` digits
/// (counted as `Number::canonical_digit_count` does).
pub fn write_plain(out: &mut String, negative: bool, digits: &[u8], exponent: i64, max_digits: u64) -> bool {
    let significant = digits.iter().rposition(|&d| d != b'0').map_or(0, |last| last + 1);
    if significant == 0 {
        if max_digits < 1 {
            return false;
        }
        out.push('0');
        return true;
    }
    let (digits, exponent) = (&digits[..significant], i128::from(exponent) + (digits.len() - significant) as i128);
    let len = significant as i128;
    let count = if exponent >= 0 {
        len + exponent
    } else if len > -exponent {
        len
    } else {
        1 - exponent
    };
    if count > i128::from(max_digits) {
        return false;
    }
    fn text(digits: &[u8]) -> &str {
        // SAFETY: ASCII digits.
        unsafe { std::str::from_utf8_unchecked(digits) }
    }
    if negative {
        out.push('-');
    }
    if exponent >= 0 {
        out.push_str(text(digits));
        out.extend(std::iter::repeat_n('0', exponent as usize));
    } else {
        let fraction = (-exponent) as usize;
        if significant > fraction {
            out.push_str(text(&digits[..significant - fraction]));
            out.push('.');
            out.push_str(text(&digits[significant - fraction..]));
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', fraction - significant));
            out.push_str(text(digits));
        }
    }
    true
}

// The C decimal's object (CPython's Modules/_decimal/_decimal.c, unchanged
// from 3.3 through 3.13) around libmpdec's `mpd_t` (mpdecimal.h, 64-bit
// configuration): a coefficient in base-10^19 words, least significant first,
// and an exponent. Read only after `layout_checked` has compared this reading
// with `str()` on sample values, on the running interpreter.
#[repr(C)]
struct MpdT {
    flags: u8,
    exp: isize,
    digits: isize,
    len: isize,
    alloc: isize,
    data: *const u64,
}

#[repr(C)]
struct PyDecObject {
    ob_base: ffi::PyObject,
    hash: ffi::Py_hash_t,
    dec: MpdT,
    // mpd_uint_t data[4] follows: the coefficient's words when they fit.
}

const MPD_NEG: u8 = 1;
/// MPD_INF | MPD_NAN | MPD_SNAN.
const MPD_SPECIAL: u8 = 2 | 4 | 8;
const MPD_RADIX: u64 = 10_000_000_000_000_000_000;
/// The most coefficient words read here (76 digits); longer ones take `str`.
const MAX_WORDS: usize = 4;

/// The coefficient, sign and exponent of a C decimal, as ASCII digits.
/// `value` must be exactly the C `decimal.Decimal` whose layout was checked.
fn read_mpd(value: &Bound<'_, PyAny>, digits: &mut [u8; MAX_WORDS * 19]) -> Option<(bool, usize, i64)> {
    // SAFETY: the caller checked that `value` is exactly the Decimal type
    // whose instances have this layout (`layout_checked`); Decimals are
    // immutable, and the GIL is held.
    let dec = unsafe { &(*(value.as_ptr() as *const PyDecObject)).dec };
    if dec.flags & MPD_SPECIAL != 0 || dec.len < 1 || dec.len as usize > MAX_WORDS || dec.data.is_null() {
        return None;
    }
    // SAFETY: `data` holds `len` initialized words (len <= alloc).
    let words = unsafe { std::slice::from_raw_parts(dec.data, dec.len as usize) };
    let mut at = 0;
    for (i, &word) in words.iter().rev().enumerate() {
        if word >= MPD_RADIX {
            return None;
        }
        let mut buffer = itoa::Buffer::new();
        let text = buffer.format(word).as_bytes();
        if i > 0 {
            // Lower words are written with their leading zeros.
            let pad = 19 - text.len();
            digits[at..at + pad].fill(b'0');
            at += pad;
        }
        digits[at..at + text.len()].copy_from_slice(text);
        at += text.len();
    }
    (at as isize == dec.digits).then_some((dec.flags & MPD_NEG != 0, at, dec.exp as i64))
}

/// Whether the running interpreter's `decimal.Decimal` is the C decimal with
/// the layout above: its size, and the reading of sample values agreeing with
/// their `str()`. Checked once.
fn layout_checked(class: &Bound<'_, PyType>) -> bool {
    static CHECKED: PyOnceLock<bool> = PyOnceLock::new();
    *CHECKED.get_or_init(class.py(), || check_layout(class).unwrap_or(false))
}

fn check_layout(class: &Bound<'_, PyType>) -> PyResult<bool> {
    // `__basicsize__` rather than the type object's field: the stable ABI hides its layout.
    let size: usize = class.getattr(pyo3::intern!(class.py(), "__basicsize__"))?.extract()?;
    if cfg!(not(target_pointer_width = "64")) || size != std::mem::size_of::<PyDecObject>() + MAX_WORDS * 8 {
        return Ok(false);
    }
    const SAMPLES: &[&str] = &[
        "0",
        "-0",
        "0E+5",
        "-7",
        "1.50",
        "-0.000123",
        "1E+3",
        "9999999999999999999",
        "10000000000000000000",
        "-123456789012345678901234567890.1234567890",
        "1234567890123456789012345678901234567890123456789012345678901234567890123456",
        "4.2E-30",
    ];
    for sample in SAMPLES {
        let value = class.call1((*sample,))?;
        let mut digits = [0u8; MAX_WORDS * 19];
        let Some((negative, len, exponent)) = read_mpd(&value, &mut digits) else { return Ok(false) };
        let mut fast = String::new();
        write_plain(&mut fast, negative, &digits[..len], exponent, u64::MAX);
        let text = value.str()?;
        let Some(number) = flow_core::Number::parse_json(text.to_str()?) else { return Ok(false) };
        if fast != number.to_canonical() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The canonical text of a finite Decimal of exactly the type `class` (the
/// `decimal.Decimal` the caller checked `value` against), read from its
/// coefficient and exponent. False, with nothing written, for what the
/// checked path must handle or refuse.
pub fn write_decimal(value: &Bound<'_, PyAny>, class: &Bound<'_, PyType>, out: &mut String, max_digits: u64) -> bool {
    if !layout_checked(class) {
        return false;
    }
    let mut digits = [0u8; MAX_WORDS * 19];
    match read_mpd(value, &mut digits) {
        Some((negative, len, exponent)) => write_plain(out, negative, &digits[..len], exponent, max_digits),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_core::Number;

    #[test]
    fn plain_text_matches_the_core() {
        let cases: &[(bool, &str, i64)] = &[
            (false, "0", 0),
            (true, "0", 7),
            (false, "0", -3),
            (false, "5", 0),
            (true, "50", -1),
            (false, "123", 2),
            (false, "123", -1),
            (false, "123", -3),
            (true, "123", -5),
            (false, "1000", -2),
            (false, "1000", -6),
            (false, "1200", 3),
        ];
        for &(negative, digits, exponent) in cases {
            let mut fast = String::new();
            assert!(write_plain(&mut fast, negative, digits.as_bytes(), exponent, u64::MAX));
            let number = Number::from_parts(negative, digits, exponent);
            assert_eq!(fast, number.to_canonical(), "{negative} {digits} {exponent}");
            for limit in 0..12 {
                let mut out = String::new();
                let ok = write_plain(&mut out, negative, digits.as_bytes(), exponent, limit);
                assert_eq!(ok, number.check_digits(limit).is_ok(), "{digits}e{exponent} at {limit}");
                assert_eq!(out.is_empty(), !ok);
            }
        }
    }

    #[test]
    fn huge_exponents_are_refused_not_written() {
        let mut out = String::new();
        assert!(!write_plain(&mut out, false, b"1", i64::MAX, 4300));
        assert!(!write_plain(&mut out, false, b"1", i64::MIN, 4300));
        assert!(out.is_empty());
    }
}
