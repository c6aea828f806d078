//! Host tokens: "A host token is chosen by the host that made it. Flow stores
//! it, compares nothing about it, and hands it back unchanged"
//! (`host-boundary.md`, "The value encoding").

use super::{mismatch, FromValue, IntoValue, Json, Result, Value};

/// A value of a host token type: the JSON its host chose, kept as is.
///
/// Equal JSON is the same token (`decisions.md` 2a), so tokens can be compared
/// for equality; they have no order, so a type holding one has no `Ord`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HostToken {
    json: Json,
}

impl HostToken {
    /// The token the host wrote as `json`.
    pub fn from_json(json: Json) -> HostToken {
        HostToken { json }
    }

    /// The token's JSON, borrowed.
    pub fn as_json(&self) -> &Json {
        &self.json
    }

    /// The token's JSON, owned.
    pub fn into_json(self) -> Json {
        self.json
    }
}

impl FromValue for HostToken {
    fn from_value(value: Value) -> Result<Self> {
        match value {
            Value::HostToken(json) => Ok(HostToken { json }),
            other => Err(mismatch("a host token", &other)),
        }
    }
}

impl IntoValue for HostToken {
    fn into_value(self) -> Value {
        Value::HostToken(self.json)
    }
}
