//! JSON text in and out: canonical text, exact parsing, and the canonical
//! text of JavaScript JSON values; Instant and Duration text for their classes.

use std::borrow::Cow;

use flow_core::error::{Error, Rule};
use flow_core::time::{Duration, Instant, TimeError};
use flow_core::Limits;
use napi::bindgen_prelude::BigInt as JsBigInt;
use napi::{Env, Result};
use napi_derive::napi;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

use crate::classes::throw_flow;
use crate::from_js::Fault;
use crate::js::{In, Js, Kind, Raw};

/// The bytes of a text argument: a string (held to Flow's Text: no lone
/// surrogates) or a Uint8Array of UTF-8, which is read as is, in place.
///
/// # Safety
///
/// Borrowed bytes are valid while `v` is alive and no JavaScript value is
/// created and no JavaScript runs: read them within the native call before
/// either (see [`Js::uint8_slice`]).
pub unsafe fn input_bytes<'a>(js: Js, v: Raw) -> std::result::Result<Cow<'a, [u8]>, Fault> {
    match js.kind(v)? {
        Kind::String => {
            let s = js.get_text(v)?;
            if s.contains('\u{FFFD}') && js.has_lone_surrogate(v)? {
                return Err(Fault::Flow(Error::new(
                    Rule::LoneSurrogate,
                    "the text holds a lone surrogate, which is not UTF-8",
                )));
            }
            Ok(Cow::Owned(s.into_bytes()))
        }
        Kind::Object => match unsafe { js.uint8_slice(v) }? {
            Some(bytes) => Ok(bytes),
            None => Err(Fault::Napi(napi::Error::new(
                napi::Status::InvalidArg,
                "expected a string or a Uint8Array".to_owned(),
            ))),
        },
        other => Err(Fault::Napi(napi::Error::new(
            napi::Status::InvalidArg,
            format!("expected a string or a Uint8Array, found {}", other.name()),
        ))),
    }
}

/// Limits from `{ maxBytes, maxDepth, maxDigits }` (any subset; the rest
/// default), or the defaults for `undefined`.
pub fn limits_of(js: Js, v: Option<In>) -> Result<Limits> {
    let mut limits = Limits::default();
    let Some(In(v)) = v else { return Ok(limits) };
    if matches!(js.kind(v)?, Kind::Undefined | Kind::Null) {
        return Ok(limits);
    }
    if js.kind(v)? != Kind::Object {
        return Err(napi::Error::new(napi::Status::InvalidArg, "limits must be an object".to_owned()));
    }
    let read = |name: &str| -> Result<Option<u64>> {
        let member = js.get_named(v, name)?;
        match js.kind(member)? {
            Kind::Undefined => Ok(None),
            Kind::Number => {
                let n = js.get_f64(member)?;
                if n < 0.0 || n.fract() != 0.0 || n > 9_007_199_254_740_991.0 {
                    return Err(napi::Error::new(
                        napi::Status::InvalidArg,
                        format!("limits.{name} must be a whole number"),
                    ));
                }
                Ok(Some(n as u64))
            }
            _ => Err(napi::Error::new(napi::Status::InvalidArg, format!("limits.{name} must be a number"))),
        }
    };
    if let Some(n) = read("maxBytes")? {
        limits.max_bytes = n as usize;
    }
    if let Some(n) = read("maxDepth")? {
        limits.max_depth = n as usize;
    }
    if let Some(n) = read("maxDigits")? {
        limits.max_digits = n;
    }
    Ok(limits)
}

/// The canonical text of any JSON text (`host-boundary.md`, "The canonical
/// form"): read under the default limits, refusing what Flow refuses
/// (duplicate keys, lone surrogates, numbers past 4,300 digits, nesting past
/// 128), then written with sorted keys, no whitespace and plain numbers.
/// A refusal throws a `FlowError` naming the path and the rule.
#[napi(ts_args_type = "text: string | Uint8Array, limits?: Limits")]
pub fn canonicalize(env: Env, text: In, limits: Option<In>) -> Result<String> {
    let js = Js::new(env.raw());
    let limits = limits_of(js, limits)?;
    // SAFETY: the bytes are read, and dropped, before any JavaScript value is made or runs.
    let bytes = unsafe { input_bytes(js, text.0) }.map_err(|f| f.throw(js))?;
    let canonical = flow_core::json::canonicalize(&bytes, &limits);
    // Borrowed bytes end before any JavaScript value is made.
    drop(bytes);
    canonical.map_err(|e| throw_flow(js, &e))
}

fn time_error(js: Js, e: TimeError, rule: Rule) -> napi::Error {
    let error = match e {
        TimeError::Form(m) => Error::new(rule, m),
        TimeError::Range(m) => Error::new(Rule::Range, m),
    };
    throw_flow(js, &error)
}

fn nanos(js: Js, v: &JsBigInt, what: &str) -> Result<i128> {
    let (negative, magnitude, lossless) = (v.sign_bit, v.words.clone(), true);
    let _ = lossless;
    let mut i = BigInt::from(0u8);
    for w in magnitude.iter().rev() {
        i = (i << 64) + BigInt::from(*w);
    }
    if negative {
        i = -i;
    }
    i.to_i128().ok_or_else(|| throw_flow(js, &Error::new(Rule::Range, format!("{what} is out of range"))))
}

fn to_js_bigint(i: i128) -> JsBigInt {
    let magnitude = i.unsigned_abs();
    JsBigInt { sign_bit: i < 0, words: vec![magnitude as u64, (magnitude >> 64) as u64] }
}

/// Nanoseconds since the epoch of an Instant's text (`decisions.md` 1).
#[napi]
pub fn instant_parse(env: Env, text: String) -> Result<JsBigInt> {
    let js = Js::new(env.raw());
    let instant = Instant::parse(&text).map_err(|e| time_error(js, e, Rule::Instant))?;
    Ok(to_js_bigint(instant.nanos()))
}

/// The canonical text of an Instant given in nanoseconds since the epoch.
#[napi]
pub fn instant_format(env: Env, nanoseconds: JsBigInt) -> Result<String> {
    let js = Js::new(env.raw());
    let n = nanos(js, &nanoseconds, "the Instant")?;
    let instant = Instant::from_nanos(n).ok_or_else(|| {
        throw_flow(js, &Error::new(Rule::Range, "the Instant is outside the range of decisions.md 1"))
    })?;
    Ok(instant.to_string())
}

/// Nanoseconds of a Duration's text (`PT<seconds>S`).
#[napi]
pub fn duration_parse(env: Env, text: String) -> Result<JsBigInt> {
    let js = Js::new(env.raw());
    let duration = Duration::parse(&text).map_err(|e| time_error(js, e, Rule::Duration))?;
    Ok(to_js_bigint(duration.nanos()))
}

/// The canonical text of a Duration given in nanoseconds.
#[napi]
pub fn duration_format(env: Env, nanoseconds: JsBigInt) -> Result<String> {
    let js = Js::new(env.raw());
    let n = nanos(js, &nanoseconds, "the Duration")?;
    let duration = Duration::from_nanos(n).ok_or_else(|| {
        throw_flow(js, &Error::new(Rule::Range, "the Duration is outside the range of decisions.md 1"))
    })?;
    Ok(duration.to_string())
}
