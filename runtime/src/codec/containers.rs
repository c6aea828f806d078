//! Lists, sets, dicts, options, tuples and boxes. Paths of refusals name the
//! item (`$[3]`, `$.Some`, `$["key"]`), as decoding does.

use std::collections::{BTreeMap, BTreeSet};

use super::{mismatch, FromValue, IntoValue, Result, Value};

fn items<T: FromValue>(values: Vec<Value>) -> Result<impl Iterator<Item = Result<T>>> {
    Ok(values.into_iter().enumerate().map(|(i, v)| T::from_value(v).map_err(|e| e.under_index(i))))
}

/// Lists. (`Vec<u8>` is Bytes: `u8` is no Flow type, so the two never meet.)
impl<T: FromValue> FromValue for Vec<T> {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::List(values) => items(values)?.collect(),
            other => Err(mismatch("a List", &other)),
        }
    }
}

impl<T: IntoValue> IntoValue for Vec<T> {
    fn into_value(self) -> Value {
        Value::List(self.into_iter().map(IntoValue::into_value).collect())
    }
}

impl<T: FromValue + Ord> FromValue for BTreeSet<T> {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Set(values) => items(values)?.collect(),
            other => Err(mismatch("a Set", &other)),
        }
    }
}

/// In the set's iteration order, which is the Flow order when `T`'s `Ord` is
/// (the core refuses a set that is not ascending before writing it).
impl<T: IntoValue> IntoValue for BTreeSet<T> {
    fn into_value(self) -> Value {
        Value::Set(self.into_iter().map(IntoValue::into_value).collect())
    }
}

impl<K: FromValue + Ord, V: FromValue> FromValue for BTreeMap<K, V> {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::TextDict(entries) => entries
                .into_iter()
                .map(|(k, v)| {
                    let value = V::from_value(v).map_err(|e| e.under_key(&k))?;
                    Ok((K::from_value(Value::Text(k))?, value))
                })
                .collect(),
            Value::Dict(entries) => entries
                .into_iter()
                .enumerate()
                .map(|(i, (k, v))| {
                    let key = K::from_value(k).map_err(|e| e.under_index(0).under_index(i))?;
                    let value = V::from_value(v).map_err(|e| e.under_index(1).under_index(i))?;
                    Ok((key, value))
                })
                .collect(),
            other => Err(mismatch("a Dict", &other)),
        }
    }
}

impl<K: IntoValue, V: IntoValue> IntoValue for BTreeMap<K, V> {
    fn into_value(self) -> Value {
        if K::IS_TEXT {
            let entries = self.into_iter().map(|(k, v)| match k.into_value() {
                Value::Text(key) => (key, v.into_value()),
                _ => unreachable!("a key type whose IS_TEXT is true encodes as Text"),
            });
            Value::TextDict(entries.collect())
        } else {
            Value::Dict(self.into_iter().map(|(k, v)| (k.into_value(), v.into_value())).collect())
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::Option(None) => Ok(None),
            Value::Option(Some(inner)) => T::from_value(*inner).map(Some).map_err(|e| e.under_key("Some")),
            other => Err(mismatch("an Option", &other)),
        }
    }
}

impl<T: IntoValue> IntoValue for Option<T> {
    fn into_value(self) -> Value {
        Value::Option(self.map(|inner| Box::new(inner.into_value())))
    }
}

/// A box is its content: generated types box a field that would otherwise
/// hold its own type inline.
impl<T: FromValue> FromValue for Box<T> {
    fn from_value(value: Value) -> Result<Self> {
        T::from_value(value).map(Box::new)
    }
}

impl<T: IntoValue> IntoValue for Box<T> {
    fn into_value(self) -> Value {
        (*self).into_value()
    }

    const IS_TEXT: bool = T::IS_TEXT;
}

macro_rules! tuple {
    ($len:literal: $($name:ident $index:tt),+) => {
        impl<$($name: FromValue),+> FromValue for ($($name,)+) {
            fn from_value(value: Value) -> Result<Self> {
                match value {
                    Value::Tuple(parts) if parts.len() == $len => {
                        let mut parts = parts.into_iter();
                        Ok(($(
                            $name::from_value(parts.next().expect("length checked")).map_err(|e| e.under_index($index))?,
                        )+))
                    }
                    other => Err(mismatch(concat!("a tuple of ", $len, " items"), &other)),
                }
            }
        }

        impl<$($name: IntoValue),+> IntoValue for ($($name,)+) {
            fn into_value(self) -> Value {
                Value::Tuple(vec![$(self.$index.into_value()),+])
            }
        }
    };
}

// Rust implements Ord and Debug for tuples up to 12 items; so do these.
tuple!(2: A 0, B 1);
tuple!(3: A 0, B 1, C 2);
tuple!(4: A 0, B 1, C 2, D 3);
tuple!(5: A 0, B 1, C 2, D 3, E 4);
tuple!(6: A 0, B 1, C 2, D 3, E 4, F 5);
tuple!(7: A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple!(8: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple!(9: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple!(10: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple!(11: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple!(12: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);
