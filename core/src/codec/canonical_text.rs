//! Typed values that write their canonical text themselves: the bytes of
//! `into_value()` then [`Value::to_canonical`], without the [`Value`] tree.
//!
//! A generated Tool's result is of its declared type by construction: the
//! Rust type was generated from that type, and every Rust value of the types
//! mapped here is a value of its Flow type. The check the core runs on a
//! [`Value`] has nothing to refuse in such a value but set and dict-key order,
//! and the `Ord` of each type here is Flow's order (`decisions.md` section 3),
//! so a `BTreeSet` or `BTreeMap` iterates ascending and unique. What such a
//! writer cannot vouch for is a carrier of the value model itself (a
//! [`Value`], a type parameter's JSON): those answer [`NeedsCheck`], and the
//! reply goes the checked way instead.

use std::collections::{BTreeMap, BTreeSet};

use bigdecimal::BigDecimal;
use num_bigint::BigInt;

use super::{ContextDict, ContextSet, GenericValue, HostToken, IntoValue, Json, Never, Value};
use crate::json::{write_canonical as write_json, write_string};
use crate::number::Number;
use crate::time::{Duration, Instant};

/// A value whose canonical text only the check at its declared type can
/// vouch for: it holds a carrier of the value model, whose Rust type says
/// nothing of its Flow type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedsCheck;

/// What a writer answers: written, or [`NeedsCheck`] (the buffer then holds
/// part of the text, for the caller to drop).
pub type Written = std::result::Result<(), NeedsCheck>;

/// A Rust value that appends its canonical text: exactly the bytes of
/// `self.into_value().to_canonical()`.
pub trait CanonicalText: IntoValue {
    /// Appends this value's canonical text.
    fn write_canonical(&self, out: &mut String) -> Written;

    /// Appends this value as a member of a record or named payload, `member`
    /// being the name's JSON string and a colon (`"city":`), after a comma
    /// unless it is the first one written. An Option is left out when None
    /// and written as its payload when Some (the Option-field rule), as the
    /// value model writes a field holding an Option.
    fn write_member(&self, member: &str, first: &mut bool, out: &mut String) -> Written {
        open_member(member, first, out);
        self.write_canonical(out)
    }
}

fn open_member(member: &str, first: &mut bool, out: &mut String) {
    if !*first {
        out.push(',');
    }
    *first = false;
    out.push_str(member);
}

/// Appends the items of a List, Set or tuple-like sequence as an array.
fn write_items<'a, T: CanonicalText + 'a>(items: impl IntoIterator<Item = &'a T>, out: &mut String) -> Written {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        item.write_canonical(out)?;
    }
    out.push(']');
    Ok(())
}

impl CanonicalText for bool {
    fn write_canonical(&self, out: &mut String) -> Written {
        out.push_str(if *self { "true" } else { "false" });
        Ok(())
    }
}

impl CanonicalText for BigInt {
    fn write_canonical(&self, out: &mut String) -> Written {
        use std::fmt::Write;
        // As the value model writes an Int: i64's Display needs no digit
        // buffer of its own, BigInt's allocates one.
        match i64::try_from(self) {
            Ok(small) => write!(out, "{small}"),
            Err(_) => write!(out, "{self}"),
        }
        .expect("writing to a String");
        Ok(())
    }
}

impl CanonicalText for Number {
    fn write_canonical(&self, out: &mut String) -> Written {
        Number::write_canonical(self, out);
        Ok(())
    }
}

/// Through the exact number of the decimal, whatever its scale, as
/// `into_value` converts it.
impl CanonicalText for BigDecimal {
    fn write_canonical(&self, out: &mut String) -> Written {
        super::scalars::number_from_decimal(self).write_canonical(out);
        Ok(())
    }
}

impl CanonicalText for String {
    fn write_canonical(&self, out: &mut String) -> Written {
        write_string(out, self);
        Ok(())
    }
}

/// Bytes: their base64 text.
impl CanonicalText for Vec<u8> {
    fn write_canonical(&self, out: &mut String) -> Written {
        out.push('"');
        crate::base64::encode(self, out);
        out.push('"');
        Ok(())
    }
}

impl CanonicalText for () {
    fn write_canonical(&self, out: &mut String) -> Written {
        out.push_str("null");
        Ok(())
    }
}

impl CanonicalText for Never {
    fn write_canonical(&self, _: &mut String) -> Written {
        match *self {}
    }
}

impl CanonicalText for Instant {
    fn write_canonical(&self, out: &mut String) -> Written {
        out.push('"');
        Instant::write_canonical(*self, out);
        out.push('"');
        Ok(())
    }
}

impl CanonicalText for Duration {
    fn write_canonical(&self, out: &mut String) -> Written {
        out.push('"');
        Duration::write_canonical(*self, out);
        out.push('"');
        Ok(())
    }
}

/// Any JSON is a json.Value, written canonically.
impl CanonicalText for Json {
    fn write_canonical(&self, out: &mut String) -> Written {
        write_json(out, self);
        Ok(())
    }
}

/// A host token is any JSON its host chose, handed back as is.
impl CanonicalText for HostToken {
    fn write_canonical(&self, out: &mut String) -> Written {
        write_json(out, self.as_json());
        Ok(())
    }
}

/// A value of the value model can be of any type: only the check vouches.
impl CanonicalText for Value {
    fn write_canonical(&self, _: &mut String) -> Written {
        Err(NeedsCheck)
    }
}

/// A type parameter's value is JSON decoded at the call's concrete type.
impl CanonicalText for GenericValue {
    fn write_canonical(&self, _: &mut String) -> Written {
        Err(NeedsCheck)
    }
}

/// Ordered by the call's concrete type, which only the resolve step knows.
impl<T: IntoValue> CanonicalText for ContextSet<T> {
    fn write_canonical(&self, _: &mut String) -> Written {
        Err(NeedsCheck)
    }
}

/// Keyed by the call's concrete type, which only the resolve step knows.
impl<K: IntoValue, V: IntoValue> CanonicalText for ContextDict<K, V> {
    fn write_canonical(&self, _: &mut String) -> Written {
        Err(NeedsCheck)
    }
}

impl<T: CanonicalText> CanonicalText for Vec<T> {
    fn write_canonical(&self, out: &mut String) -> Written {
        write_items(self, out)
    }
}

/// In the set's iteration order: `T`'s `Ord`, which is Flow's order, so
/// ascending and unique as the check asks.
impl<T: CanonicalText> CanonicalText for BTreeSet<T> {
    fn write_canonical(&self, out: &mut String) -> Written {
        write_items(self, out)
    }
}

/// Keyed by Text, a JSON object (keys in `String`'s order, which is the byte
/// order the check asks for); keyed by anything else, an array of pairs in
/// the key type's `Ord`, which is Flow's order.
impl<K: CanonicalText, V: CanonicalText> CanonicalText for BTreeMap<K, V> {
    fn write_canonical(&self, out: &mut String) -> Written {
        let text_keys = K::IS_TEXT;
        out.push(if text_keys { '{' } else { '[' });
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if text_keys {
                // A Text key's canonical text is its JSON string.
                k.write_canonical(out)?;
                out.push(':');
                v.write_canonical(out)?;
            } else {
                out.push('[');
                k.write_canonical(out)?;
                out.push(',');
                v.write_canonical(out)?;
                out.push(']');
            }
        }
        out.push(if text_keys { '}' } else { ']' });
        Ok(())
    }
}

impl<T: CanonicalText> CanonicalText for Option<T> {
    fn write_canonical(&self, out: &mut String) -> Written {
        match self {
            None => out.push_str("\"None\""),
            Some(inner) => {
                out.push_str("{\"Some\":");
                inner.write_canonical(out)?;
                out.push('}');
            }
        }
        Ok(())
    }

    fn write_member(&self, member: &str, first: &mut bool, out: &mut String) -> Written {
        match self {
            None => Ok(()),
            Some(inner) => {
                open_member(member, first, out);
                inner.write_canonical(out)
            }
        }
    }
}

/// A box is its content, as a field too.
impl<T: CanonicalText> CanonicalText for Box<T> {
    fn write_canonical(&self, out: &mut String) -> Written {
        (**self).write_canonical(out)
    }

    fn write_member(&self, member: &str, first: &mut bool, out: &mut String) -> Written {
        (**self).write_member(member, first, out)
    }
}

macro_rules! tuple {
    ($($name:ident $index:tt),+) => {
        impl<$($name: CanonicalText),+> CanonicalText for ($($name,)+) {
            fn write_canonical(&self, out: &mut String) -> Written {
                out.push('[');
                $(
                    if $index > 0 {
                        out.push(',');
                    }
                    self.$index.write_canonical(out)?;
                )+
                out.push(']');
                Ok(())
            }
        }
    };
}

tuple!(A 0, B 1);
tuple!(A 0, B 1, C 2);
tuple!(A 0, B 1, C 2, D 3);
tuple!(A 0, B 1, C 2, D 3, E 4);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);

/// Appends `value` as a member of a record or named payload, under the
/// Option-field rule ([`CanonicalText::write_member`]): what generated
/// writers call for each field, in the order of the names' bytes.
pub fn write_member<T: CanonicalText>(out: &mut String, first: &mut bool, member: &str, value: &T) -> Written {
    value.write_member(member, first, out)
}

/// Appends `value`'s canonical text: what generated writers call for a
/// constructor's positional part.
pub fn write_value<T: CanonicalText>(out: &mut String, value: &T) -> Written {
    value.write_canonical(out)
}
