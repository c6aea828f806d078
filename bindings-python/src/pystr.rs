//! A Python `str` from UTF-8 text, built in one allocation of the right kind.
//!
//! CPython's own decoder (what `PyString::new` calls) starts narrow and widens
//! its result, copying it, each time it meets a wider character: canonical
//! text that holds an emoji late is decoded into Latin-1, then UCS-2, then
//! UCS-4. Here the kind is known before writing: in valid UTF-8 the largest
//! byte tells it (continuation bytes, 0x80..=0xBF, are below every lead byte;
//! a lead byte of 0xC4 or more starts a character past U+00FF, and one of 0xF0
//! or more one past U+FFFF), and the length is the count of bytes that are not
//! continuation bytes. The result is in the narrowest kind, as CPython's
//! strings must be (equality compares kinds first).
//!
//! The stable ABI (the `abi3` feature) hides a string's layout: there the
//! text goes through CPython's decoder.
#![cfg_attr(feature = "abi3", allow(dead_code))]

#[cfg(not(feature = "abi3"))]
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The largest byte and the number of characters of UTF-8 text.
fn scan(bytes: &[u8]) -> (u8, usize) {
    let (mut max, mut continuation) = (0u8, 0usize);
    let mut chunks = bytes.chunks_exact(64);
    for chunk in &mut chunks {
        // Fixed-size inner loops: vectorized.
        let (mut m, mut c) = (0u8, 0u8);
        for &b in chunk {
            m = m.max(b);
            c += u8::from((b as i8) < -64);
        }
        max = max.max(m);
        continuation += usize::from(c);
    }
    for &b in chunks.remainder() {
        max = max.max(b);
        continuation += usize::from((b as i8) < -64);
    }
    (max, bytes.len() - continuation)
}

/// A character of a string kind: Latin-1, UCS-2 or UCS-4.
trait Unit: Copy + From<u8> {
    /// A code point the caller knows to fit.
    fn narrow(c: u32) -> Self;
    /// Sixteen ASCII bytes, widened.
    fn widen(src: &[u8; 16], dst: &mut [Self; 16]);
}

impl Unit for u8 {
    fn narrow(c: u32) -> u8 {
        c as u8
    }
    fn widen(src: &[u8; 16], dst: &mut [u8; 16]) {
        *dst = *src;
    }
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_movemask_epi8, _mm_setzero_si128, _mm_storeu_si128, _mm_unpackhi_epi16,
    _mm_unpackhi_epi8, _mm_unpacklo_epi16, _mm_unpacklo_epi8,
};

impl Unit for u16 {
    fn narrow(c: u32) -> u16 {
        c as u16
    }
    #[inline]
    fn widen(src: &[u8; 16], dst: &mut [u16; 16]) {
        // SAFETY: SSE2 is part of x86_64; unaligned loads and stores within
        // the two arrays (16 bytes in, 32 bytes out).
        #[cfg(target_arch = "x86_64")]
        unsafe {
            let v = _mm_loadu_si128(src.as_ptr().cast::<__m128i>());
            let zero = _mm_setzero_si128();
            let out = dst.as_mut_ptr().cast::<__m128i>();
            _mm_storeu_si128(out, _mm_unpacklo_epi8(v, zero));
            _mm_storeu_si128(out.add(1), _mm_unpackhi_epi8(v, zero));
        }
        #[cfg(not(target_arch = "x86_64"))]
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = u16::from(s);
        }
    }
}

impl Unit for u32 {
    fn narrow(c: u32) -> u32 {
        c
    }
    #[inline]
    fn widen(src: &[u8; 16], dst: &mut [u32; 16]) {
        // SAFETY: as for u16 (16 bytes in, 64 bytes out).
        #[cfg(target_arch = "x86_64")]
        unsafe {
            let v = _mm_loadu_si128(src.as_ptr().cast::<__m128i>());
            let zero = _mm_setzero_si128();
            let (lo, hi) = (_mm_unpacklo_epi8(v, zero), _mm_unpackhi_epi8(v, zero));
            let out = dst.as_mut_ptr().cast::<__m128i>();
            _mm_storeu_si128(out, _mm_unpacklo_epi16(lo, zero));
            _mm_storeu_si128(out.add(1), _mm_unpackhi_epi16(lo, zero));
            _mm_storeu_si128(out.add(2), _mm_unpacklo_epi16(hi, zero));
            _mm_storeu_si128(out.add(3), _mm_unpackhi_epi16(hi, zero));
        }
        #[cfg(not(target_arch = "x86_64"))]
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = u32::from(s);
        }
    }
}

/// How many of sixteen bytes are ASCII before the first that is not (16
/// when all are).
#[inline]
fn ascii_prefix(src: &[u8; 16]) -> usize {
    // SAFETY: SSE2 is part of x86_64; an unaligned load of the array.
    #[cfg(target_arch = "x86_64")]
    let high = unsafe { _mm_movemask_epi8(_mm_loadu_si128(src.as_ptr().cast::<__m128i>())) } as u32;
    #[cfg(not(target_arch = "x86_64"))]
    let high = {
        let mut bits = 0u32;
        for (i, &b) in src.iter().enumerate() {
            bits |= u32::from(b >> 7) << i;
        }
        bits
    };
    (high | 0x1_0000).trailing_zeros() as usize
}

/// Decodes valid UTF-8 into `out`, which has room for exactly its characters,
/// each of which fits `T` (the caller chose `T` by the text's largest byte).
fn transcode<T: Unit>(text: &str, out: &mut [T]) {
    let bytes = text.as_bytes();
    let (mut i, mut j) = (0, 0);
    while i < bytes.len() {
        // ASCII sixteen bytes at a time. All sixteen are widened; those after
        // the first non-ASCII byte are written again, rightly, below.
        if let (Some(src), Some(dst)) = (bytes.get(i..i + 16), out.get_mut(j..j + 16)) {
            let src: &[u8; 16] = src.try_into().expect("sixteen bytes");
            T::widen(src, dst.try_into().expect("sixteen characters"));
            let ascii = ascii_prefix(src);
            i += ascii;
            j += ascii;
            if ascii == 16 {
                continue;
            }
        }
        // One character. `text` is valid UTF-8 and `i` is at a boundary, so
        // the continuation bytes are there.
        let b = bytes[i];
        let (c, width) = match b {
            0..=0x7F => (u32::from(b), 1),
            0xC0..=0xDF => ((u32::from(b & 0x1F) << 6) | u32::from(bytes[i + 1] & 0x3F), 2),
            0xE0..=0xEF => (
                (u32::from(b & 0x0F) << 12) | (u32::from(bytes[i + 1] & 0x3F) << 6) | u32::from(bytes[i + 2] & 0x3F),
                3,
            ),
            _ => {
                let c = (u32::from(b & 0x07) << 18)
                    | (u32::from(bytes[i + 1] & 0x3F) << 12)
                    | (u32::from(bytes[i + 2] & 0x3F) << 6)
                    | u32::from(bytes[i + 3] & 0x3F);
                (c, 4)
            }
        };
        out[j] = T::narrow(c);
        i += width;
        j += 1;
    }
    debug_assert_eq!(j, out.len());
}

/// `text` as a Python `str`: CPython's decoder, under the stable ABI.
#[cfg(feature = "abi3")]
pub fn new_str<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    Ok(PyString::new(py, text))
}

/// `text` as a Python `str`.
#[cfg(not(feature = "abi3"))]
pub fn new_str<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    let (max, chars) = scan(text.as_bytes());
    let maxchar: u32 = match max {
        0..=0x7F => 0x7F,
        0x80..=0xC3 => 0xFF,
        0xC4..=0xEF => 0xFFFF,
        _ => 0x10_FFFF,
    };
    // SAFETY: PyUnicode_New returns a new, uninitialized string of `chars`
    // characters of the kind `maxchar` selects, or NULL with an exception set.
    // Every character is written below before the string is seen by Python.
    unsafe {
        let object = Bound::from_owned_ptr_or_err(py, ffi::PyUnicode_New(chars as ffi::Py_ssize_t, maxchar))?;
        let data = ffi::PyUnicode_DATA(object.as_ptr());
        match maxchar {
            0x7F => std::ptr::copy_nonoverlapping(text.as_ptr(), data.cast::<u8>(), chars),
            0xFF => transcode(text, std::slice::from_raw_parts_mut(data.cast::<u8>(), chars)),
            0xFFFF => transcode(text, std::slice::from_raw_parts_mut(data.cast::<u16>(), chars)),
            _ => transcode(text, std::slice::from_raw_parts_mut(data.cast::<u32>(), chars)),
        }
        Ok(object.cast_into_unchecked())
    }
}
