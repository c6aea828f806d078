//! Decoding JSON straight into Rust types, at the declared type the Rust
//! type stands for: what a generated Rust Tool's args take, without the
//! [`Value`](super::Value)s of the core's decoder between.
//!
//! Every rule (the forms accepted, each refusal's rule, message and path) is
//! the core decoder's own, applied from `flow_core::decode::rules`, which both
//! decoders call: a text decodes to the same value, or is refused the same
//! way, on either path.

use std::collections::{BTreeMap, BTreeSet};

use bigdecimal::BigDecimal;
use num_bigint::BigInt;

use super::scalars::decimal_from_number;
use super::{HostToken, Json, Never, Result};
use flow_core::decode::rules;
use flow_core::error::Rule;
use flow_core::number::Number;
use flow_core::time::{Duration, Instant};

/// Builds a Rust value from the JSON of its declared type, read under the
/// limits (the reader's rules and limits are not repeated here).
pub trait FromJson: Sized {
    /// The Rust value of `json`, or the refusal the core decoder gives it.
    fn from_json(json: Json) -> Result<Self>;

    /// Whether this type is an Option: as a record field or named part, it
    /// may be absent (None), and present it is its payload's JSON, bare.
    const OPTIONAL_FIELD: bool = false;

    /// This type as a record field or named part: `None` when the member is
    /// absent, which only an Option field may be ([`FromJson::OPTIONAL_FIELD`];
    /// the caller refuses any other absent field first).
    fn from_field(json: Option<Json>) -> Result<Self> {
        Self::from_json(json.unwrap_or(Json::Null))
    }

    /// Whether this type is Text: a Dict keyed by Text is a JSON object,
    /// every other Dict an array of pairs.
    const IS_TEXT: bool = false;
}

macro_rules! scalar {
    ($rust:ty, $rule:path) => {
        impl FromJson for $rust {
            fn from_json(json: Json) -> Result<Self> {
                $rule(json)
            }
        }
    };
}

scalar!(bool, rules::boolean);
scalar!(BigInt, rules::int);
scalar!(Number, rules::decimal);
scalar!(Vec<u8>, rules::bytes);
scalar!(Instant, rules::instant);
scalar!(Duration, rules::duration);
scalar!((), rules::unit);

impl FromJson for String {
    fn from_json(json: Json) -> Result<Self> {
        rules::text(json)
    }

    const IS_TEXT: bool = true;
}

/// Normalized, as [`super::FromValue`] makes it.
impl FromJson for BigDecimal {
    fn from_json(json: Json) -> Result<Self> {
        rules::decimal(json).map(|n| decimal_from_number(&n))
    }
}

/// json.Value: any JSON, as read.
impl FromJson for Json {
    fn from_json(json: Json) -> Result<Self> {
        Ok(json)
    }
}

impl FromJson for HostToken {
    fn from_json(json: Json) -> Result<Self> {
        Ok(HostToken::from_json(json))
    }
}

impl FromJson for Never {
    fn from_json(_: Json) -> Result<Self> {
        Err(rules::never())
    }
}

fn items<T: FromJson>(json: Json) -> Result<Vec<T>> {
    let items = rules::items(json)?;
    let mut values = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        values.push(T::from_json(item).map_err(|e| e.under_index(i))?);
    }
    Ok(values)
}

/// Lists. (`Vec<u8>` is Bytes: `u8` is no Flow type, so the two never meet.)
impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(json: Json) -> Result<Self> {
        items(json)
    }
}

/// Sets: every item decoded first, then equal ones refused. `T`'s `Ord` is
/// the Flow order, so equal means what it means to the core.
impl<T: FromJson + Ord> FromJson for BTreeSet<T> {
    fn from_json(json: Json) -> Result<Self> {
        let unique =
            rules::sorted_unique(items(json)?, T::cmp, Rule::DuplicateElement, "the same element twice in a Set")?;
        Ok(unique.into_iter().collect())
    }
}

impl<K: FromJson + Ord, V: FromJson> FromJson for BTreeMap<K, V> {
    fn from_json(json: Json) -> Result<Self> {
        if K::IS_TEXT {
            let mut map = BTreeMap::new();
            for (key, member) in rules::text_dict(json)? {
                let value = V::from_json(member).map_err(|e| e.under_key(&key))?;
                map.insert(K::from_json(Json::String(key))?, value);
            }
            return Ok(map);
        }
        let pairs = rules::pairs(json)?;
        let mut entries = Vec::with_capacity(pairs.len());
        for (i, pair) in pairs.into_iter().enumerate() {
            let entry = (|| {
                let (k, v) = rules::pair(pair)?;
                let k = K::from_json(k).map_err(|e| e.under_index(0))?;
                Ok((k, V::from_json(v).map_err(|e| e.under_index(1))?))
            })();
            entries.push(entry.map_err(|e: super::Error| e.under_index(i))?);
        }
        let order = |a: &(K, V), b: &(K, V)| a.0.cmp(&b.0);
        let unique = rules::sorted_unique(entries, order, Rule::DuplicateKey, "the same key twice in a Dict")?;
        Ok(unique.into_iter().collect())
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(json: Json) -> Result<Self> {
        match rules::option(json)? {
            None => Ok(None),
            Some(inner) => T::from_json(inner).map(Some).map_err(|e| e.under_key("Some")),
        }
    }

    const OPTIONAL_FIELD: bool = true;

    fn from_field(json: Option<Json>) -> Result<Self> {
        json.map(T::from_json).transpose()
    }
}

/// A box is its content, as a field too.
impl<T: FromJson> FromJson for Box<T> {
    fn from_json(json: Json) -> Result<Self> {
        T::from_json(json).map(Box::new)
    }

    const OPTIONAL_FIELD: bool = T::OPTIONAL_FIELD;

    fn from_field(json: Option<Json>) -> Result<Self> {
        T::from_field(json).map(Box::new)
    }

    const IS_TEXT: bool = T::IS_TEXT;
}

macro_rules! tuple {
    ($len:literal: $($name:ident $index:tt),+) => {
        impl<$($name: FromJson),+> FromJson for ($($name,)+) {
            fn from_json(json: Json) -> Result<Self> {
                let mut parts = rules::tuple(json, $len)?.into_iter();
                Ok(($(
                    $name::from_json(parts.next().expect("length checked")).map_err(|e| e.under_index($index))?,
                )+))
            }
        }
    };
}

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
