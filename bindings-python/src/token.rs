//! Host tokens: JSON a host chose, kept as its canonical text, handed back
//! unchanged. Equal JSON is the same token (`decisions.md` 2a); tokens have no
//! order.

use flow_core::json::{self, Json};
use flow_core::Limits;
use pyo3::prelude::*;

use crate::errors::decode_error;

/// An opaque value a host chose. Compare, hash, and hand back; nothing else.
#[pyclass(frozen, eq, hash, module = "flow_toolkit")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct HostToken {
    pub text: String,
}

impl HostToken {
    pub fn from_json(value: &Json) -> HostToken {
        HostToken { text: value.to_canonical() }
    }

    pub fn json(&self) -> Json {
        // The text was canonical JSON when the token was made.
        json::parse_str(&self.text, &Limits { max_bytes: usize::MAX, ..Limits::DEFAULT })
            .expect("a token holds canonical JSON")
    }
}

#[pymethods]
impl HostToken {
    /// A token from its JSON text, read under the JSON rules and kept canonical.
    #[new]
    fn new(py: Python<'_>, json_text: &str) -> PyResult<HostToken> {
        json::parse_str(json_text, &Limits::default())
            .map(|j| HostToken::from_json(&j))
            .map_err(|e| decode_error(py, &e))
    }

    /// The token's canonical JSON text.
    #[getter]
    fn json_text(&self) -> &str {
        &self.text
    }

    fn __repr__(&self) -> String {
        format!("HostToken({:?})", self.text)
    }
}
