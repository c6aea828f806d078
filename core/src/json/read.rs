//! The one reader of JSON text: RFC 8259, UTF-8 without a byte-order mark,
//! held to `Limits` (size, depth, digits by value), escaped lone surrogates and
//! duplicate keys refused (`decisions.md` section 2). It holds every rule and
//! builds nothing: it hands what it reads to a [`Sink`], which builds whatever
//! it likes. [`super::parse`] builds the [`super::Json`] tree with one; a
//! binding can write its own form directly (the Node binding writes a flat
//! tape for JavaScript) without a tree in between.
//!
//! A sink sees values bottom-up, in text order: an array's items between
//! [`Sink::begin_array`] and [`Sink::end_array`], an object's keys and values
//! between [`Sink::begin_object`] and [`Sink::end_object`], which also gives
//! all its keys again ([`Keys`], without a copy) and says in which order they
//! ascend (code-point order, which is UTF-8 byte order).
//! Strings arrive with their escapes decoded, numbers as written
//! ([`ScannedNumber`], already within the digit limit), and nothing a sink sees
//! is ever refused afterwards except by an enclosing value's error: a refusal
//! ends the read, and its path is gathered as the error unwinds, so a success
//! pays nothing for it.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};

use crate::error::{Error, Result, Rule, Seg};
use crate::limits::Limits;
use crate::number::{scan_json_number, ScannedNumber};

/// Below this many keys before it, an out-of-order key is checked for a
/// duplicate by comparing it with each (records are this small); from there
/// on by hash, so that a huge object stays linear.
const DIRECT_DUPLICATE_SCAN: usize = 16;

/// What a reader builds with. `Value` is one built value; `Array` and
/// `Object` are whatever a sink keeps while one is open.
pub trait Sink {
    /// One value the sink built.
    type Value;
    /// What the sink keeps while an array is open.
    type Array;
    /// What the sink keeps while an object is open.
    type Object;
    /// A `null`.
    fn null(&mut self) -> Self::Value;
    /// A `true` or `false`.
    fn boolean(&mut self, value: bool) -> Self::Value;
    /// A number within the digit limit.
    fn number(&mut self, number: &ScannedNumber<'_>) -> Self::Value;
    /// A string, escapes decoded (valid UTF-8: no lone surrogates).
    fn string(&mut self, text: &str) -> Self::Value;
    /// An array's start.
    fn begin_array(&mut self) -> Self::Array;
    /// An array's next item.
    fn item(&mut self, array: &mut Self::Array, item: Self::Value);
    /// The array's end.
    fn end_array(&mut self, array: Self::Array) -> Self::Value;
    /// An object's start.
    fn begin_object(&mut self) -> Self::Object;
    /// A member's key, before its value.
    fn key(&mut self, object: &mut Self::Object, key: &str);
    /// A member's value, after its key.
    fn member(&mut self, object: &mut Self::Object, value: Self::Value);
    /// The object's end: its keys (unique, in text order, as the reader
    /// holds them: no copy), and how they ascend.
    fn end_object(&mut self, object: Self::Object, keys: Keys<'_>, order: Order<'_>) -> Self::Value;
}

/// An object's keys in text order, escapes decoded.
#[derive(Clone, Copy)]
pub struct Keys<'a> {
    text: &'a str,
    arena: &'a str,
    keys: &'a [Key],
}

impl<'a> Keys<'a> {
    /// The number of keys.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the object has no keys.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The keys in text order, escapes decoded.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> + 'a {
        let (text, arena) = (self.text, self.arena);
        self.keys.iter().map(move |k| k.str(text, arena))
    }
}

/// How an object's keys ascend.
#[derive(Debug, Clone, Copy)]
pub enum Order<'a> {
    /// In text order (canonical text, among others).
    Text,
    /// The members' text-order indices, in ascending key order.
    Sorted(&'a [usize]),
}

/// Reads one JSON text under `limits` into `sink`: RFC 8259, UTF-8 without a
/// byte-order mark, no duplicate keys, no escaped lone surrogates, depth and
/// number limits.
pub fn read<S: Sink>(bytes: &[u8], limits: &Limits, sink: &mut S) -> Result<S::Value> {
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
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        limits,
        depth: 0,
        sink,
        scratch: String::new(),
        keys: Vec::new(),
        arena: String::new(),
        order: Vec::new(),
    };
    reader.skip_ws();
    let value = reader.value()?;
    reader.skip_ws();
    if reader.pos != reader.bytes.len() {
        return Err(reader.syntax("unexpected text after the JSON value"));
    }
    Ok(value)
}

/// Where a string just read is: in the text (no escapes) or in `scratch`.
#[derive(Clone, Copy)]
enum Read {
    Text(usize, usize),
    Scratch,
}

/// Where a key of an open object is: in the text, or (when it had escapes)
/// in `arena`; and its first eight bytes as a big-endian number (zeros after
/// a shorter key), which orders most keys without looking further.
#[derive(Clone, Copy)]
struct Key {
    start: usize,
    end: usize,
    in_arena: bool,
    prefix: u64,
}

impl Key {
    #[inline]
    fn new(start: usize, end: usize, in_arena: bool, text: &str) -> Key {
        let prefix = match text.as_bytes().first_chunk::<8>() {
            Some(head) => u64::from_be_bytes(*head),
            None => text.bytes().enumerate().fold(0, |p, (i, b)| p | u64::from(b) << (56 - 8 * i)),
        };
        Key { start, end, in_arena, prefix }
    }

    #[inline]
    fn str<'k>(self, text: &'k str, arena: &'k str) -> &'k str {
        if self.in_arena {
            &arena[self.start..self.end]
        } else {
            &text[self.start..self.end]
        }
    }
}

/// Keys in code-point order, which is UTF-8 byte order.
#[inline]
fn key_cmp(a: Key, b: Key, text: &str, arena: &str) -> std::cmp::Ordering {
    a.prefix.cmp(&b.prefix).then_with(|| a.str(text, arena).cmp(b.str(text, arena)))
}

struct Reader<'t, 's, S> {
    // Valid UTF-8, checked before reading; `bytes` is `text`'s bytes.
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    limits: &'s Limits,
    depth: usize,
    sink: &'s mut S,
    /// The decoded text of the last string that had escapes.
    scratch: String,
    /// The keys of the open objects, outermost first.
    keys: Vec<Key>,
    /// The decoded text of those keys that had escapes.
    arena: String,
    /// An object's members in ascending key order, when they came otherwise.
    order: Vec<usize>,
}

impl<S: Sink> Reader<'_, '_, S> {
    fn syntax(&self, what: &str) -> Error {
        Error::new(Rule::Syntax, format!("invalid JSON at byte {}: {what}", self.pos))
    }

    #[inline]
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn literal(&mut self, literal: &str) -> Result<()> {
        if self.bytes[self.pos..].starts_with(literal.as_bytes()) {
            self.pos += literal.len();
            Ok(())
        } else {
            Err(self.syntax("expected a JSON value"))
        }
    }

    fn value(&mut self) -> Result<S::Value> {
        match self.bytes.get(self.pos) {
            None => Err(self.syntax("unexpected end of text")),
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => {
                let read = self.string()?;
                let text = match read {
                    Read::Text(a, b) => &self.text[a..b],
                    Read::Scratch => self.scratch.as_str(),
                };
                Ok(self.sink.string(text))
            }
            Some(b't') => {
                self.literal("true")?;
                Ok(self.sink.boolean(true))
            }
            Some(b'f') => {
                self.literal("false")?;
                Ok(self.sink.boolean(false))
            }
            Some(b'n') => {
                self.literal("null")?;
                Ok(self.sink.null())
            }
            Some(b'-' | b'0'..=b'9') => {
                let Some((number, end)) = scan_json_number(self.bytes, self.pos) else {
                    return Err(self.syntax("malformed number"));
                };
                number.check_digits(self.limits.max_digits)?;
                self.pos = end;
                Ok(self.sink.number(&number))
            }
            Some(_) => Err(self.syntax("expected a JSON value")),
        }
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

    fn array(&mut self) -> Result<S::Value> {
        self.enter()?;
        self.pos += 1;
        let mut array = self.sink.begin_array();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(self.sink.end_array(array));
        }
        let mut index = 0;
        loop {
            self.skip_ws();
            let item = self.value().map_err(|e| e.under(Seg::Index(index)))?;
            self.sink.item(&mut array, item);
            index += 1;
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
        Ok(self.sink.end_array(array))
    }

    fn object(&mut self) -> Result<S::Value> {
        self.enter()?;
        self.pos += 1;
        let mut object = self.sink.begin_object();
        self.skip_ws();
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            self.depth -= 1;
            return Ok(self.sink.end_object(object, Keys { text: self.text, arena: "", keys: &[] }, Order::Text));
        }
        let (base, arena_base) = (self.keys.len(), self.arena.len());
        // Whether every key so far came after the one before it: then there
        // is no duplicate and nothing to sort.
        let mut ascending = true;
        // Once keys come out of order, the hashes of those read so far: a
        // duplicate is refused when it is read, not when the object ends (one
        // key given 10^6 times would otherwise cost the memory of 10^6
        // members, many times the text's size). Seeded per object, so nobody
        // can choose keys that collide.
        let mut seen: Option<(HashSet<u64>, RandomState)> = None;
        loop {
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.syntax("expected a string key"));
            }
            let key = match self.string()? {
                Read::Text(a, b) => Key::new(a, b, false, &self.text[a..b]),
                Read::Scratch => {
                    let a = self.arena.len();
                    self.arena.push_str(&self.scratch);
                    Key::new(a, self.arena.len(), true, &self.scratch)
                }
            };
            let text = key.str(self.text, &self.arena);
            if ascending && self.keys.len() > base {
                let previous = *self.keys.last().expect("a key before");
                match key_cmp(previous, key, self.text, &self.arena) {
                    std::cmp::Ordering::Less => {}
                    std::cmp::Ordering::Equal => return Err(duplicate_key(text)),
                    std::cmp::Ordering::Greater => ascending = false,
                }
            }
            if !ascending && self.keys.len() - base < DIRECT_DUPLICATE_SCAN {
                // A few keys: comparing with each is cheaper than hashing.
                let (arena, keys) = (self.arena.as_str(), &self.keys[base..]);
                if keys.iter().any(|k| k.str(self.text, arena) == text) {
                    return Err(duplicate_key(text));
                }
            } else if !ascending {
                let (arena, keys) = (self.arena.as_str(), &self.keys[base..]);
                let (hashes, state) = seen.get_or_insert_with(|| {
                    let state = RandomState::new();
                    (keys.iter().map(|k| state.hash_one(k.str(self.text, arena))).collect(), state)
                });
                // A hash seen before is a duplicate only if the key itself is.
                if !hashes.insert(state.hash_one(text)) && keys.iter().any(|k| k.str(self.text, arena) == text) {
                    return Err(duplicate_key(text));
                }
            }
            self.keys.push(key);
            self.sink.key(&mut object, text);
            self.skip_ws();
            if self.bytes.get(self.pos) != Some(&b':') {
                return Err(self.syntax("expected ':'"));
            }
            self.pos += 1;
            self.skip_ws();
            let value = match self.value() {
                Ok(v) => v,
                Err(e) => return Err(e.under(Seg::Key(key.str(self.text, &self.arena).to_owned()))),
            };
            self.sink.member(&mut object, value);
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
        let (text, arena, keys) = (self.text, self.arena.as_str(), &self.keys[base..]);
        let value = if ascending {
            self.sink.end_object(object, Keys { text, arena, keys }, Order::Text)
        } else {
            self.order.clear();
            self.order.extend(0..keys.len());
            self.order.sort_unstable_by(|&a, &b| key_cmp(keys[a], keys[b], text, arena));
            // Duplicates were refused as they were read.
            debug_assert!(self.order.windows(2).all(|w| key_cmp(keys[w[0]], keys[w[1]], text, arena).is_lt()));
            self.sink.end_object(object, Keys { text, arena, keys }, Order::Sorted(&self.order))
        };
        self.keys.truncate(base);
        self.arena.truncate(arena_base);
        Ok(value)
    }

    /// Reads a string at `pos` (which holds the opening quote).
    fn string(&mut self) -> Result<Read> {
        self.pos += 1;
        let start = self.pos;
        // Fast path: no escapes.
        loop {
            match self.bytes.get(self.pos) {
                None => return Err(self.syntax("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Read::Text(start, self.pos - 1));
                }
                Some(b'\\') => break,
                Some(&c) if c < 0x20 => return Err(self.syntax("control character in string")),
                Some(_) => self.pos += 1,
            }
        }
        self.scratch.clear();
        self.scratch.push_str(&self.text[start..self.pos]);
        loop {
            let run = self.pos;
            while let Some(&c) = self.bytes.get(self.pos) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            self.scratch.push_str(&self.text[run..self.pos]);
            match self.bytes.get(self.pos) {
                None => return Err(self.syntax("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(Read::Scratch);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape()?;
                }
                Some(_) => return Err(self.syntax("control character in string")),
            }
        }
    }

    fn escape(&mut self) -> Result<()> {
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
                self.scratch.push(char::from_u32(code).expect("a scalar value"));
                return Ok(());
            }
            _ => return Err(self.syntax("invalid escape")),
        };
        self.pos += 1;
        self.scratch.push(c);
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

fn duplicate_key(key: &str) -> Error {
    let mut quoted = String::new();
    super::string::write_string(&mut quoted, key);
    Error::new(Rule::DuplicateKey, format!("duplicate key {quoted}"))
}
