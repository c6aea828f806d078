//! Exact JSON: a strict RFC 8259 reader held to `Limits` ([`read`], which
//! holds every rule and builds nothing), a tree whose numbers are exact and
//! whose objects are sorted ([`parse`] builds it with the reader), and the
//! canonical writer of `host-boundary.md`, "The canonical form".
//!
//! Objects are stored sorted by key (code-point order, which is UTF-8 byte
//! order), with duplicates refused while reading, so the canonical writer needs
//! no sorting and lookups are binary searches.

mod canonical;
pub mod read;
pub(crate) mod string;

use crate::error::Result;
use crate::limits::Limits;
use crate::number::{Number, ScannedNumber};
use read::{Keys, Order, Sink};
pub use string::write_string;

/// A JSON value with exact numbers.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, kept exactly as its digits say.
    Number(Number),
    /// A string, unescaped.
    String(String),
    /// An array, in order.
    Array(Vec<Json>),
    /// An object, members sorted by key.
    Object(Object),
}

/// A JSON object: members sorted by key, keys unique.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Object {
    members: Vec<(String, Json)>,
}

impl Object {
    /// An object without members.
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

    /// The value of member `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.members.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok().map(|i| &self.members[i].1)
    }

    /// Takes member `key` out, returning its value if it was present.
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        self.members.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok().map(|i| self.members.remove(i).1)
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Members in ascending key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Json)> {
        self.members.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// The keys in ascending order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.members.iter().map(|(k, _)| k.as_str())
    }

    /// The members in ascending key order, owned.
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

    /// The text of a JSON string, or `None` for any other kind.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The items of a JSON array, or `None` for any other kind.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The members of a JSON object, or `None` for any other kind.
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    /// A JSON string holding `s`.
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
/// mark, no duplicate keys, no escaped lone surrogates, depth and number limits
/// (the rules are [`read`]'s; this builds the tree).
pub fn parse(bytes: &[u8], limits: &Limits) -> Result<Json> {
    read::read(bytes, limits, &mut Tree)
}

/// What [`parse_items`] read at the text's root.
#[derive(Debug)]
pub enum Root {
    /// An array of this many items, each handed over as it was read.
    Array(usize),
    /// Any other value, whole.
    Other(Json),
}

/// Reads one JSON text as [`parse`] does, under the same rules and limits,
/// but hands each item of a root array to `each` (with its index) as soon as
/// it is read rather than keeping it, so that a caller consuming items one by
/// one never holds the whole array's tree. A refusal anywhere in the text is
/// returned as [`parse`] returns it, even when items before it were handed
/// over: `each` sees items of a text that may still be refused.
pub fn parse_items(bytes: &[u8], limits: &Limits, each: &mut dyn FnMut(usize, Json)) -> Result<Root> {
    let mut sink = Items { depth: 0, count: 0, each };
    let root = read::read(bytes, limits, &mut sink)?;
    Ok(match root {
        // The root array's own value is a placeholder; its items went to `each`.
        None => Root::Array(sink.count),
        Some(other) => Root::Other(other),
    })
}

/// Reads a JSON text given as `&str`.
pub fn parse_str(text: &str, limits: &Limits) -> Result<Json> {
    parse(text.as_bytes(), limits)
}

/// The canonical text of any JSON text: read under `limits`, then written in
/// canonical form.
pub fn canonicalize(bytes: &[u8], limits: &Limits) -> Result<String> {
    let mut sink = canonical::CanonicalText::with_capacity(bytes.len());
    read::read(bytes, limits, &mut sink)?;
    Ok(sink.into_text())
}

/// [`canonicalize`] the long way, through the [`Json`] tree: the reference the
/// streaming writer is tested against.
pub fn canonicalize_through_tree(bytes: &[u8], limits: &Limits) -> Result<String> {
    let value = parse(bytes, limits)?;
    let mut out = String::with_capacity(bytes.len());
    write_canonical(&mut out, &value);
    Ok(out)
}

/// The sink that builds a [`Json`] tree, objects sorted by key.
struct Tree;

impl Sink for Tree {
    type Value = Json;
    type Array = Vec<Json>;
    type Object = Vec<(String, Json)>;

    fn null(&mut self) -> Json {
        Json::Null
    }

    fn boolean(&mut self, value: bool) -> Json {
        Json::Bool(value)
    }

    fn number(&mut self, number: &ScannedNumber<'_>) -> Json {
        Json::Number(number.to_number())
    }

    fn string(&mut self, text: &str) -> Json {
        Json::String(text.to_owned())
    }

    fn begin_array(&mut self) -> Vec<Json> {
        Vec::new()
    }

    fn item(&mut self, array: &mut Vec<Json>, item: Json) {
        array.push(item);
    }

    fn end_array(&mut self, array: Vec<Json>) -> Json {
        Json::Array(array)
    }

    fn begin_object(&mut self) -> Self::Object {
        Vec::new()
    }

    fn key(&mut self, object: &mut Self::Object, key: &str) {
        object.push((key.to_owned(), Json::Null));
    }

    fn member(&mut self, object: &mut Self::Object, value: Json) {
        object.last_mut().expect("a key before its value").1 = value;
    }

    fn end_object(&mut self, mut members: Self::Object, _: Keys<'_>, order: Order<'_>) -> Json {
        match order {
            // Text that is already canonical arrives sorted: nothing to move then.
            Order::Text => Json::Object(Object { members }),
            Order::Sorted(order) => {
                let sorted =
                    order.iter().map(|&i| std::mem::replace(&mut members[i], (String::new(), Json::Null))).collect();
                Json::Object(Object { members: sorted })
            }
        }
    }
}

/// The sink of [`parse_items`]: [`Tree`]'s, except that the root array's
/// items go to `each`. Its values are `None` only for the root array.
struct Items<'e> {
    /// Arrays and objects open around the value being read.
    depth: usize,
    count: usize,
    each: &'e mut dyn FnMut(usize, Json),
}

impl Sink for Items<'_> {
    type Value = Option<Json>;
    /// `None` for the root array, whose items are handed over.
    type Array = Option<Vec<Json>>;
    type Object = Vec<(String, Json)>;

    fn null(&mut self) -> Option<Json> {
        Some(Tree.null())
    }

    fn boolean(&mut self, value: bool) -> Option<Json> {
        Some(Tree.boolean(value))
    }

    fn number(&mut self, number: &ScannedNumber<'_>) -> Option<Json> {
        Some(Tree.number(number))
    }

    fn string(&mut self, text: &str) -> Option<Json> {
        Some(Tree.string(text))
    }

    fn begin_array(&mut self) -> Option<Vec<Json>> {
        self.depth += 1;
        if self.depth == 1 {
            None
        } else {
            Some(Tree.begin_array())
        }
    }

    fn item(&mut self, array: &mut Option<Vec<Json>>, item: Option<Json>) {
        // Only the root array's value is None, and it is nobody's item.
        let item = item.unwrap_or(Json::Null);
        match array {
            Some(items) => Tree.item(items, item),
            None => {
                (self.each)(self.count, item);
                self.count += 1;
            }
        }
    }

    fn end_array(&mut self, array: Option<Vec<Json>>) -> Option<Json> {
        self.depth -= 1;
        array.map(|items| Tree.end_array(items))
    }

    fn begin_object(&mut self) -> Self::Object {
        self.depth += 1;
        Tree.begin_object()
    }

    fn key(&mut self, object: &mut Self::Object, key: &str) {
        Tree.key(object, key);
    }

    fn member(&mut self, object: &mut Self::Object, value: Option<Json>) {
        Tree.member(object, value.unwrap_or(Json::Null));
    }

    fn end_object(&mut self, members: Self::Object, keys: Keys<'_>, order: Order<'_>) -> Option<Json> {
        self.depth -= 1;
        Some(Tree.end_object(members, keys, order))
    }
}

/// Appends the canonical text of `value`.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Rule;

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
        assert_eq!(
            canon(r#" { "b" : [1.50, -0, 1e2], "a":"x\u00e9\n\u001F" } "#).unwrap(),
            "{\"a\":\"xé\\n\\u001f\",\"b\":[1.5,0,100]}"
        );
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

    #[test]
    fn refusals_name_their_path() {
        let at = |text: &str| {
            let e = canon(text).unwrap_err();
            (e.rule, e.path.to_string())
        };
        assert_eq!(at(r#"{"a":[1,{"b c":1e99999}]}"#), (Rule::NumberTooLarge, "$.a[1][\"b c\"]".into()));
        assert_eq!(at(r#"{"a":[1,{"b":"\ud800"}]}"#), (Rule::LoneSurrogate, "$.a[1].b".into()));
        assert_eq!(at(r#"{"a":[1,{"b":1,"\u0062":2}]}"#), (Rule::DuplicateKey, "$.a[1]".into()));
        assert_eq!(at(r#"{"z":{"\u0078":[{"x":1,"x":1}]}}"#), (Rule::DuplicateKey, "$.z.x[0]".into()));
        assert_eq!(at(r#"{"a":[1,{"b":tru}]}"#), (Rule::Syntax, "$.a[1].b".into()));
        // A duplicate is refused where it is read, before a syntax error after it.
        assert_eq!(at(r#"{"a":1,"a":2,}"#).0, Rule::DuplicateKey);
    }

    #[test]
    fn keys_sort_by_code_point_past_a_shared_prefix() {
        assert_eq!(
            canon(r#"{"abcdefgh1":1,"abcdefgh":2,"abcdefgh0":3,"a\u0000":4,"a":5,"\u00e9":6,"z":7,"\ud834\udd1e":8,"\uffff":9}"#).unwrap(),
            "{\"a\":5,\"a\\u0000\":4,\"abcdefgh\":2,\"abcdefgh0\":3,\"abcdefgh1\":1,\"z\":7,\"é\":6,\"\u{ffff}\":9,\"𝄞\":8}"
        );
        assert_eq!(canon(r#"{"abcdefgh1":1,"abcdefgh1":2}"#).unwrap_err().rule, Rule::DuplicateKey);
        assert_eq!(canon(r#"{"a\u0000":1,"a":2,"a\u0000":3}"#).unwrap_err().rule, Rule::DuplicateKey);
    }

    #[test]
    fn surrogate_pairs_join() {
        assert_eq!(canon(r#""\ud834\udd1e""#).unwrap(), "\"𝄞\"");
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

    /// Small objects are checked key by key and large ones by hash: a
    /// duplicate is refused, and distinct keys accepted, whatever the
    /// object's size and wherever the keys first fall out of order or repeat.
    #[test]
    fn duplicates_are_found_on_both_sides_of_the_direct_scan() {
        for size in 1..40usize {
            // Descending keys: out of order from the second on.
            let keys: Vec<String> = (0..size).rev().map(|i| format!("k{i:02}")).collect();
            let object = |keys: &[String]| {
                format!("{{{}}}", keys.iter().map(|k| format!("\"{k}\":0")).collect::<Vec<_>>().join(","))
            };
            assert!(canon(&object(&keys)).is_ok(), "{size} distinct keys");
            for first in 0..size {
                for at in first + 1..=size {
                    let mut repeated = keys.clone();
                    repeated.insert(at, keys[first].clone());
                    let e = canon(&object(&repeated)).unwrap_err();
                    assert_eq!(e.rule, Rule::DuplicateKey, "{size} keys, {first} repeated at {at}: {e}");
                }
            }
        }
    }
}
