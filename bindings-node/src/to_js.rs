//! Flow values to JavaScript values (the mapping of `lib/index.d.ts`):
//! Int `bigint`, Decimal `Decimal`, Text `string`, Bool `boolean`, Bytes a
//! `Uint8Array` (a Buffer), Unit `null`, Instant and Duration their classes,
//! List and Tuple arrays, Set a `ReadonlySet`, Dict a `ReadonlyMap` (the
//! built-in ones where JavaScript's equality is Flow's, `FlowSet` and
//! `FlowMap` otherwise), records plain objects with the declared field names,
//! enums `{ case, value }`, Option `undefined` for None and the payload for
//! Some (wrapped in `Some` only when the payload is itself an Option),
//! json.Value plain JSON with `bigint` (whole) and `Decimal` (fractional)
//! numbers, host tokens `HostToken`.
//!
//! A value carries what its conversion needs, so no type is consulted here.

use std::collections::HashMap;
use std::sync::Arc;

use flow_core::json::Json;
use flow_core::value::{EnumPayload, Value};
use flow_core::Number;
use napi::Result;
use num_bigint::BigInt;

use crate::classes::Classes;
use crate::js::{Js, Raw};

pub struct ToJs {
    js: Js,
    c: Classes,
    /// Member names already made into JS strings, by text.
    names: HashMap<Box<str>, Raw>,
    case: Raw,
    value: Raw,
}

/// Whether JavaScript's own equality (SameValueZero) is Flow's for a value
/// of this kind: then sets and maps use the built-in Set and Map.
pub fn builtin_key(value: &Value) -> bool {
    matches!(value, Value::Text(_) | Value::Int(_) | Value::Bool(_) | Value::Unit)
}

impl ToJs {
    pub fn new(js: Js, c: Classes) -> Result<ToJs> {
        Ok(ToJs { js, c, names: HashMap::new(), case: js.string("case")?, value: js.string("value")? })
    }

    pub fn classes(&self) -> &Classes {
        &self.c
    }

    fn name(&mut self, name: &str) -> Result<Raw> {
        if let Some(&raw) = self.names.get(name) {
            return Ok(raw);
        }
        let raw = self.js.string(name)?;
        self.names.insert(name.into(), raw);
        Ok(raw)
    }

    pub fn value(&mut self, value: &Value) -> Result<Raw> {
        let js = self.js;
        match value {
            Value::Unit => js.null(),
            Value::Bool(b) => js.boolean(*b),
            Value::Int(i) => match i64::try_from(i) {
                Ok(small) => js.bigint_i64(small),
                Err(_) => js.bigint(i),
            },
            Value::Decimal(n) => self.decimal(n),
            Value::Text(s) => js.string(s),
            Value::Bytes(b) => js.bytes(b),
            Value::Instant(i) => {
                let nanos = js.bigint(&BigInt::from(i.nanos()))?;
                js.new_instance(self.c.instant, &[nanos])
            }
            Value::Duration(d) => {
                let nanos = js.bigint(&BigInt::from(d.nanos()))?;
                js.new_instance(self.c.duration, &[nanos])
            }
            Value::List(items) | Value::Tuple(items) => self.array(items),
            Value::Set(items) => {
                let array = self.array(items)?;
                let builtin = items.first().is_none_or(builtin_key);
                js.new_instance(if builtin { self.c.set } else { self.c.flow_set }, &[array])
            }
            Value::TextDict(entries) => {
                let pairs = js.array(entries.len())?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    let pair = js.array(2)?;
                    js.set_index(pair, 0, js.string(k)?)?;
                    let v = self.value(v)?;
                    js.set_index(pair, 1, v)?;
                    js.set_index(pairs, i, pair)?;
                }
                js.new_instance(self.c.map, &[pairs])
            }
            Value::Dict(entries) => {
                let pairs = js.array(entries.len())?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    let pair = js.array(2)?;
                    let k = self.value(k)?;
                    js.set_index(pair, 0, k)?;
                    let v = self.value(v)?;
                    js.set_index(pair, 1, v)?;
                    js.set_index(pairs, i, pair)?;
                }
                let builtin = entries.first().is_none_or(|(k, _)| builtin_key(k));
                js.new_instance(if builtin { self.c.map } else { self.c.flow_map }, &[pairs])
            }
            Value::Option(None) => js.undefined(),
            Value::Option(Some(inner)) => self.some(inner),
            Value::Record(fields) => self.fields(fields),
            Value::Enum(e) => {
                let object = js.object()?;
                let name = self.name(&e.name)?;
                js.set(object, self.case, name)?;
                let payload = match &e.payload {
                    EnumPayload::None => None,
                    EnumPayload::Positional(parts) if parts.len() == 1 => Some(self.value(&parts[0])?),
                    EnumPayload::Positional(parts) => Some(self.array(parts)?),
                    EnumPayload::Named(fields) => Some(self.fields(fields)?),
                };
                if let Some(payload) = payload {
                    js.set(object, self.value, payload)?;
                }
                Ok(object)
            }
            Value::Json(j) => self.json(j),
            Value::HostToken(j) => {
                let text = js.string(&j.to_canonical())?;
                js.new_instance(self.c.host_token, &[text])
            }
        }
    }

    /// Some(v): v itself, unless v is an Option, which `undefined` could not
    /// tell from None.
    fn some(&mut self, inner: &Value) -> Result<Raw> {
        let v = self.value(inner)?;
        if matches!(inner, Value::Option(_)) {
            self.js.new_instance(self.c.some, &[v])
        } else {
            Ok(v)
        }
    }

    fn array(&mut self, items: &[Value]) -> Result<Raw> {
        let array = self.js.array(items.len())?;
        for (i, item) in items.iter().enumerate() {
            let v = self.value(item)?;
            self.js.set_index(array, i, v)?;
        }
        Ok(array)
    }

    /// A record or named payload: None fields are left out.
    fn fields(&mut self, fields: &[(Arc<str>, Value)]) -> Result<Raw> {
        let js = self.js;
        let object = js.object()?;
        for (name, value) in fields {
            let v = match value {
                Value::Option(None) => continue,
                Value::Option(Some(inner)) => self.some(inner)?,
                other => self.value(other)?,
            };
            let key = self.name(name)?;
            js.set_member(object, key, name, v)?;
        }
        Ok(object)
    }

    /// A bigint of `(-1)^negative * digits * 10^zeros`, without allocating
    /// when it fits in an i64 (18 digits always do).
    fn integer(&self, negative: bool, digits: &str, zeros: usize) -> Result<Raw> {
        if digits.len() + zeros <= 18 {
            let mut i: i64 = 0;
            for b in digits.bytes() {
                i = i * 10 + i64::from(b - b'0');
            }
            for _ in 0..zeros {
                i *= 10;
            }
            return self.js.bigint_i64(if negative { -i } else { i });
        }
        let mut text = String::with_capacity(digits.len() + zeros);
        text.push_str(digits);
        text.extend(std::iter::repeat_n('0', zeros));
        let magnitude = BigInt::parse_bytes(text.as_bytes(), 10).expect("digits are ASCII decimal");
        self.js.bigint(&if negative { -magnitude } else { magnitude })
    }

    /// A `Decimal`, made through its constructor's trusted path: the
    /// coefficient and exponent are already normalized.
    pub fn decimal(&mut self, n: &Number) -> Result<Raw> {
        let js = self.js;
        let args = [self.integer(n.is_negative(), n.digits(), 0)?, js.number(n.exponent() as f64)?, self.c.trusted];
        js.new_instance(self.c.decimal, &args)
    }

    /// JSON with exact numbers: whole ones as `bigint`, others as `Decimal`.
    pub fn json(&mut self, json: &Json) -> Result<Raw> {
        let js = self.js;
        match json {
            Json::Null => js.null(),
            Json::Bool(b) => js.boolean(*b),
            Json::Number(n) if n.is_whole() => self.integer(n.is_negative(), n.digits(), n.exponent() as usize),
            Json::Number(n) => self.decimal(n),
            Json::String(s) => js.string(s),
            Json::Array(items) => {
                let array = js.array(items.len())?;
                for (i, item) in items.iter().enumerate() {
                    let v = self.json(item)?;
                    js.set_index(array, i, v)?;
                }
                Ok(array)
            }
            Json::Object(object) => {
                let out = js.object()?;
                for (k, v) in object.iter() {
                    let v = self.json(v)?;
                    let key = self.name(k)?;
                    js.set_member(out, key, k, v)?;
                }
                Ok(out)
            }
        }
    }
}
