//! Exact JSON: a strict RFC 8259 reader held to `Limits`, a tree whose numbers
//! are exact and whose objects are sorted, and the canonical writer of
//! `host-boundary.md`, "The canonical form".
//!
//! Objects are stored sorted by key (code-point order, which is UTF-8 byte
//! order), with duplicates refused while reading, so the canonical writer needs
//! no sorting and lookups are binary searches.

use std::cmp::Ordering;
use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};

use crate::error::{Error, Result, Rule, Seg};
use crate::limits::Limits;
use crate::number::{scan_json_number, Number};

/// A JSON value with exact numbers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Json {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Json>),
    Object(Object),
}

/// A JSON object: members sorted by key, keys unique.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Object {
    members: Vec<(String, Json)>,
}

impl Object {
    pub fn new() -> Object {
        Object::default()
    }

    /// Builds an object from members in any order; `Err(key)` names a duplicate.
    pub fn from_members(mut members: Vec<(String, Json)>) -> std::result::Result<Object, String> {
        members.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        if let Some(pair) = members.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(pair[0].0.clone());
        }
        Ok(Object { members })
    }

    /// Inserts or replaces a member.
    pub fn insert(&mut self, key: impl Into<String>, value: Json) {
        let key = key.into();
        match self.members.binary_search_by(|(k, _)| k.as_str().cmp(&key)) {
            Ok(i) => self.members[i].1 = value,
            Err(i) => self.members.insert(i, (key, value)),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        self.members.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok().map(|i| &self.members[i].1)
    }

    pub fn remove(&mut self, key: &str) -> Option<Json> {
        self.members.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok().map(|i| self.members.remove(i).1)
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Members in ascending key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Json)> {
        self.members.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|(k, _)| k.as_str())
    }

    pub fn into_members(self) -> Vec<(String, Json)> {
        self.members
    }
}

impl Json {
    /// What kind of JSON value this is, for messages ("a string", "an array").
    pub fn kind_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    pub fn str(s: impl Into<String>) -> Json {
        Json::String(s.into())
    }

    /// An object from members; panics on a duplicate key (for building known shapes).
    pub fn object<K: Into<String>>(members: impl IntoIterator<Item = (K, Json)>) -> Json {
        let members = members.into_iter().map(|(k, v)| (k.into(), v)).collect();
        Json::Object(Object::from_members(members).expect("object built with unique keys"))
    }

    /// The canonical text of this value.
    pub fn to_canonical(&self) -> String {
        let mut out = String::new();
        write_canonical(&mut out, self);
        out
    }

    /// The order of `decisions.md` section 3 for json.Value: Null < Bool < Number
    /// < String < Array < Object, then the payload (objects as ascending pairs).
    pub fn flow_cmp(&self, other: &Json) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        fn rank(j: &Json) -> u8 {
            match j {
                Json::Null => 0,
                Json::Bool(_) => 1,
                Json::Number(_) => 2,
                Json::String(_) => 3,
                Json::Array(_) => 4,
                Json::Object(_) => 5,
            }
        }
        match (self, other) {
            (Json::Bool(a), Json::Bool(b)) => a.cmp(b),
            (Json::Number(a), Json::Number(b)) => a.cmp(b),
            (Json::String(a), Json::String(b)) => a.cmp(b),
            (Json::Array(a), Json::Array(b)) => {
                for (x, y) in a.iter().zip(b) {
                    match x.flow_cmp(y) {
                        Ordering::Equal => {}
                        o => return o,
                    }
                }
                a.len().cmp(&b.len())
            }
            (Json::Object(a), Json::Object(b)) => {
                for ((ka, va), (kb, vb)) in a.iter().zip(b.iter()) {
                    match ka.cmp(kb).then_with(|| va.flow_cmp(vb)) {
                        Ordering::Equal => {}
                        o => return o,
                    }
                }
                a.len().cmp(&b.len())
            }
            _ => rank(self).cmp(&rank(other)),
        }
    }
}

/// json.Value's order (`decisions.md` section 3), so a json.Value can be an
/// element of a `BTreeSet` or a key of a `BTreeMap` in generated Rust types.
/// It agrees with `Eq`: numbers are normalized and objects sorted, so equal
/// trees are the equal values.
impl Ord for Json {
    fn cmp(&self, other: &Json) -> std::cmp::Ordering {
        self.flow_cmp(other)
    }
}

impl PartialOrd for Json {
    fn partial_cmp(&self, other: &Json) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Reads one JSON text under `limits`: RFC 8259, UTF-8 without a byte-order
/// mark, no duplicate keys, no escaped lone surrogates, depth and number limits.
pub fn parse(bytes: &[u8], limits: &Limits) -> Result<Json> {
    if bytes.len() > limits.max_bytes {
        return Err(Error::new(
            Rule::TooLarge,
            format!("text is {} bytes, more than the limit of {}", bytes.len(), limits.max_bytes),
        ));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(Error::new(Rule::ByteOrderMark, "a byte-order mark is not allowed"));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return Err(Error::new(Rule::Utf8, format!("invalid UTF-8 at byte {}", e.valid_up_to())));
        }
    };
    let mut reader = Reader { bytes: text.as_bytes(), pos: 0, limits, depth: 0 };
    reader.skip_ws();
    let value = reader.value()?;
    reader.skip_ws();
    if reader.pos != reader.bytes.len() {
        return Err(reader.syntax("unexpected text after the JSON value"));
    }
    Ok(value)
}

/// Reads a JSON text given as `&str`.
pub fn parse_str(text: &str, limits: &Limits) -> Result<Json> {
    parse(text.as_bytes(), limits)
}

/// The canonical text of any JSON text: read under `limits`, then written in
/// canonical form.
pub fn canonicalize(bytes: &[u8], limits: &Limits) -> Result<String> {
    let value = parse(bytes, limits)?;
    let mut out = String::with_capacity(bytes.len());
    write_canonical(&mut out, &value);
    Ok(out)
}

struct Reader<'a> {
    // Valid UTF-8, checked before reading.
    bytes: &'a [u8],
    pos: usize,
    limits: &'a Limits,
    depth: usize,
}

impl<'a> Reader<'a> {
    fn syntax(&self, what: &str) -> Error {
        Error::new(Rule::Syntax, format!("invalid JSON at byte {}: {what}", self.pos))
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn expect_literal(&mut self, literal: &str, value: Json) -> Result<Json> {
        if self.bytes[self.pos..].starts_with(literal.as_bytes()) {
            self.pos += literal.len();
            Ok(value)
        } else {
            Err(self.syntax("expected a JSON value"))
        }
    }

    fn value(&mut self) -> Result<Json> {
        match self.bytes.get(self.pos) {
            None => Err(self.syntax("unexpected end of text")),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.expect_literal("true", Json::Bool(true)),
            Some(b'f') => self.expect_literal("false", Json::Bool(false)),
            Some(b'n') => self.expect_literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.syntax("expected a JSON value")),
        }
    }

    fn number(&mut self) -> Result<Json> {
        let Some((number, end)) = scan_json_number(self.bytes, self.pos) else {
            return Err(self.syntax("malformed number"));
        };
        number.check_digits(self.limits.max_digits)?;
        self.pos = end;
        Ok(Json::Number(number))
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            return Err(Error::new(
                Rule::TooDeep,
                format!("arrays and objects nested deeper than {}", self.limits.max_depth),
            ));
        }
        Ok(())
    }

    fn array(&mut self) -> Result<Json> {
        self.enter()?;
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_ws();
            let index = items.len();
            items.push(self.value().map_err(|e| e.under(Seg::Index(index)))?);
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.syntax("expected ',' or ']'")),
            }
        }
        self.depth -= 1;
        Ok(Json::Array(items))
    }

    fn object(&mut self) -> Result<Json> {
        self.enter()?;
        self.pos += 1;
        let mut members: Vec<(String, Json)> = Vec::new();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(Json::Object(Object::default()));
        }
        let mut sorted = true;
        // Hashes of the keys read so far, kept once keys arrive out of order:
        // a duplicate is refused when it is read, not after the whole object
        // is built (one key given 10^6 times would otherwise cost the memory
        // of 10^6 members, many times the text's size).
        let mut seen: Option<(HashSet<u64>, RandomState)> = None;
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.syntax("expected a string key"));
            }
            let key = self.string()?;
            if let Some((last, _)) = members.last() {
                match last.as_str().cmp(key.as_str()) {
                    Ordering::Less => {}
                    Ordering::Equal => return Err(duplicate_key(&key)),
                    Ordering::Greater => sorted = false,
                }
            }
            if !sorted {
                let (hashes, state) = seen.get_or_insert_with(|| {
                    // Seeded per object: nobody can choose keys that collide.
                    let state = RandomState::new();
                    (members.iter().map(|(k, _)| state.hash_one(k)).collect(), state)
                });
                // A hash seen before is a duplicate only if the key itself is.
                if !hashes.insert(state.hash_one(&key)) && members.iter().any(|(k, _)| *k == key) {
                    return Err(duplicate_key(&key));
                }
            }
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return Err(self.syntax("expected ':'"));
            }
            self.pos += 1;
            self.skip_ws();
            let value = match self.value() {
                Ok(v) => v,
                Err(e) => return Err(e.under(Seg::Key(key))),
            };
            members.push((key, value));
            self.skip_ws();
            match self.bytes.get(self.pos) {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => return Err(self.syntax("expected ',' or '}'")),
            }
        }
        self.depth -= 1;
        // Text that is already canonical arrives sorted: skip the sort then.
        if sorted {
            return Ok(Json::Object(Object { members }));
        }
        Object::from_members(members).map(Json::Object).map_err(|key| duplicate_key(&key))
    }

    /// Reads a string at `pos` (which holds the opening quote).
    fn string(&mut self) -> Result<String> {
        self.pos += 1;
        let start = self.pos;
        // Fast path: no escapes.
        loop {
            match self.bytes.get(self.pos) {
                None => return Err(self.syntax("unterminated string")),
                Some(b'"') => {
                    let s = self.slice(start, self.pos);
                    self.pos += 1;
                    return Ok(s.to_owned());
                }
                Some(b'\\') => break,
                Some(&c) if c < 0x20 => return Err(self.syntax("control character in string")),
                Some(_) => self.pos += 1,
            }
        }
        let mut out = String::with_capacity(self.pos - start + 16);
        out.push_str(self.slice(start, self.pos));
        loop {
            let run = self.pos;
            while let Some(&c) = self.bytes.get(self.pos) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(self.slice(run, self.pos));
            match self.bytes.get(self.pos) {
                None => return Err(self.syntax("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => return Err(self.syntax("control character in string")),
            }
        }
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        // Boundaries are at ASCII bytes of valid UTF-8.
        std::str::from_utf8(&self.bytes[start..end]).expect("valid UTF-8")
    }

    fn escape(&mut self, out: &mut String) -> Result<()> {
        let c = match self.bytes.get(self.pos) {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.pos += 1;
                let unit = self.hex4()?;
                let code = if (0xD800..0xDC00).contains(&unit) {
                    if self.bytes.get(self.pos) == Some(&b'\\') && self.bytes.get(self.pos + 1) == Some(&b'u') {
                        self.pos += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..0xE000).contains(&low) {
                            return Err(self.lone_surrogate());
                        }
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        return Err(self.lone_surrogate());
                    }
                } else if (0xDC00..0xE000).contains(&unit) {
                    return Err(self.lone_surrogate());
                } else {
                    unit
                };
                out.push(char::from_u32(code).expect("a scalar value"));
                return Ok(());
            }
            _ => return Err(self.syntax("invalid escape")),
        };
        self.pos += 1;
        out.push(c);
        Ok(())
    }

    fn lone_surrogate(&self) -> Error {
        Error::new(Rule::LoneSurrogate, format!("escaped lone surrogate before byte {}", self.pos))
    }

    fn hex4(&mut self) -> Result<u32> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.bytes.get(self.pos) {
                Some(&c @ b'0'..=b'9') => c - b'0',
                Some(&c @ b'a'..=b'f') => c - b'a' + 10,
                Some(&c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.syntax("invalid \\u escape")),
            };
            v = v * 16 + d as u32;
            self.pos += 1;
        }
        Ok(v)
    }
}

/// Appends the canonical text of `value`.
fn duplicate_key(key: &str) -> Error {
    let mut quoted = String::new();
    write_string(&mut quoted, key);
    Error::new(Rule::DuplicateKey, format!("duplicate key {quoted}"))
}

pub fn write_canonical(out: &mut String, value: &Json) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(true) => out.push_str("true"),
        Json::Bool(false) => out.push_str("false"),
        Json::Number(n) => n.write_canonical(out),
        Json::String(s) => write_string(out, s),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        Json::Object(object) => {
            out.push('{');
            for (i, (key, item)) in object.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_canonical(out, item);
            }
            out.push('}');
        }
    }
}

/// Appends a string in canonical form: only `"`, `\` and U+0000..U+001F are
/// escaped, with the short escapes where they exist and lower-case `\u00xx`
/// otherwise; every other code point is written as itself.
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    // `run`: where the bytes not yet written start; `i`: the next to look at.
    let (mut run, mut i) = (0, 0);
    while i < bytes.len() {
        // Eight bytes at a time while none of them needs escaping.
        if let Some(word) = bytes.get(i..i + 8) {
            if !needs_escape(u64::from_le_bytes(word.try_into().expect("eight bytes"))) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[run..i]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        } else {
            out.push_str(escape);
        }
        i += 1;
        run = i;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// Whether any of eight bytes (a little-endian word) is `"`, `\` or below
/// 0x20. Exact: each test is nonzero only when some byte matches (a borrow
/// starts only at a matching byte).
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w & HIGH;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    (below(word, 0x20) | below(quote, 1) | below(backslash, 1)) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `write_string` one character at a time, as the rule reads.
    fn escaped_by_the_rule(s: &str) -> String {
        let mut out = String::from('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn write_string_escapes_each_byte_at_each_place_of_a_word() {
        let special = ['"', '\\', '\u{0}', '\n', '\u{1f}', '\u{7f}', ' ', '!', '#', '[', ']', 'é', '東', '🌧'];
        for len in 0..20 {
            for at in 0..len.max(1) {
                for c in special.iter().copied().chain((0u8..0x80).map(char::from)) {
                    let s: String = (0..len).map(|i| if i == at { c } else { 'a' }).collect();
                    let mut out = String::new();
                    write_string(&mut out, &s);
                    assert_eq!(out, escaped_by_the_rule(&s), "{s:?}");
                }
            }
        }
        let all: String = special.iter().collect::<String>().repeat(3);
        for start in 0..all.len() {
            if let Some(s) = all.get(start..) {
                let mut out = String::new();
                write_string(&mut out, s);
                assert_eq!(out, escaped_by_the_rule(s), "{s:?}");
            }
        }
    }

    fn canon(text: &str) -> Result<String> {
        canonicalize(text.as_bytes(), &Limits::default())
    }

    #[test]
    fn sorts_keys_and_strips_whitespace() {
        assert_eq!(canon(r#" { "b" : [1.50, -0, 1e2], "a":"x\u00e9\n\u001F" } "#).unwrap(), "{\"a\":\"xé\\n\\u001f\",\"b\":[1.5,0,100]}");
    }

    #[test]
    fn refuses() {
        assert_eq!(canon(r#"{"a":1,"a":2}"#).unwrap_err().rule, Rule::DuplicateKey);
        assert_eq!(canon(r#""\ud800""#).unwrap_err().rule, Rule::LoneSurrogate);
        assert_eq!(canon("\u{feff}1").unwrap_err().rule, Rule::ByteOrderMark);
        assert_eq!(canon("1e4300").unwrap_err().rule, Rule::NumberTooLarge);
        let e = canon(r#"{"days":[{},{},{},{"high_c":1e5000}]}"#).unwrap_err();
        assert_eq!(e.path.to_string(), "$.days[3].high_c");
        let deep = "[".repeat(129) + &"]".repeat(129);
        assert_eq!(canon(&deep).unwrap_err().rule, Rule::TooDeep);
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert!(canon(&ok).is_ok());
    }

    /// A duplicate is refused as soon as its key is read, adjacent or not:
    /// the text after it is never read (here it is not even JSON), so one key
    /// given 10^6 times costs no more than reading two members.
    #[test]
    fn a_duplicate_key_is_refused_where_it_is_read() {
        for text in [r#"{"a":1,"a":2,"#, r#"{"b":1,"a":2,"b":3,"#, r#"{"x":{"k":1,"j":2,"k":"#] {
            let e = canon(text).unwrap_err();
            assert_eq!(e.rule, Rule::DuplicateKey, "{text}: {e}");
        }
        assert_eq!(canon(r#"{"x":{"k":1,"j":2,"k":"#).unwrap_err().path.to_string(), "$.x");
        // Keys equal only once unescaped, out of order.
        assert_eq!(canon(r#"{"b":1,"a":2,"\u0062":3}"#).unwrap_err().rule, Rule::DuplicateKey);
        // Many distinct keys out of order are no duplicate.
        let members: Vec<String> = (0..2000).rev().map(|i| format!("\"{i}\":{i}")).collect();
        assert!(canon(&format!("{{{}}}", members.join(","))).is_ok());
    }

    #[test]
    fn surrogate_pairs_join() {
        assert_eq!(canon(r#""\ud834\udd1e""#).unwrap(), "\"𝄞\"");
    }
}
