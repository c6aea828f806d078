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
use num_bigint::{BigInt, Sign};
use num_traits::ToPrimitive;

use super::{ContextDict, ContextSet, GenericValue, HostToken, IntoValue, Json, Never, Value};
use flow_core::json::{write_canonical as write_json, write_string};
use flow_core::number::{u64_digits, write_parts, Number};
use flow_core::time::{Duration, Instant};

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

/// The exact number of the decimal, whatever its scale, as `into_value`
/// converts it (`number_from_decimal`); digits that fit a `u64` are written
/// from the stack, the others through that conversion.
impl CanonicalText for BigDecimal {
    fn write_canonical(&self, out: &mut String) -> Written {
        let (digits, scale) = self.as_bigint_and_scale();
        let Some(magnitude) = digits.magnitude().to_u64() else {
            super::scalars::number_from_decimal(self).write_canonical(out);
            return Ok(());
        };
        let mut buffer = [0u8; 20];
        let text = u64_digits(magnitude, &mut buffer);
        write_parts(out, digits.sign() == Sign::Minus, text, scale.saturating_neg());
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
        flow_core::base64::encode(self, out);
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

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn direct<T: CanonicalText + Clone>(value: &T) -> String {
        let mut out = String::new();
        value.write_canonical(&mut out).unwrap();
        assert_eq!(out, value.clone().into_value().to_canonical());
        out
    }

    #[test]
    fn decimals_of_every_scale_write_the_value_s_text() {
        // Unnormalized decimals come from arithmetic, never from decoding.
        for (digits, scale, text) in [
            (0i64, 7, "0"),
            (0, -3, "0"),
            (-2500, 3, "-2.5"),
            (1, -3, "1000"),
            (120, 5, "0.0012"),
            (-1, 0, "-1"),
            (i64::MAX, 19, "0.9223372036854775807"),
            (i64::MIN, 2, "-92233720368547758.08"),
        ] {
            assert_eq!(direct(&BigDecimal::new(BigInt::from(digits), scale)), text, "{digits}e-{scale}");
        }
        // Past u64, and at its edge, through the value's conversion.
        for text in ["18446744073709551615", "18446744073709551616", "-1234567890123456789012345678901.5"] {
            assert_eq!(direct(&BigDecimal::from_str(text).unwrap()), text);
        }
        let tiny = BigDecimal::new(BigInt::from(5), 4300);
        assert_eq!(direct(&tiny), format!("0.{}5", "0".repeat(4299)));
        let huge = BigDecimal::new(BigInt::from(-30), -40);
        assert_eq!(direct(&huge), format!("-3{}", "0".repeat(41)));
    }

    #[test]
    fn option_fields_follow_the_option_field_rule() {
        let mut out = String::from("{");
        let first = &mut true;
        write_member(&mut out, first, "\"a\":", &None::<bool>).unwrap();
        write_member(&mut out, first, "\"b\":", &Some(Some(true))).unwrap();
        write_member(&mut out, first, "\"c\":", &Box::new(Some(BigInt::from(-7)))).unwrap();
        write_member(&mut out, first, "\"d\":", &Some(None::<bool>)).unwrap();
        out.push('}');
        assert_eq!(out, r#"{"b":{"Some":true},"c":-7,"d":"None"}"#);
    }

    #[test]
    fn carriers_of_the_value_model_need_the_check() {
        let mut out = String::new();
        assert_eq!(CanonicalText::write_canonical(&Value::Unit, &mut out), Err(NeedsCheck));
        assert_eq!(vec![(BigInt::from(1), Value::Unit)].write_canonical(&mut out), Err(NeedsCheck));
        assert_eq!(GenericValue::from_json(Json::Null).write_canonical(&mut out), Err(NeedsCheck));
        assert_eq!(
            direct(&(BTreeMap::from([(String::from("é\""), ())]), Vec::<u8>::from(*b"hi"))),
            r#"[{"é\"":null},"aGk="]"#
        );
    }
}
