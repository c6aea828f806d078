//! Exact JSON into JavaScript without a Node-API call per value. Building a
//! 5 MB document value by value costs two calls per value, most of parse's
//! time; instead flow-core reads the text (every rule and limit checked), this
//! module writes the tree as a tape (opcodes and operands in an Int32Array,
//! all string contents in one string), and `lib/tape.js` builds the values in
//! JavaScript, where V8 makes object and array creation cheap.
//!
//! Tape (`i32`s): `NULL`, `FALSE`, `TRUE`; `STRING start len` (UTF-16 offsets
//! into the text); `INT value` for an integer that fits an i32; `INT64` for
//! one that fits an i64, the next of a BigInt64Array beside the tape (V8
//! makes a bigint from it without parsing text); `BIGINT start len` for a
//! longer integer's decimal text; `DECIMAL start len exponent` for
//! a fractional number (its coefficient's text); `ARRAY n` then n values;
//! `OBJECT n` then n pairs of a key index and a value. Keys are written once
//! each, into a table of `start len` pairs.
//!
//! Typed values (`Codec.decode`) add: `INSTANT start len` and `DURATION start
//! len` (nanoseconds' text), `BYTES start len` (base64), `SET n` and `FLOW_SET
//! n` then n values, `MAP n` and `FLOW_MAP n` then n key and value pairs,
//! `UNDEFINED` (None), `SOME` then a value, `ENUM key` (a constructor without
//! payload, by its name's key index) and `ENUM_VALUE key` then its payload,
//! `HOST start len` (a host token's canonical text). A record is an `OBJECT`
//! of its present fields.

use std::collections::HashMap;

use flow_core::json::{write_string, Json};
use flow_core::value::{EnumPayload, Value};
use flow_core::Number;
use napi::{sys, Env, Result};
use napi_derive::napi;

use crate::classes::throw_flow;
use crate::js::{check, In, Js, Out, Raw};
use crate::text::{input_bytes, limits_of};
use crate::to_js::builtin_key;

const NULL: i32 = 0;
const FALSE: i32 = 1;
const TRUE: i32 = 2;
const STRING: i32 = 3;
const INT: i32 = 4;
const BIGINT: i32 = 5;
const DECIMAL: i32 = 6;
const ARRAY: i32 = 7;
const OBJECT: i32 = 8;
const INSTANT: i32 = 9;
const DURATION: i32 = 10;
const BYTES: i32 = 11;
const SET: i32 = 12;
const FLOW_SET: i32 = 13;
const MAP: i32 = 14;
const FLOW_MAP: i32 = 15;
const UNDEFINED: i32 = 16;
const SOME: i32 = 17;
const ENUM: i32 = 18;
const ENUM_VALUE: i32 = 19;
const HOST: i32 = 20;
const INT64: i32 = 21;

#[derive(Default)]
struct Tape<'a> {
    ops: Vec<i32>,
    text: String,
    /// The text's length in UTF-16 code units: JavaScript's string offsets.
    units: usize,
    keys: HashMap<&'a str, i32>,
    key_table: Vec<i32>,
    int64s: Vec<i64>,
}

fn units(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

impl<'a> Tape<'a> {
    fn push_text(&mut self, s: &str) {
        let n = units(s);
        self.ops.push(self.units as i32);
        self.ops.push(n as i32);
        self.text.push_str(s);
        self.units += n;
    }

    /// The decimal text of `(-1)^negative * digits * 10^zeros`.
    fn push_digits(&mut self, negative: bool, digits: &str, zeros: usize) {
        let n = usize::from(negative) + digits.len() + zeros;
        self.ops.push(self.units as i32);
        self.ops.push(n as i32);
        if negative {
            self.text.push('-');
        }
        self.text.push_str(digits);
        self.text.extend(std::iter::repeat_n('0', zeros));
        self.units += n;
    }

    fn number(&mut self, n: &Number) {
        if n.is_whole() {
            let zeros = n.exponent() as usize;
            if n.digits().len() + zeros <= 9 {
                let mut i: i32 = 0;
                for b in n.digits().bytes() {
                    i = i * 10 + i32::from(b - b'0');
                }
                for _ in 0..zeros {
                    i *= 10;
                }
                self.ops.extend([INT, if n.is_negative() { -i } else { i }]);
            } else if n.digits().len() + zeros <= 18 {
                let mut i: i64 = 0;
                for b in n.digits().bytes() {
                    i = i * 10 + i64::from(b - b'0');
                }
                for _ in 0..zeros {
                    i *= 10;
                }
                self.ops.push(INT64);
                self.int64s.push(if n.is_negative() { -i } else { i });
            } else {
                self.ops.push(BIGINT);
                self.push_digits(n.is_negative(), n.digits(), zeros);
            }
        } else {
            self.ops.push(DECIMAL);
            self.push_digits(n.is_negative(), n.digits(), 0);
            // Past the digit limit no exponent is this large; JSON read under
            // limits cannot reach it.
            self.ops.push(n.exponent().clamp(i32::MIN as i64, i32::MAX as i64) as i32);
        }
    }

    fn key(&mut self, key: &'a str) -> i32 {
        if let Some(&index) = self.keys.get(key) {
            return index;
        }
        let index = (self.key_table.len() / 2) as i32;
        let n = units(key);
        self.key_table.extend([self.units as i32, n as i32]);
        self.text.push_str(key);
        self.units += n;
        self.keys.insert(key, index);
        index
    }

    fn op_text(&mut self, op: i32, text: &str) {
        self.ops.push(op);
        self.push_text(text);
    }

    /// A typed value (see the module's doc for the typed ops).
    fn typed(&mut self, value: &'a Value) {
        match value {
            Value::Unit => self.ops.push(NULL),
            Value::Bool(b) => self.ops.push(if *b { TRUE } else { FALSE }),
            Value::Int(i) => match (i32::try_from(i), i64::try_from(i)) {
                (Ok(small), _) => self.ops.extend([INT, small]),
                (_, Ok(wide)) => {
                    self.ops.push(INT64);
                    self.int64s.push(wide);
                }
                _ => self.op_text(BIGINT, &i.to_string()),
            },
            Value::Decimal(n) => {
                self.ops.push(DECIMAL);
                self.push_digits(n.is_negative(), n.digits(), 0);
                self.ops.push(n.exponent().clamp(i32::MIN as i64, i32::MAX as i64) as i32);
            }
            Value::Text(s) => self.op_text(STRING, s),
            Value::Bytes(b) => {
                let mut text = String::with_capacity(b.len() * 4 / 3 + 4);
                flow_core::base64::encode(b, &mut text);
                self.op_text(BYTES, &text);
            }
            Value::Instant(i) => self.op_text(INSTANT, &i.nanos().to_string()),
            Value::Duration(d) => self.op_text(DURATION, &d.nanos().to_string()),
            Value::List(items) | Value::Tuple(items) => self.items(ARRAY, items),
            Value::Set(items) => {
                let builtin = items.first().is_none_or(builtin_key);
                self.items(if builtin { SET } else { FLOW_SET }, items)
            }
            Value::TextDict(entries) => {
                self.ops.extend([MAP, entries.len() as i32]);
                for (k, v) in entries {
                    self.op_text(STRING, k);
                    self.typed(v);
                }
            }
            Value::Dict(entries) => {
                let builtin = entries.first().is_none_or(|(k, _)| builtin_key(k));
                self.ops.extend([if builtin { MAP } else { FLOW_MAP }, entries.len() as i32]);
                for (k, v) in entries {
                    self.typed(k);
                    self.typed(v);
                }
            }
            Value::Option(None) => self.ops.push(UNDEFINED),
            Value::Option(Some(inner)) => self.some(inner),
            Value::Record(fields) => self.fields(fields),
            Value::Enum(e) => match &e.payload {
                EnumPayload::None => {
                    let key = self.key(&e.name);
                    self.ops.extend([ENUM, key]);
                }
                payload => {
                    let key = self.key(&e.name);
                    self.ops.extend([ENUM_VALUE, key]);
                    match payload {
                        EnumPayload::Positional(parts) if parts.len() == 1 => self.typed(&parts[0]),
                        EnumPayload::Positional(parts) => self.items(ARRAY, parts),
                        EnumPayload::Named(fields) => self.fields(fields),
                        EnumPayload::None => unreachable!("handled above"),
                    }
                }
            },
            Value::Json(j) => self.value(j),
            Value::HostToken(j) => self.op_text(HOST, &j.to_canonical()),
        }
    }

    fn items(&mut self, op: i32, items: &'a [Value]) {
        self.ops.extend([op, items.len() as i32]);
        for item in items {
            self.typed(item);
        }
    }

    /// Some(v): v itself, or `SOME` v where v is itself an Option.
    fn some(&mut self, inner: &'a Value) {
        if matches!(inner, Value::Option(_)) {
            self.ops.push(SOME);
        }
        self.typed(inner);
    }

    /// A record or named payload: the fields holding None are left out.
    fn fields(&mut self, fields: &'a [(std::sync::Arc<str>, Value)]) {
        let present = fields.iter().filter(|(_, v)| !matches!(v, Value::Option(None))).count();
        self.ops.extend([OBJECT, present as i32]);
        for (name, value) in fields {
            match value {
                Value::Option(None) => {}
                Value::Option(Some(inner)) => {
                    let key = self.key(name);
                    self.ops.push(key);
                    self.some(inner);
                }
                other => {
                    let key = self.key(name);
                    self.ops.push(key);
                    self.typed(other);
                }
            }
        }
    }

    fn value(&mut self, json: &'a Json) {
        match json {
            Json::Null => self.ops.push(NULL),
            Json::Bool(false) => self.ops.push(FALSE),
            Json::Bool(true) => self.ops.push(TRUE),
            Json::Number(n) => self.number(n),
            Json::String(s) => {
                self.ops.push(STRING);
                self.push_text(s);
            }
            Json::Array(items) => {
                self.ops.extend([ARRAY, items.len() as i32]);
                for item in items {
                    self.value(item);
                }
            }
            Json::Object(object) => {
                self.ops.extend([OBJECT, object.len() as i32]);
                for (key, member) in object.iter() {
                    let index = self.key(key);
                    self.ops.push(index);
                    self.value(member);
                }
            }
        }
    }
}

/// The JavaScript value of a typed value, built by `lib/tape.js` from its
/// tape in one call.
pub fn typed_to_js(js: Js, value: &Value) -> Result<Raw> {
    let mut tape = Tape::default();
    tape.typed(value);
    let classes = crate::classes::Classes::get(js)?;
    let args = [
        int32_array(js, &tape.ops)?,
        js.string(&tape.text)?,
        int32_array(js, &tape.key_table)?,
        bigint64_array(js, &tape.int64s)?,
    ];
    let undefined = js.undefined()?;
    js.call(classes.from_tape, undefined, &args)
}

fn int32_array(js: Js, values: &[i32]) -> Result<Raw> {
    typed_array(js, values, sys::TypedarrayType::int32_array)
}

fn bigint64_array(js: Js, values: &[i64]) -> Result<Raw> {
    typed_array(js, values, sys::TypedarrayType::bigint64_array)
}

fn typed_array<T: Copy>(js: Js, values: &[T], kind: sys::napi_typedarray_type) -> Result<Raw> {
    let bytes = std::mem::size_of_val(values);
    let mut data = std::ptr::null_mut();
    let mut buffer = std::ptr::null_mut();
    check(unsafe { sys::napi_create_arraybuffer(js.env, bytes, &mut data, &mut buffer) }, "array buffer")?;
    if bytes > 0 {
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr() as *const u8, data as *mut u8, bytes) };
    }
    let mut array = std::ptr::null_mut();
    check(unsafe { sys::napi_create_typedarray(js.env, kind, values.len(), buffer, 0, &mut array) }, "typed array")?;
    Ok(array)
}

/// Reads JSON text under Flow's rules and returns its tape: `[ops, text,
/// keys, int64s]`, which `lib/tape.js` turns into values. Use `parse` instead.
#[napi(js_name = "parseTape", ts_args_type = "text: string | Uint8Array, limits?: Limits", ts_return_type = "[Int32Array, string, Int32Array, BigInt64Array]")]
pub fn parse_tape(env: Env, text: In, limits: Option<In>) -> Result<Out> {
    let js = Js::new(env.raw());
    let limits = limits_of(js, limits)?;
    // SAFETY: read before this call returns; no JavaScript runs meanwhile.
    let bytes = unsafe { input_bytes(js, text.0) }.map_err(|f| f.throw(js))?;
    let json = flow_core::json::parse(&bytes, &limits).map_err(|e| throw_flow(js, &e))?;
    let mut tape = Tape { text: String::with_capacity(bytes.len()), ..Tape::default() };
    tape.value(&json);
    let out = js.array(4)?;
    js.set_index(out, 0, int32_array(js, &tape.ops)?)?;
    js.set_index(out, 1, js.string(&tape.text)?)?;
    js.set_index(out, 2, int32_array(js, &tape.key_table)?)?;
    js.set_index(out, 3, bigint64_array(js, &tape.int64s)?)?;
    Ok(Out(out))
}

/// Writes the canonical text of a tape written by `lib/tape.js` (`toTape`)
/// straight from the tape, holding it to Flow's rules: no lone surrogates,
/// numbers within the digit limit, keys unique. An object whose keys come in
/// code-point order (as `parse` builds them) is written as it is read; any
/// other is written member by member into buffers and then sorted.
struct Writer<'a> {
    ops: &'a [i32],
    at: usize,
    units: &'a [u16],
    pos: usize,
    max_digits: u64,
    scratch: String,
}

fn malformed() -> flow_core::Error {
    flow_core::Error::new(flow_core::Rule::Encode, "a malformed tape (a bug in @flow/toolkit)")
}

impl Writer<'_> {
    fn op(&mut self) -> flow_core::Result<i32> {
        let op = *self.ops.get(self.at).ok_or_else(malformed)?;
        self.at += 1;
        Ok(op)
    }

    fn count(&mut self) -> flow_core::Result<usize> {
        usize::try_from(self.op()?).map_err(|_| malformed())
    }

    /// The next text, decoded into `scratch`.
    fn text(&mut self) -> flow_core::Result<()> {
        let n = self.count()?;
        let units = self.units.get(self.pos..self.pos + n).ok_or_else(malformed)?;
        self.pos += n;
        self.scratch.clear();
        for c in char::decode_utf16(units.iter().copied()) {
            match c {
                Ok(c) => self.scratch.push(c),
                Err(_) => {
                    return Err(flow_core::Error::new(
                        flow_core::Rule::LoneSurrogate,
                        "a string holding a lone surrogate is no JSON text",
                    ))
                }
            }
        }
        Ok(())
    }

    fn number(&mut self, exponent: i64, out: &mut String) -> flow_core::Result<()> {
        self.text()?;
        let text = &self.scratch;
        let (negative, digits) = match text.strip_prefix('-') {
            Some(digits) => (true, digits),
            None => (false, text.as_str()),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let n = Number::from_parts(negative, digits, exponent);
        n.check_digits(self.max_digits)?;
        n.write_canonical(out);
        Ok(())
    }

    fn value(&mut self, out: &mut String) -> flow_core::Result<()> {
        match self.op()? {
            NULL => out.push_str("null"),
            FALSE => out.push_str("false"),
            TRUE => out.push_str("true"),
            STRING => {
                self.text()?;
                write_string(out, &self.scratch);
            }
            INT => {
                use std::fmt::Write;
                let i = self.op()?;
                write!(out, "{i}").expect("writing to a String");
            }
            BIGINT => self.number(0, out)?,
            DECIMAL => {
                // The coefficient's text, then the exponent.
                let exponent = *self.ops.get(self.at + 1).ok_or_else(malformed)?;
                self.number(i64::from(exponent), out)?;
                self.at += 1;
            }
            ARRAY => {
                let n = self.count()?;
                out.push('[');
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    self.value(out).map_err(|e| e.under_index(i))?;
                }
                out.push(']');
            }
            OBJECT => {
                let n = self.count()?;
                let (at, pos, start) = (self.at, self.pos, out.len());
                if !self.sorted_object(n, out)? {
                    out.truncate(start);
                    (self.at, self.pos) = (at, pos);
                    self.unsorted_object(n, out)?;
                }
            }
            _ => return Err(malformed()),
        }
        Ok(())
    }

    /// Writes the object as read; false (with `out` to be rolled back) at
    /// the first key that is not after the one before.
    fn sorted_object(&mut self, n: usize, out: &mut String) -> flow_core::Result<bool> {
        out.push('{');
        let mut previous = String::new();
        for i in 0..n {
            self.text()?;
            if i > 0 {
                if self.scratch.as_str() <= previous.as_str() {
                    return Ok(false);
                }
                out.push(',');
            }
            let key = std::mem::take(&mut self.scratch);
            write_string(out, &key);
            out.push(':');
            self.value(out).map_err(|e| e.under_key(&key))?;
            previous = key;
        }
        out.push('}');
        Ok(true)
    }

    fn unsorted_object(&mut self, n: usize, out: &mut String) -> flow_core::Result<()> {
        let mut members = Vec::with_capacity(n);
        for _ in 0..n {
            self.text()?;
            let key = std::mem::take(&mut self.scratch);
            let mut text = String::new();
            self.value(&mut text).map_err(|e| e.under_key(&key))?;
            members.push((key, text));
        }
        // UTF-8 byte order is code-point order.
        members.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        if let Some(w) = members.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(flow_core::Error::new(flow_core::Rule::DuplicateKey, format!("the key {:?} twice", w[0].0)));
        }
        out.push('{');
        for (i, (key, text)) in members.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_string(out, key);
            out.push(':');
            out.push_str(text);
        }
        out.push('}');
        Ok(())
    }
}

/// The canonical text of a tape written by `lib/tape.js`. Use `stringify`.
#[napi(js_name = "stringifyTape", ts_args_type = "ops: Int32Array, text: string, limits?: Limits")]
pub fn stringify_tape(env: Env, ops: In, text: In, limits: Option<In>) -> Result<String> {
    let js = Js::new(env.raw());
    let limits = limits_of(js, limits)?;
    let ops = int32_slice(js, ops.0)?;
    let units = utf16(js, text.0)?;
    let mut writer = Writer { ops, at: 0, units: &units, pos: 0, max_digits: limits.max_digits, scratch: String::new() };
    let mut out = String::with_capacity(units.len() + ops.len());
    writer.value(&mut out).map_err(|e| throw_flow(js, &e))?;
    Ok(out)
}

/// The elements of an Int32Array, borrowed for the call.
fn int32_slice<'a>(js: Js, v: Raw) -> Result<&'a [i32]> {
    let mut kind = 0;
    let mut len = 0usize;
    let mut data = std::ptr::null_mut();
    let mut buffer = std::ptr::null_mut();
    let mut offset = 0usize;
    check(unsafe { sys::napi_get_typedarray_info(js.env, v, &mut kind, &mut len, &mut data, &mut buffer, &mut offset) }, "Int32Array")?;
    if kind != sys::TypedarrayType::int32_array {
        return Err(napi::Error::new(napi::Status::InvalidArg, "expected an Int32Array".to_owned()));
    }
    if len == 0 {
        return Ok(&[]);
    }
    // The array lives at least as long as this call, which is as long as the slice is used.
    Ok(unsafe { std::slice::from_raw_parts(data as *const i32, len) })
}

fn utf16(js: Js, v: Raw) -> Result<Vec<u16>> {
    let mut len = 0usize;
    check(unsafe { sys::napi_get_value_string_utf16(js.env, v, std::ptr::null_mut(), 0, &mut len) }, "string length")?;
    let mut buf: Vec<u16> = Vec::with_capacity(len + 1);
    let mut written = 0usize;
    check(unsafe { sys::napi_get_value_string_utf16(js.env, v, buf.as_mut_ptr(), len + 1, &mut written) }, "string")?;
    unsafe { buf.set_len(written) };
    Ok(buf)
}
