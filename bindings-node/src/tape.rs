//! Exact JSON into JavaScript without a Node-API call per value. Building a
//! 5 MB document value by value costs two calls per value, most of parse's
//! time; instead this module writes the values as a tape (opcodes and
//! operands in an Int32Array, string contents in two strings), and
//! `lib/tape.js` builds the values in JavaScript, where V8 makes object and
//! array creation cheap.
//!
//! `parse` writes the tape straight from flow-core's reader
//! (`flow_core::json::read`, which holds every rule and limit), with no tree
//! in between: [`JsonTape`] is the reader's sink. `Codec.decode` writes it
//! from a decoded [`Value`].
//!
//! Strings: `start len` in the ops. Strings of Latin-1 characters (ASCII
//! ones among them) are in one string of one-byte characters, `start` being
//! their offset there; the others are in a UTF-16 string, `start` being
//! `!offset` (negative). So a string is one-byte in JavaScript when it can
//! be, as `JSON.parse` makes it. Both strings, and the typed arrays, are
//! handed to V8 where they are (external strings and array buffers),
//! neither copied nor decoded. A short string met again is not written
//! again: its first op becomes `KEEP start len` (JavaScript keeps the string
//! it makes) and the later ones `AGAIN slot`, the slot being the KEEP's
//! place among the KEEPs, so that one JavaScript string serves them all.
//!
//! Tape (`i32`s): `NULL`, `FALSE`, `TRUE`; `STRING start len`; `INT value`
//! for an integer that fits an i32; `INT64` for one that fits an i64, the
//! next of a BigInt64Array beside the tape (V8 makes a bigint from it
//! without parsing text); `BIGINT start len` for a longer integer's decimal
//! text; `DECIMAL start len exponent` for a fractional number (its
//! coefficient's text), `DECIMAL32 coefficient exponent` and `DECIMAL64
//! exponent` (the coefficient the next of the BigInt64Array) for one whose
//! coefficient fits, and `DECIMAL_X start len` (the exponent the next of the
//! BigInt64Array) for one whose exponent does not fit an i32; `ARRAY n` then
//! n values; `SHAPED shape` then the shape's values in text order, for an
//! object. Keys are written once each, into a table of `start len` pairs; a
//! shape (the keys of an object in text order, which objects of one kind
//! share) is written once, into a table of `n flags` then the n key indices
//! in the order JavaScript sets them (ascending; a record's in declaration
//! order), then (flag 1, when the text's order is another) the text-order
//! index of each; flag 2 says a key is `__proto__`.
//!
//! Typed values (`Codec.decode`) add: `INSTANT start len` and `DURATION start
//! len` (nanoseconds' text), `BYTES start len` (base64), `SET n` and `FLOW_SET
//! n` then n values, `MAP n` and `FLOW_MAP n` then n key and value pairs,
//! `UNDEFINED` (None), `SOME` then a value, `ENUM key` (a constructor without
//! payload, by its name's key index) and `ENUM_VALUE key` then its payload,
//! `HOST start len` (a host token's canonical text). A record is `SHAPED`,
//! its present fields in declaration order.
//!
//! (`OBJECT n` then n key texts and values is the other direction's op:
//! `lib/tape.js`'s `toTape`, read by [`Writer`].)

use std::collections::HashMap;

use flow_core::json::read::{read, Keys, Order, Sink};
use flow_core::json::{write_string, Json};
use flow_core::number::ScannedNumber;
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
const DECIMAL32: i32 = 22;
const DECIMAL64: i32 = 23;
const DECIMAL_X: i32 = 24;
const SHAPED: i32 = 25;
const KEEP: i32 = 26;
const AGAIN: i32 = 27;

/// The tape's two strings: one-byte text (Latin-1, ASCII most of it), and
/// UTF-16 text for the rest.
#[derive(Default)]
struct Texts {
    narrow: Vec<u8>,
    wide: Vec<u16>,
}

impl Texts {
    /// Refuses texts whose offsets the tape's i32s cannot hold: reachable only
    /// with `maxDigits` raised far past its default, where whole numbers'
    /// appended zeros (`1e999999999`) outgrow the text they came from.
    fn fits(&self) -> flow_core::Result<()> {
        if self.narrow.len() > i32::MAX as usize || self.wide.len() > i32::MAX as usize {
            return Err(flow_core::Error::new(
                flow_core::Rule::TooLarge,
                "the value's strings and digits pass 2 GiB, more than a JavaScript value can be built from",
            ));
        }
        Ok(())
    }

    /// Appends `s`; its `start len` as the tape writes them.
    #[inline]
    fn push(&mut self, s: &str) -> [i32; 2] {
        let start = self.narrow.len();
        if s.is_ascii() {
            self.narrow.extend_from_slice(s.as_bytes());
        } else if s.chars().all(|c| u32::from(c) < 0x100) {
            // One byte a character, as V8 keeps such strings.
            self.narrow.extend(s.chars().map(|c| u32::from(c) as u8));
        } else {
            let start = self.wide.len();
            self.wide.extend(s.encode_utf16());
            return [!(start as i32), (self.wide.len() - start) as i32];
        }
        [start as i32, (self.narrow.len() - start) as i32]
    }
}

/// Writes a JSON number's ops: whole numbers `INT`, `INT64` or `BIGINT`,
/// others as [`decimal_ops`] does. `small` is the normalized coefficient and
/// exponent when the coefficient fits; `digits` writes the coefficient's
/// digits and returns the exponent.
fn number_ops(
    ops: &mut Vec<i32>,
    narrow: &mut Vec<u8>,
    int64s: &mut Vec<i64>,
    negative: bool,
    small: Option<(i64, i64)>,
    digits: impl FnOnce(&mut Vec<u8>) -> i64,
) {
    match small {
        Some((coefficient, exponent)) if exponent >= 0 => {
            let mut value = Some(coefficient);
            for _ in 0..exponent {
                value = value.and_then(|v| v.checked_mul(10));
                if value.is_none() {
                    break;
                }
            }
            match value {
                Some(v) => match i32::try_from(v) {
                    Ok(v) => ops.extend_from_slice(&[INT, v]),
                    Err(_) => {
                        ops.push(INT64);
                        int64s.push(v);
                    }
                },
                None => text_number(ops, narrow, int64s, negative, true, digits),
            }
        }
        Some(_) => decimal_ops(ops, narrow, int64s, negative, small, digits),
        None => text_number(ops, narrow, int64s, negative, true, digits),
    }
}

/// Writes a Decimal's ops (whole or not): `DECIMAL32` or `DECIMAL64` when
/// the coefficient fits, else `DECIMAL` or `DECIMAL_X`.
fn decimal_ops(
    ops: &mut Vec<i32>,
    narrow: &mut Vec<u8>,
    int64s: &mut Vec<i64>,
    negative: bool,
    small: Option<(i64, i64)>,
    digits: impl FnOnce(&mut Vec<u8>) -> i64,
) {
    match small.and_then(|(c, e)| Some((c, i32::try_from(e).ok()?))) {
        Some((c, e)) => match i32::try_from(c) {
            Ok(c) => ops.extend_from_slice(&[DECIMAL32, c, e]),
            Err(_) => {
                ops.extend_from_slice(&[DECIMAL64, e]);
                int64s.push(c);
            }
        },
        None => text_number(ops, narrow, int64s, negative, false, digits),
    }
}

/// A number as decimal text: `BIGINT` (a whole number's digits, zeros
/// appended) when `whole` allows it, else `DECIMAL`/`DECIMAL_X` (the
/// coefficient's digits).
fn text_number(
    ops: &mut Vec<i32>,
    narrow: &mut Vec<u8>,
    int64s: &mut Vec<i64>,
    negative: bool,
    whole: bool,
    digits: impl FnOnce(&mut Vec<u8>) -> i64,
) {
    let start = narrow.len();
    if negative {
        narrow.push(b'-');
    }
    let exponent = digits(narrow);
    if whole && exponent >= 0 {
        // Within the digit limit, so a length that fits.
        narrow.resize(narrow.len() + exponent as usize, b'0');
        ops.extend_from_slice(&[BIGINT, start as i32, (narrow.len() - start) as i32]);
    } else if let Ok(e) = i32::try_from(exponent) {
        ops.extend_from_slice(&[DECIMAL, start as i32, (narrow.len() - start) as i32, e]);
    } else {
        ops.extend_from_slice(&[DECIMAL_X, start as i32, (narrow.len() - start) as i32]);
        int64s.push(exponent);
    }
}

/// A typed value's tape (`Codec.decode`). Records and json.Value objects
/// are `SHAPED`, as `parse` writes objects.
#[derive(Default)]
struct Tape {
    ops: Vec<i32>,
    texts: Texts,
    shapes: Shapes,
    int64s: Vec<i64>,
}

impl Tape {
    fn push_text(&mut self, s: &str) {
        let span = self.texts.push(s);
        self.ops.extend_from_slice(&span);
    }

    /// A json.Value number (`decimal` false) or a Decimal.
    fn number(&mut self, n: &Number, decimal: bool) {
        let small = (n.digits().len() <= 18).then(|| {
            let c = n.digits().bytes().fold(0i64, |c, d| c * 10 + i64::from(d - b'0'));
            (if n.is_negative() { -c } else { c }, n.exponent())
        });
        let digits = |out: &mut Vec<u8>| {
            out.extend_from_slice(n.digits().as_bytes());
            n.exponent()
        };
        let (ops, narrow, int64s) = (&mut self.ops, &mut self.texts.narrow, &mut self.int64s);
        if decimal {
            decimal_ops(ops, narrow, int64s, n.is_negative(), small, digits);
        } else {
            number_ops(ops, narrow, int64s, n.is_negative(), small, digits);
        }
    }

    fn key(&mut self, key: &str) -> i32 {
        self.shapes.intern(key, &mut self.texts) as i32
    }

    fn op_text(&mut self, op: i32, text: &str) {
        self.ops.push(op);
        self.push_text(text);
    }

    /// A typed value (see the module's doc for the typed ops).
    fn typed(&mut self, value: &Value) {
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
            Value::Decimal(n) => self.number(n, true),
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

    fn items(&mut self, op: i32, items: &[Value]) {
        self.ops.extend([op, items.len() as i32]);
        for item in items {
            self.typed(item);
        }
    }

    /// Some(v): v itself, or `SOME` v where v is itself an Option.
    fn some(&mut self, inner: &Value) {
        if matches!(inner, Value::Option(_)) {
            self.ops.push(SOME);
        }
        self.typed(inner);
    }

    /// A record or named payload: the fields holding None are left out, the
    /// others set in declaration order.
    fn fields(&mut self, fields: &[(std::sync::Arc<str>, Value)]) {
        self.ops.extend([SHAPED, 0]);
        let at = self.ops.len() - 1;
        let mut node = 0;
        for (name, value) in fields {
            match value {
                Value::Option(None) => {}
                Value::Option(Some(inner)) => {
                    node = self.shapes.child(node, name, &mut self.texts);
                    self.some(inner);
                }
                other => {
                    node = self.shapes.child(node, name, &mut self.texts);
                    self.typed(other);
                }
            }
        }
        self.ops[at] = self.shapes.shape(node, Order::Text);
    }

    /// A json.Value inside a typed value (objects come sorted).
    fn value(&mut self, json: &Json) {
        match json {
            Json::Null => self.ops.push(NULL),
            Json::Bool(false) => self.ops.push(FALSE),
            Json::Bool(true) => self.ops.push(TRUE),
            Json::Number(n) => self.number(n, false),
            Json::String(s) => self.op_text(STRING, s),
            Json::Array(items) => {
                self.ops.extend([ARRAY, items.len() as i32]);
                for item in items {
                    self.value(item);
                }
            }
            Json::Object(object) => {
                self.ops.extend([SHAPED, 0]);
                let at = self.ops.len() - 1;
                let mut node = 0;
                for (key, member) in object.iter() {
                    node = self.shapes.child(node, key, &mut self.texts);
                    self.value(member);
                }
                self.ops[at] = self.shapes.shape(node, Order::Text);
            }
        }
    }
}

/// The JavaScript value of a typed value, built by `lib/tape.js` from its
/// tape in one call.
pub fn typed_to_js(js: Js, value: &Value) -> Result<Raw> {
    let mut tape = Tape::default();
    tape.typed(value);
    tape.texts.fits().map_err(|e| throw_flow(js, &e))?;
    let classes = crate::classes::Classes::get(js)?;
    let args = tape_args(js, tape.ops, tape.texts, tape.shapes.key_table, tape.int64s, tape.shapes.shape_table)?;
    let undefined = js.undefined()?;
    js.call(classes.from_tape, undefined, &args)
}

/// `fromTape`'s arguments: ops, the ASCII and UTF-16 texts, the key table,
/// the BigInt64Array and the shape table.
fn tape_args(
    js: Js,
    ops: Vec<i32>,
    texts: Texts,
    keys: Vec<i32>,
    int64s: Vec<i64>,
    shapes: Vec<i32>,
) -> Result<[Raw; 6]> {
    Ok([
        handed_over(js, ops, sys::TypedarrayType::int32_array)?,
        external_string(js, texts.narrow)?,
        external_string(js, texts.wide)?,
        handed_over(js, keys, sys::TypedarrayType::int32_array)?,
        handed_over(js, int64s, sys::TypedarrayType::bigint64_array)?,
        handed_over(js, shapes, sys::TypedarrayType::int32_array)?,
    ])
}

/// The characters of the tape's two strings: one-byte (ASCII) and UTF-16.
trait Chars: Copy {
    fn copy(js: Js, text: &[Self]) -> Result<Raw>;
    /// # Safety
    /// As `node_api_create_external_string_*`: `text` lives until `free` is called.
    unsafe fn external(
        env: sys::napi_env,
        text: *const Self,
        len: isize,
        free: sys::node_api_basic_finalize,
        hint: *mut std::ffi::c_void,
        out: *mut Raw,
        copied: *mut bool,
    ) -> sys::napi_status;
}

impl Chars for u8 {
    fn copy(js: Js, text: &[u8]) -> Result<Raw> {
        js.string_latin1(text)
    }

    unsafe fn external(
        env: sys::napi_env,
        text: *const u8,
        len: isize,
        free: sys::node_api_basic_finalize,
        hint: *mut std::ffi::c_void,
        out: *mut Raw,
        copied: *mut bool,
    ) -> sys::napi_status {
        unsafe {
            sys::node_api_create_external_string_latin1(
                env,
                text as *const std::ffi::c_char,
                len,
                free,
                hint,
                out,
                copied,
            )
        }
    }
}

impl Chars for u16 {
    fn copy(js: Js, text: &[u16]) -> Result<Raw> {
        js.string_utf16(text)
    }

    unsafe fn external(
        env: sys::napi_env,
        text: *const u16,
        len: isize,
        free: sys::node_api_basic_finalize,
        hint: *mut std::ffi::c_void,
        out: *mut Raw,
        copied: *mut bool,
    ) -> sys::napi_status {
        unsafe { sys::node_api_create_external_string_utf16(env, text, len, free, hint, out, copied) }
    }
}

/// A string of the tape's text. A long one is handed to V8 as it is (an
/// external string, freed when collected) rather than copied into the heap:
/// a parse's text then takes no room in the young generation, which the
/// values built from it fill. A short one, or any where V8 declines, is copied.
fn external_string<T: Chars>(js: Js, text: Vec<T>) -> Result<Raw> {
    unsafe extern "C" fn free<T>(
        _env: sys::node_api_basic_env,
        _data: *mut std::ffi::c_void,
        hint: *mut std::ffi::c_void,
    ) {
        drop(unsafe { Box::from_raw(hint as *mut Vec<T>) });
    }
    if text.len() < 4096 {
        return T::copy(js, &text);
    }
    let len = text.len() as isize;
    let owner = Box::into_raw(Box::new(text));
    let mut out = std::ptr::null_mut();
    let mut copied = false;
    let status = unsafe {
        T::external(
            js.env,
            (*owner).as_ptr(),
            len,
            Some(free::<T>),
            owner as *mut std::ffi::c_void,
            &mut out,
            &mut copied,
        )
    };
    if status != sys::Status::napi_ok {
        // Not taken (an older Node-API among them): still ours, copied.
        let text = unsafe { Box::from_raw(owner) };
        return T::copy(js, &text);
    }
    // When V8 copied, it has already called `free`.
    Ok(out)
}

/// A typed array of `values`. A long one is handed to V8 as it is, not
/// copied (freed when the array is collected); a short one, or any where V8
/// takes no memory from outside, is copied.
fn handed_over<T: Copy>(js: Js, values: Vec<T>, kind: sys::napi_typedarray_type) -> Result<Raw> {
    unsafe extern "C" fn free<T>(_env: sys::napi_env, _data: *mut std::ffi::c_void, hint: *mut std::ffi::c_void) {
        drop(unsafe { Box::from_raw(hint as *mut Vec<T>) });
    }
    if values.len() < 4096 {
        return typed_array(js, &values, kind);
    }
    let (len, bytes) = (values.len(), std::mem::size_of_val(values.as_slice()));
    let mut owner = Box::new(values);
    let data = owner.as_mut_ptr() as *mut std::ffi::c_void;
    let owner = Box::into_raw(owner);
    let mut buffer = std::ptr::null_mut();
    let status = unsafe {
        sys::napi_create_external_arraybuffer(
            js.env,
            data,
            bytes,
            Some(free::<T>),
            owner as *mut std::ffi::c_void,
            &mut buffer,
        )
    };
    if status != sys::Status::napi_ok {
        // Not taken: still ours.
        let values = unsafe { Box::from_raw(owner) };
        if status == sys::Status::napi_no_external_buffers_allowed {
            return typed_array(js, &values, kind);
        }
        check(status, "external array buffer")?;
    }
    let mut array = std::ptr::null_mut();
    check(unsafe { sys::napi_create_typedarray(js.env, kind, len, buffer, 0, &mut array) }, "typed array")?;
    Ok(array)
}

/// No node: the shape tree's root is node 0, the empty object.
const NONE: u32 = u32::MAX;
/// Children found by walking a node's list of them; past this many, by hash.
const LISTED: u32 = 8;

/// A node of the shape tree: the keys of an object so far, in text order,
/// as the path from the root.
struct ShapeNode {
    key: u32,
    parent: u32,
    /// The first child in the list, and the next sibling in its parent's.
    child: u32,
    sibling: u32,
    children: u32,
    /// The shape's index in the shape table, once an object ended here.
    shape: i32,
}

impl ShapeNode {
    fn new(key: u32, parent: u32) -> ShapeNode {
        ShapeNode { key, parent, child: NONE, sibling: NONE, children: 0, shape: -1 }
    }
}

/// Short strings met before: a direct-mapped cache from a string to the op
/// that first wrote it (a string that lands on an occupied entry takes it
/// over, so a document of distinct strings costs one lookup each and no
/// more). The second time a string is met, its first op becomes `KEEP`; each
/// later op is `AGAIN` with, until [`Seen::finish`], the KEEP's position.
struct Seen {
    entries: Vec<SeenEntry>,
    text: Vec<u8>,
    keeps: Vec<u32>,
    agains: Vec<u32>,
}

#[derive(Clone, Copy)]
struct SeenEntry {
    start: u32,
    len: u32,
    op: u32,
    kept: bool,
}

/// Strings this long or shorter are looked for; V8 shares the one-character
/// ones itself, and longer ones repeat less.
const SEEN_MAX: usize = 32;
const SEEN_ENTRIES: usize = 4096;

impl Seen {
    fn new() -> Seen {
        Seen {
            entries: vec![SeenEntry { start: 0, len: 0, op: 0, kept: false }; SEEN_ENTRIES],
            text: Vec::new(),
            keeps: Vec::new(),
            agains: Vec::new(),
        }
    }

    fn slot(text: &[u8]) -> usize {
        let mut h: u64 = text.len() as u64;
        for chunk in text.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        (h >> 52) as usize % SEEN_ENTRIES
    }

    /// For a string about to be written at op `at`: the operand of an `AGAIN`
    /// when it was met before (its first op made a `KEEP`), else `None`, the
    /// string remembered as written at `at`.
    #[inline]
    fn again(&mut self, text: &str, at: usize, ops: &mut [i32]) -> Option<i32> {
        let bytes = text.as_bytes();
        if bytes.len() < 2 || bytes.len() > SEEN_MAX {
            return None;
        }
        let entry = &mut self.entries[Seen::slot(bytes)];
        if entry.len as usize == bytes.len()
            && &self.text[entry.start as usize..(entry.start + entry.len) as usize] == bytes
        {
            if !entry.kept {
                entry.kept = true;
                ops[entry.op as usize] = KEEP;
                self.keeps.push(entry.op);
            }
            // The operand's place, for `finish`.
            self.agains.push(at as u32 + 1);
            return Some(entry.op as i32);
        }
        let start = self.text.len() as u32;
        self.text.extend_from_slice(bytes);
        *entry = SeenEntry { start, len: bytes.len() as u32, op: at as u32, kept: false };
        None
    }

    /// Turns each `AGAIN`'s operand from its `KEEP`'s position into the
    /// KEEP's place among the KEEPs, which is where JavaScript keeps it.
    fn finish(&mut self, ops: &mut [i32]) {
        self.keeps.sort_unstable();
        for &at in &self.agains {
            let keep = ops[at as usize] as u32;
            ops[at as usize] = self.keeps.binary_search(&keep).expect("an AGAIN follows its KEEP") as i32;
        }
    }
}

/// Object keys and shapes. Keys are interned (written once each, into the
/// key table). An object's keys walk the shape tree: objects of one kind
/// follow one path, where each key is one comparison with the key expected
/// there, so keys are hashed only where a new path begins. The node an
/// object ends at is its shape, written to the shape table the first time.
struct Shapes {
    key_ids: HashMap<Box<str>, u32>,
    key_text: String,
    key_spans: Vec<(usize, usize)>,
    key_table: Vec<i32>,
    nodes: Vec<ShapeNode>,
    transitions: HashMap<(u32, u32), u32>,
    shape_table: Vec<i32>,
    shapes: i32,
    scratch: Vec<u32>,
}

impl Default for Shapes {
    fn default() -> Shapes {
        Shapes {
            key_ids: HashMap::new(),
            key_text: String::new(),
            key_spans: Vec::new(),
            key_table: Vec::new(),
            nodes: vec![ShapeNode::new(NONE, NONE)],
            transitions: HashMap::new(),
            shape_table: Vec::new(),
            shapes: 0,
            scratch: Vec::new(),
        }
    }
}

impl Shapes {
    fn key_str(&self, key: u32) -> &str {
        let (a, b) = self.key_spans[key as usize];
        &self.key_text[a..b]
    }

    /// A key's index in the key table.
    fn intern(&mut self, key: &str, texts: &mut Texts) -> u32 {
        if let Some(&id) = self.key_ids.get(key) {
            return id;
        }
        let id = self.key_spans.len() as u32;
        let start = self.key_text.len();
        self.key_text.push_str(key);
        self.key_spans.push((start, self.key_text.len()));
        let span = texts.push(key);
        self.key_table.extend_from_slice(&span);
        self.key_ids.insert(key.into(), id);
        id
    }

    /// The node after `node` for `key` (node 0 is the empty object).
    fn child(&mut self, node: u32, key: &str, texts: &mut Texts) -> u32 {
        let mut at = self.nodes[node as usize].child;
        while at != NONE {
            let n = &self.nodes[at as usize];
            if self.key_str(n.key) == key {
                return at;
            }
            at = n.sibling;
        }
        let id = self.intern(key, texts);
        let parent = &self.nodes[node as usize];
        if parent.children >= LISTED {
            if let Some(&child) = self.transitions.get(&(node, id)) {
                return child;
            }
        }
        let child = self.nodes.len() as u32;
        let mut new = ShapeNode::new(id, node);
        let parent = &mut self.nodes[node as usize];
        if parent.children < LISTED {
            new.sibling = parent.child;
            parent.child = child;
            parent.children += 1;
        } else {
            self.transitions.insert((node, id), child);
        }
        self.nodes.push(new);
        child
    }

    /// The shape of an object whose keys led to `node`, its keys to be set
    /// in `order` (text order for a typed record: declaration order).
    fn shape(&mut self, node: u32, order: Order<'_>) -> i32 {
        let shape = self.nodes[node as usize].shape;
        if shape >= 0 {
            return shape;
        }
        let mut keys = std::mem::take(&mut self.scratch);
        keys.clear();
        let mut at = node;
        while at != 0 {
            keys.push(self.nodes[at as usize].key);
            at = self.nodes[at as usize].parent;
        }
        keys.reverse();
        let proto = keys.iter().any(|&k| self.key_str(k) == "__proto__");
        let unsorted = matches!(order, Order::Sorted(_));
        self.shape_table.extend_from_slice(&[keys.len() as i32, i32::from(unsorted) | (i32::from(proto) << 1)]);
        match order {
            Order::Text => self.shape_table.extend(keys.iter().map(|&k| k as i32)),
            Order::Sorted(order) => {
                self.shape_table.extend(order.iter().map(|&i| keys[i] as i32));
                self.shape_table.extend(order.iter().map(|&i| i as i32));
            }
        }
        self.scratch = keys;
        let shape = self.shapes;
        self.shapes += 1;
        self.nodes[node as usize].shape = shape;
        shape
    }
}

/// The reader's sink for `parse`: writes each value's ops as it is read.
/// Arrays and objects reserve their operand (a count, a shape) and fill it
/// in at their end.
pub struct JsonTape {
    ops: Vec<i32>,
    texts: Texts,
    int64s: Vec<i64>,
    shapes: Shapes,
    seen: Seen,
}

/// Ops and int64s buffers past this many bytes are not kept for the next parse.
const SPARE_MAX: usize = 64 << 20;

thread_local! {
    /// The last parse's ops and int64s, emptied, for the next one: their
    /// pages are already the process's, where a new buffer's are each a page
    /// fault the first time written (a tenth of the native time on the
    /// benchmark's corpus). The tape's texts cannot be kept: JavaScript
    /// strings keep pointing into them.
    static SPARE: std::cell::Cell<(Vec<i32>, Vec<i64>)> = const { std::cell::Cell::new((Vec::new(), Vec::new())) };
}

impl JsonTape {
    pub fn new(capacity: usize) -> JsonTape {
        let (mut ops, mut int64s) = SPARE.take();
        ops.clear();
        int64s.clear();
        // Room never written costs nothing (the kernel gives a page when it
        // is first touched), while growing copies, so: enough for most
        // texts. Strings and numbers' digits take at most the text's size
        // (zeros of an exponent aside); ops rarely a quarter of its bytes,
        // and at most one per byte.
        ops.reserve(capacity / 2);
        int64s.reserve(capacity / 32);
        JsonTape {
            ops,
            texts: Texts { narrow: Vec::with_capacity(capacity), wide: Vec::new() },
            int64s,
            shapes: Shapes::default(),
            seen: Seen::new(),
        }
    }

    /// Gives the ops and int64s back for the next parse.
    fn spare(ops: Vec<i32>, int64s: Vec<i64>) {
        if std::mem::size_of_val(ops.as_slice()) <= SPARE_MAX && std::mem::size_of_val(int64s.as_slice()) <= SPARE_MAX {
            SPARE.set((ops, int64s));
        }
    }
}

impl Sink for JsonTape {
    type Value = ();
    /// The count's place in the ops, and the count.
    type Array = (usize, i32);
    /// The shape's place in the ops.
    type Object = usize;

    fn null(&mut self) {
        self.ops.push(NULL);
    }

    fn boolean(&mut self, value: bool) {
        self.ops.push(if value { TRUE } else { FALSE });
    }

    fn number(&mut self, number: &ScannedNumber<'_>) {
        number_ops(
            &mut self.ops,
            &mut self.texts.narrow,
            &mut self.int64s,
            number.is_negative(),
            number.small(),
            |out| number.write_digits(out),
        );
    }

    fn string(&mut self, text: &str) {
        if let Some(again) = self.seen.again(text, self.ops.len(), &mut self.ops) {
            self.ops.extend_from_slice(&[AGAIN, again]);
            return;
        }
        let [start, len] = self.texts.push(text);
        self.ops.extend_from_slice(&[STRING, start, len]);
    }

    fn begin_array(&mut self) -> (usize, i32) {
        self.ops.extend_from_slice(&[ARRAY, 0]);
        (self.ops.len() - 1, 0)
    }

    fn item(&mut self, array: &mut (usize, i32), _: ()) {
        array.1 += 1;
    }

    fn end_array(&mut self, (at, n): (usize, i32)) {
        self.ops[at] = n;
    }

    fn begin_object(&mut self) -> usize {
        self.ops.extend_from_slice(&[SHAPED, 0]);
        self.ops.len() - 1
    }

    fn key(&mut self, _: &mut usize, _: &str) {}

    fn member(&mut self, _: &mut usize, _: ()) {}

    /// The keys get their shape only now, from the reader's own record of
    /// them: a text refused inside an object (a duplicate key after 500,000
    /// others) costs no shape tables' entries for them (issue 8's memory
    /// bound).
    fn end_object(&mut self, at: usize, keys: Keys<'_>, order: Order<'_>) {
        let node = keys.iter().fold(0, |node, key| self.shapes.child(node, key, &mut self.texts));
        self.ops[at] = self.shapes.shape(node, order);
    }
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

/// The ops and int64s as an Int32Array and a BigInt64Array over one
/// ArrayBuffer: `scratch` (an earlier parse's, which JavaScript passes back)
/// when they fit in it, else a new one, a quarter larger than needed. Reusing
/// it spares the page faults of new memory and the garbage collector's
/// accounting of a new external buffer for each parse.
fn scratch_arrays(js: Js, scratch: Option<Raw>, ops: &[i32], int64s: &[i64]) -> Result<(Raw, Raw)> {
    let int64s_at = std::mem::size_of_val(ops).next_multiple_of(8);
    let needed = int64s_at + std::mem::size_of_val(int64s);
    let mut buffer = std::ptr::null_mut();
    let mut data = std::ptr::null_mut();
    if let Some(scratch) = scratch {
        let mut is_buffer = false;
        check(unsafe { sys::napi_is_arraybuffer(js.env, scratch, &mut is_buffer) }, "scratch buffer")?;
        if is_buffer {
            let mut len = 0usize;
            check(unsafe { sys::napi_get_arraybuffer_info(js.env, scratch, &mut data, &mut len) }, "scratch buffer")?;
            // A detached buffer's length is 0.
            if len >= needed && !data.is_null() {
                buffer = scratch;
            }
        }
    }
    if buffer.is_null() {
        let size = (needed + needed / 4).max(1 << 16);
        check(unsafe { sys::napi_create_arraybuffer(js.env, size, &mut data, &mut buffer) }, "array buffer")?;
    }
    // Neither array's memory is another's: `data` is V8's, alive as long as
    // `buffer`, which this call holds.
    unsafe {
        std::ptr::copy_nonoverlapping(ops.as_ptr() as *const u8, data as *mut u8, std::mem::size_of_val(ops));
        std::ptr::copy_nonoverlapping(
            int64s.as_ptr() as *const u8,
            (data as *mut u8).add(int64s_at),
            std::mem::size_of_val(int64s),
        );
    }
    let mut ops_array = std::ptr::null_mut();
    check(
        unsafe {
            sys::napi_create_typedarray(js.env, sys::TypedarrayType::int32_array, ops.len(), buffer, 0, &mut ops_array)
        },
        "typed array",
    )?;
    let mut int64s_array = std::ptr::null_mut();
    check(
        unsafe {
            sys::napi_create_typedarray(
                js.env,
                sys::TypedarrayType::bigint64_array,
                int64s.len(),
                buffer,
                int64s_at,
                &mut int64s_array,
            )
        },
        "typed array",
    )?;
    Ok((ops_array, int64s_array))
}

/// Reads JSON text under Flow's rules and returns its tape: `[ops, narrow,
/// wide, keys, int64s, shapes]`, which `lib/tape.js` turns into values. The
/// ops and int64s are written into `scratch` when they fit (the ArrayBuffer
/// under an earlier call's ops, which they overwrite). Use `parse` instead.
#[napi(
    js_name = "parseTape",
    ts_args_type = "text: string | Uint8Array, limits?: Limits, scratch?: ArrayBuffer",
    ts_return_type = "[Int32Array, string, string, Int32Array, BigInt64Array, Int32Array]"
)]
pub fn parse_tape(env: Env, text: In, limits: Option<In>, scratch: Option<In>) -> Result<Out> {
    let js = Js::new(env.raw());
    let limits = limits_of(js, limits)?;
    // SAFETY: the text is read whole before any JavaScript value is made.
    let bytes = unsafe { input_bytes(js, text.0) }.map_err(|f| f.throw(js))?;
    if bytes.len() > i32::MAX as usize {
        return Err(napi::Error::new(
            napi::Status::InvalidArg,
            "a text past 2 GiB is too large to parse into JavaScript".to_owned(),
        ));
    }
    // The text is read whole before any JavaScript value is made (it may be
    // a Uint8Array's bytes, read in place).
    let mut tape = JsonTape::new(bytes.len());
    let read = read(&bytes, &limits, &mut tape);
    drop(bytes);
    read.map_err(|e| throw_flow(js, &e))?;
    tape.texts.fits().map_err(|e| throw_flow(js, &e))?;
    tape.seen.finish(&mut tape.ops);
    let (ops, int64s) = scratch_arrays(js, scratch.map(|s| s.0), &tape.ops, &tape.int64s)?;
    JsonTape::spare(tape.ops, tape.int64s);
    let args = [
        ops,
        external_string(js, tape.texts.narrow)?,
        external_string(js, tape.texts.wide)?,
        handed_over(js, tape.shapes.key_table, sys::TypedarrayType::int32_array)?,
        int64s,
        handed_over(js, tape.shapes.shape_table, sys::TypedarrayType::int32_array)?,
    ];
    let out = js.array(args.len())?;
    for (i, arg) in args.into_iter().enumerate() {
        js.set_index(out, i, arg)?;
    }
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
    let mut writer =
        Writer { ops, at: 0, units: &units, pos: 0, max_digits: limits.max_digits, scratch: String::new() };
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
    check(
        unsafe { sys::napi_get_typedarray_info(js.env, v, &mut kind, &mut len, &mut data, &mut buffer, &mut offset) },
        "Int32Array",
    )?;
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
