//! What generated `FromJson` impls of records and enums are written with:
//! a record's (or a named payload's) fields read from its JSON object, and
//! an enum's constructor with its payload. The rules (extra members ignored,
//! a missing field refused unless it is an Option, the constructor forms)
//! are the core decoder's, from `flow_core::decode::rules`.

use super::{FromJson, Json, Result};
use flow_core::decode::rules::{self, Members};
use flow_core::error::Error;

/// The fields of a record or a named payload, read in declaration order.
pub struct JsonFields {
    members: Members,
    /// Missing-field refusals name it: the record's identity, or the
    /// constructor of a named payload.
    owner: &'static str,
    /// The constructor of a named payload, which paths go through.
    within: Option<&'static str>,
}

impl JsonFields {
    /// The fields of a record of the declaration `identity`.
    pub fn of_record(json: Json, identity: &'static str) -> Result<JsonFields> {
        Ok(JsonFields { members: rules::record(json)?, owner: identity, within: None })
    }

    /// The field `name`, as its Rust type (an Option field may be absent).
    pub fn field<T: FromJson>(&mut self, name: &str) -> Result<T> {
        let result = match self.members.take(name, T::OPTIONAL_FIELD, self.owner) {
            Ok(json) => T::from_field(json).map_err(|e| e.under_key(name)),
            Err(e) => Err(e),
        };
        result.map_err(|e| within(e, self.within))
    }
}

fn within(error: Error, constructor: Option<&str>) -> Error {
    match constructor {
        Some(name) => error.under_key(name),
        None => error,
    }
}

/// An enum's constructor, found by name in its table, with its payload.
pub struct JsonConstructor {
    name: &'static str,
    payload: Option<Json>,
}

impl JsonConstructor {
    /// The constructor of an enum value of the declaration `identity`, whose
    /// constructors are `table`: each name, and whether it takes a payload.
    pub fn of_enum(json: Json, identity: &str, table: &'static [(&'static str, bool)]) -> Result<JsonConstructor> {
        let find = |name: &str| table.iter().position(|(n, _)| *n == name).map(|i| (i, table[i].1));
        let (index, payload) = rules::constructor(json, identity, find)?;
        Ok(JsonConstructor { name: table[index].0, payload })
    }

    /// The constructor's name, to match on (an arm may then take the payload).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The payload of a constructor that takes one (the rules refused its
    /// absence already).
    fn payload(self) -> (&'static str, Json) {
        (self.name, self.payload.unwrap_or(Json::Null))
    }

    /// The one positional part, encoded bare.
    pub fn part<T: FromJson>(self) -> Result<T> {
        let (name, payload) = self.payload();
        T::from_json(payload).map_err(|e| e.under_key(name))
    }

    /// Several positional parts, exactly `len`, read in order.
    pub fn parts(self, len: usize) -> Result<JsonParts> {
        let (name, payload) = self.payload();
        let parts = rules::positional_parts(payload, len).map_err(|e| e.under_key(name))?;
        Ok(JsonParts { parts: parts.into_iter().enumerate(), within: name })
    }

    /// The named parts.
    pub fn named(self) -> Result<JsonFields> {
        let (name, payload) = self.payload();
        let members = rules::named_parts(payload).map_err(|e| e.under_key(name))?;
        Ok(JsonFields { members, owner: name, within: Some(name) })
    }
}

/// Several positional parts of a constructor, read in order.
pub struct JsonParts {
    parts: std::iter::Enumerate<std::vec::IntoIter<Json>>,
    within: &'static str,
}

impl JsonParts {
    /// The next part, as its Rust type. Called once per part: the length
    /// was checked, so a part past the last is a generated code's mistake.
    pub fn part<T: FromJson>(&mut self) -> Result<T> {
        let (i, json) = self.parts.next().expect("one call per part, as many as the constructor has");
        T::from_json(json).map_err(|e| e.under_index(i).under_key(self.within))
    }
}
