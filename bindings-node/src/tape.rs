//! Exact JSON into JavaScript without a Node-API call per value. Building a
//! 5 MB document value by value costs two calls per value, most of parse's
//! time; instead flow-core reads the text (every rule and limit checked), this
//! module writes the tree as a tape (opcodes and operands in an Int32Array,
//! all string contents in one string), and `lib/tape.js` builds the values in
//! JavaScript, where V8 makes object and array creation cheap.
//!
//! Tape (`i32`s): `NULL`, `FALSE`, `TRUE`; `STRING start len` (UTF-16 offsets
//! into the text); `INT value` for an integer that fits an i32; `BIGINT start
//! len` for a longer integer's decimal text; `DECIMAL start len exponent` for
//! a fractional number (its coefficient's text); `ARRAY n` then n values;
//! `OBJECT n` then n pairs of a key index and a value. Keys are written once
//! each, into a table of `start len` pairs.

use std::collections::HashMap;

use flow_core::json::Json;
use flow_core::Number;
use napi::{sys, Env, Result};
use napi_derive::napi;

use crate::classes::throw_flow;
use crate::js::{check, In, Js, Out, Raw};
use crate::text::{input_bytes, limits_of};

const NULL: i32 = 0;
const FALSE: i32 = 1;
const TRUE: i32 = 2;
const STRING: i32 = 3;
const INT: i32 = 4;
const BIGINT: i32 = 5;
const DECIMAL: i32 = 6;
const ARRAY: i32 = 7;
const OBJECT: i32 = 8;

#[derive(Default)]
struct Tape<'a> {
    ops: Vec<i32>,
    text: String,
    /// The text's length in UTF-16 code units: JavaScript's string offsets.
    units: usize,
    keys: HashMap<&'a str, i32>,
    key_table: Vec<i32>,
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
                    let index = match self.keys.get(key) {
                        Some(&index) => index,
                        None => {
                            let index = (self.key_table.len() / 2) as i32;
                            let start = self.units;
                            let n = units(key);
                            self.text.push_str(key);
                            self.units += n;
                            self.key_table.extend([start as i32, n as i32]);
                            self.keys.insert(key, index);
                            index
                        }
                    };
                    self.ops.push(index);
                    self.value(member);
                }
            }
        }
    }
}

fn int32_array(js: Js, values: &[i32]) -> Result<Raw> {
    let bytes = std::mem::size_of_val(values);
    let mut data = std::ptr::null_mut();
    let mut buffer = std::ptr::null_mut();
    check(unsafe { sys::napi_create_arraybuffer(js.env, bytes, &mut data, &mut buffer) }, "array buffer")?;
    if bytes > 0 {
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr() as *const u8, data as *mut u8, bytes) };
    }
    let mut array = std::ptr::null_mut();
    check(
        unsafe { sys::napi_create_typedarray(js.env, sys::TypedarrayType::int32_array, values.len(), buffer, 0, &mut array) },
        "Int32Array",
    )?;
    Ok(array)
}

/// Reads JSON text under Flow's rules and returns its tape: `[ops, text,
/// keys]`, which `lib/tape.js` turns into values. Use `parse` instead.
#[napi(js_name = "parseTape", ts_args_type = "text: string | Uint8Array, limits?: Limits", ts_return_type = "[Int32Array, string, Int32Array]")]
pub fn parse_tape(env: Env, text: In, limits: Option<In>) -> Result<Out> {
    let js = Js::new(env.raw());
    let limits = limits_of(js, limits)?;
    let bytes = input_bytes(js, text.0).map_err(|f| f.throw(js))?;
    let json = flow_core::json::parse(&bytes, &limits).map_err(|e| throw_flow(js, &e))?;
    let mut tape = Tape { text: String::with_capacity(bytes.len()), ..Tape::default() };
    tape.value(&json);
    let out = js.array(3)?;
    js.set_index(out, 0, int32_array(js, &tape.ops)?)?;
    js.set_index(out, 1, js.string(&tape.text)?)?;
    js.set_index(out, 2, int32_array(js, &tape.key_table)?)?;
    Ok(Out(out))
}
