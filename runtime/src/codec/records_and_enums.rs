//! What generated impls for records and enums are written with: readers of a
//! record's fields, a constructor and its parts, and builders of the values.
//! Fields are in declaration order, as [`Value::Record`] holds them; an Option
//! field holds a [`Value::Option`], so it converts like any Option.

use std::sync::Arc;

use super::names::shared_name;
use super::{mismatch, FromValue, Result, Value};
use flow_core::error::{Error, Rule};
use flow_core::value::{EnumPayload, EnumValue};

/// The fields of a record or a named payload, read in declaration order.
pub struct Fields {
    fields: std::vec::IntoIter<(Arc<str>, Value)>,
    /// The constructor of a named payload, which paths go through.
    within: Option<Arc<str>>,
}

impl Fields {
    /// The fields of a record value.
    pub fn of_record(value: Value) -> Result<Fields> {
        match value {
            Value::Record(fields) => Ok(Fields { fields: fields.into_iter(), within: None }),
            other => Err(mismatch("a record", &other)),
        }
    }

    /// The next field, which must be `name`.
    pub fn field<T: FromValue>(&mut self, name: &str) -> Result<T> {
        let result = match self.fields.next() {
            Some((found, value)) if &*found == name => T::from_value(value).map_err(|e| e.under_key(name)),
            Some((found, _)) => Err(Error::new(Rule::Type, format!("expected the field {name:?}, found {found:?}"))),
            None => Err(Error::new(Rule::MissingField, format!("missing field {name:?}"))),
        };
        result.map_err(|e| within(e, &self.within))
    }
}

/// The positional parts of a constructor's payload, read in order.
pub struct Parts {
    parts: std::iter::Enumerate<std::vec::IntoIter<Value>>,
    /// One part is encoded bare, several as an array: paths follow.
    single: bool,
    within: Arc<str>,
}

impl Parts {
    /// The next part, converted to `T`.
    pub fn part<T: FromValue>(&mut self) -> Result<T> {
        let result = match self.parts.next() {
            Some((_, value)) if self.single => T::from_value(value),
            Some((i, value)) => T::from_value(value).map_err(|e| e.under_index(i)),
            None => Err(Error::new(Rule::TupleLength, "fewer positional parts than the constructor has")),
        };
        result.map_err(|e| e.under_key(&self.within))
    }
}

fn within(error: Error, constructor: &Option<Arc<str>>) -> Error {
    match constructor {
        Some(name) => error.under_key(name),
        None => error,
    }
}

/// An enum value taken apart: its constructor's name and payload.
pub struct Constructor {
    name: Arc<str>,
    payload: EnumPayload,
}

impl Constructor {
    /// Takes an enum value apart; any other value is refused.
    pub fn of_enum(value: Value) -> Result<Constructor> {
        match value {
            Value::Enum(EnumValue { name, payload, .. }) => Ok(Constructor { name, payload }),
            other => Err(mismatch("an enum value", &other)),
        }
    }

    /// The constructor's name, to match on (an arm may then take the payload).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A constructor without payload.
    pub fn unit(self) -> Result<()> {
        match self.payload {
            EnumPayload::None => Ok(()),
            _ => Err(wrong_payload(&self.name, "no payload")),
        }
    }

    /// The payload's positional parts; a refusal if it has another payload.
    pub fn positional(self) -> Result<Parts> {
        match self.payload {
            EnumPayload::Positional(parts) => {
                Ok(Parts { single: parts.len() == 1, parts: parts.into_iter().enumerate(), within: self.name })
            }
            _ => Err(wrong_payload(&self.name, "positional parts")),
        }
    }

    /// The payload's named parts; a refusal if it has another payload.
    pub fn named(self) -> Result<Fields> {
        match self.payload {
            EnumPayload::Named(fields) => Ok(Fields { fields: fields.into_iter(), within: Some(self.name) }),
            _ => Err(wrong_payload(&self.name, "named parts")),
        }
    }

    /// The refusal of a constructor the enum `owner` does not have.
    pub fn unknown(&self, owner: &str) -> Error {
        Error::new(Rule::Constructor, format!("{owner} has no constructor {:?}", self.name))
    }
}

fn wrong_payload(name: &str, expected: &str) -> Error {
    Error::new(Rule::Constructor, format!("expected {expected} for constructor {name:?}"))
}

/// A record value, fields in declaration order.
pub fn record(fields: Vec<(&str, Value)>) -> Value {
    Value::Record(fields.into_iter().map(|(name, value)| (shared_name(name), value)).collect())
}

/// An enum value: the constructor's position in declaration order (which is
/// the order of `decisions.md` section 3), its name and its payload.
pub fn constructor(index: u32, name: &str, payload: EnumPayload) -> Value {
    Value::Enum(EnumValue { index, name: shared_name(name), payload })
}

/// A payload of positional parts, in order.
pub fn positional(parts: Vec<Value>) -> EnumPayload {
    EnumPayload::Positional(parts)
}

/// A payload of named parts, in declaration order.
pub fn named(fields: Vec<(&str, Value)>) -> EnumPayload {
    EnumPayload::Named(fields.into_iter().map(|(name, value)| (shared_name(name), value)).collect())
}
