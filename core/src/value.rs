//! One Rust value model for every Flow data type, with the equality and total
//! order of `decisions.md` section 3 and the canonical text of
//! `host-boundary.md`, "The canonical form".
//!
//! Values carry enough of their type to be written without it: a record field
//! of an Option type holds `Value::Option` (left out when None, written as its
//! payload when Some), and Text-keyed dicts are their own variant because an
//! empty one is `{}` where any other empty dict is `[]`.

use std::cmp::Ordering;
use std::sync::Arc;

use num_bigint::BigInt;

use crate::json::{write_canonical as write_json, write_string, Json};
use crate::number::Number;
use crate::time::{Duration, Instant};

/// A Flow value of any type, as the host boundary sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// The one value of `Unit`.
    Unit,
    /// A `Bool`.
    Bool(bool),
    /// An `Int`, exact.
    Int(BigInt),
    /// Exact and normalized: `1.50` and `1.5` are one value.
    Decimal(Number),
    /// A `Text`.
    Text(String),
    /// A `Bytes`.
    Bytes(Vec<u8>),
    /// An `Instant`.
    Instant(Instant),
    /// A `Duration`.
    Duration(Duration),
    /// A `List`, in order.
    List(Vec<Value>),
    /// Ascending under [`Value::flow_cmp`], no two equal.
    Set(Vec<Value>),
    /// Dict<Text, V>: ascending by key, keys unique.
    TextDict(Vec<(String, Value)>),
    /// Dict<K, V> for any other K: ascending by key, keys unique.
    Dict(Vec<(Value, Value)>),
    /// A tuple, its items in order.
    Tuple(Vec<Value>),
    /// An `Option`: `None` or `Some` of the inner value.
    Option(Option<Box<Value>>),
    /// Fields in declaration order.
    Record(Vec<(Arc<str>, Value)>),
    /// An enum value: a constructor and its payload.
    Enum(EnumValue),
    /// json.Value: numbers exact and normalized.
    Json(Json),
    /// A host token: the JSON the host chose, compared by canonical text only.
    HostToken(Json),
}

/// An enum value: which constructor, and the data it carries.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EnumValue {
    /// The constructor's position in declaration order: the order of section 3.
    pub index: u32,
    /// The constructor's name.
    pub name: Arc<str>,
    /// The data the constructor carries.
    pub payload: EnumPayload,
}

/// The data an enum value's constructor carries.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EnumPayload {
    /// None: a constant constructor.
    None,
    /// Positional parts, in order.
    Positional(Vec<Value>),
    /// Parts in declaration order, Option parts as in a record.
    Named(Vec<(Arc<str>, Value)>),
}

impl Value {
    /// `Some(value)`.
    pub fn some(value: Value) -> Value {
        Value::Option(Some(Box::new(value)))
    }

    /// `None`.
    pub fn none() -> Value {
        Value::Option(None)
    }

    /// What kind of value this is, for refusals (`expected a Text, found an Int`).
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Unit => "Unit",
            Value::Bool(_) => "a Bool",
            Value::Int(_) => "an Int",
            Value::Decimal(_) => "a Decimal",
            Value::Text(_) => "a Text",
            Value::Bytes(_) => "Bytes",
            Value::Instant(_) => "an Instant",
            Value::Duration(_) => "a Duration",
            Value::List(_) => "a List",
            Value::Set(_) => "a Set",
            Value::TextDict(_) | Value::Dict(_) => "a Dict",
            Value::Tuple(_) => "a tuple",
            Value::Option(_) => "an Option",
            Value::Record(_) => "a record",
            Value::Enum(_) => "an enum value",
            Value::Json(_) => "a json.Value",
            Value::HostToken(_) => "a host token",
        }
    }

    /// The order of `decisions.md` section 3 between two values of one type.
    /// Values of different types (which never meet in a well-typed collection)
    /// are ordered by variant so that the order stays total.
    pub fn flow_cmp(&self, other: &Value) -> Ordering {
        use Value::*;
        match (self, other) {
            (Unit, Unit) => Ordering::Equal,
            (Bool(a), Bool(b)) => a.cmp(b),
            (Int(a), Int(b)) => a.cmp(b),
            (Decimal(a), Decimal(b)) => a.cmp(b),
            (Text(a), Text(b)) => a.cmp(b),
            (Bytes(a), Bytes(b)) => a.cmp(b),
            (Instant(a), Instant(b)) => a.cmp(b),
            (Duration(a), Duration(b)) => a.cmp(b),
            (List(a), List(b)) | (Set(a), Set(b)) | (Tuple(a), Tuple(b)) => cmp_seq(a, b, Value::flow_cmp),
            (TextDict(a), TextDict(b)) => cmp_seq(a, b, |x, y| x.0.cmp(&y.0).then_with(|| x.1.flow_cmp(&y.1))),
            (Dict(a), Dict(b)) => cmp_seq(a, b, |x, y| x.0.flow_cmp(&y.0).then_with(|| x.1.flow_cmp(&y.1))),
            (Option(a), Option(b)) => match (a, b) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Less,
                (Some(_), None) => Ordering::Greater,
                (Some(x), Some(y)) => x.flow_cmp(y),
            },
            (Record(a), Record(b)) => cmp_seq(a, b, |x, y| x.1.flow_cmp(&y.1)),
            (Enum(a), Enum(b)) => a.index.cmp(&b.index).then_with(|| match (&a.payload, &b.payload) {
                (EnumPayload::Positional(x), EnumPayload::Positional(y)) => cmp_seq(x, y, Value::flow_cmp),
                (EnumPayload::Named(x), EnumPayload::Named(y)) => cmp_seq(x, y, |p, q| p.1.flow_cmp(&q.1)),
                _ => Ordering::Equal,
            }),
            (Json(a), Json(b)) => a.flow_cmp(b),
            // Host tokens have no order; sets and dict keys refuse them, so this
            // only keeps the function total.
            (HostToken(a), HostToken(b)) => a.to_canonical().cmp(&b.to_canonical()),
            _ => self.rank().cmp(&other.rank()),
        }
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Unit => 0,
            Value::Bool(_) => 1,
            Value::Int(_) => 2,
            Value::Decimal(_) => 3,
            Value::Text(_) => 4,
            Value::Bytes(_) => 5,
            Value::Instant(_) => 6,
            Value::Duration(_) => 7,
            Value::List(_) => 8,
            Value::Set(_) => 9,
            Value::TextDict(_) => 10,
            Value::Dict(_) => 11,
            Value::Tuple(_) => 12,
            Value::Option(_) => 13,
            Value::Record(_) => 14,
            Value::Enum(_) => 15,
            Value::Json(_) => 16,
            Value::HostToken(_) => 17,
        }
    }

    /// The canonical text of this value.
    pub fn to_canonical(&self) -> String {
        let mut out = String::new();
        self.write_canonical(&mut out);
        out
    }

    /// Appends the canonical text of this value.
    pub fn write_canonical(&self, out: &mut String) {
        match self {
            Value::Unit => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => {
                use std::fmt::Write;
                // Most Ints are small: i64's Display needs no digit buffer of
                // its own, BigInt's allocates one.
                match i64::try_from(i) {
                    Ok(small) => write!(out, "{small}"),
                    Err(_) => write!(out, "{i}"),
                }
                .expect("writing to a String");
            }
            Value::Decimal(d) => d.write_canonical(out),
            Value::Text(s) => write_string(out, s),
            Value::Bytes(b) => {
                out.push('"');
                crate::base64::encode(b, out);
                out.push('"');
            }
            Value::Instant(i) => {
                out.push('"');
                i.write_canonical(out);
                out.push('"');
            }
            Value::Duration(d) => {
                out.push('"');
                d.write_canonical(out);
                out.push('"');
            }
            Value::List(items) | Value::Set(items) | Value::Tuple(items) => write_array(out, items),
            Value::TextDict(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, k);
                    out.push(':');
                    v.write_canonical(out);
                }
                out.push('}');
            }
            Value::Dict(entries) => {
                out.push('[');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push('[');
                    k.write_canonical(out);
                    out.push(',');
                    v.write_canonical(out);
                    out.push(']');
                }
                out.push(']');
            }
            Value::Option(None) => out.push_str("\"None\""),
            Value::Option(Some(v)) => {
                out.push_str("{\"Some\":");
                v.write_canonical(out);
                out.push('}');
            }
            Value::Record(fields) => write_fields(out, fields),
            Value::Enum(e) => match &e.payload {
                EnumPayload::None => write_string(out, &e.name),
                payload => {
                    out.push('{');
                    write_string(out, &e.name);
                    out.push(':');
                    match payload {
                        EnumPayload::Positional(parts) if parts.len() == 1 => parts[0].write_canonical(out),
                        EnumPayload::Positional(parts) => write_array(out, parts),
                        EnumPayload::Named(fields) => write_fields(out, fields),
                        EnumPayload::None => unreachable!("handled above"),
                    }
                    out.push('}');
                }
            },
            Value::Json(j) | Value::HostToken(j) => write_json(out, j),
        }
    }
}

fn cmp_seq<T>(a: &[T], b: &[T], cmp: impl Fn(&T, &T) -> Ordering) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match cmp(x, y) {
            Ordering::Equal => {}
            unequal => return unequal,
        }
    }
    a.len().cmp(&b.len())
}

fn write_array(out: &mut String, items: &[Value]) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        item.write_canonical(out);
    }
    out.push(']');
}

/// A record or named payload: members sorted by name, None fields left out,
/// Some fields written as their payload (the Option-field rule).
fn write_fields(out: &mut String, fields: &[(Arc<str>, Value)]) {
    // The order of names is sorted on the stack for records of up to
    // `ON_STACK` fields (all but the widest), not in a list made per value.
    const ON_STACK: usize = 32;
    if fields.len() > ON_STACK {
        let mut order: Vec<usize> = (0..fields.len()).collect();
        order.sort_unstable_by(|&a, &b| fields[a].0.cmp(&fields[b].0));
        return write_fields_in(out, fields, &order);
    }
    let mut order = [0u8; ON_STACK];
    let order = &mut order[..fields.len()];
    for (i, slot) in order.iter_mut().enumerate() {
        *slot = i as u8;
    }
    // Insertion sort: declarations are short and often in order already.
    for i in 1..order.len() {
        let mut j = i;
        while j > 0 && fields[order[j - 1] as usize].0 > fields[order[j] as usize].0 {
            order.swap(j - 1, j);
            j -= 1;
        }
    }
    write_fields_in(out, fields, order)
}

/// The members of `fields` in the order of indices `order`, None fields left out.
fn write_fields_in<I: Copy + Into<usize>>(out: &mut String, fields: &[(Arc<str>, Value)], order: &[I]) {
    out.push('{');
    let mut first = true;
    for &i in order {
        let (name, value) = &fields[i.into()];
        let value = match value {
            Value::Option(None) => continue,
            Value::Option(Some(inner)) => &**inner,
            other => other,
        };
        if !first {
            out.push(',');
        }
        first = false;
        write_string(out, name);
        out.push(':');
        value.write_canonical(out);
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use flow_testkit::Rng;

    #[test]
    fn record_fields_are_written_sorted_by_name_without_none_fields() {
        // Records of every width up to past the stack's, names in a scrambled
        // order, every third field None: the text is the sorted object's.
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        for width in 0..40usize {
            let mut fields = Vec::new();
            let mut expected = Vec::new();
            for i in 0..width {
                let name = format!("f{}_{i}", rng.next_u64() % 1000);
                let value = if i % 3 == 2 {
                    Value::none()
                } else {
                    expected.push((name.clone(), Json::str(format!("v{i}"))));
                    if i % 2 == 0 {
                        Value::Text(format!("v{i}"))
                    } else {
                        Value::some(Value::Text(format!("v{i}")))
                    }
                };
                fields.push((Arc::from(name.as_str()), value));
            }
            assert_eq!(Value::Record(fields).to_canonical(), Json::object(expected).to_canonical(), "width {width}");
        }
    }
}
