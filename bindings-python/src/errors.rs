//! Refusals as Python exceptions. The classes are defined in Python
//! (`flow_toolkit._errors`, where they are documented and typed); the native
//! side only raises them, with the path, the rule code and the reason of a
//! [`flow_core::Error`].

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

static DECODE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ENCODE_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn raise(py: Python<'_>, cell: &'static PyOnceLock<Py<PyType>>, name: &str, error: &flow_core::Error) -> PyErr {
    match cell.import(py, "flow_toolkit._errors", name) {
        Ok(class) => {
            PyErr::from_type(class.clone(), (error.path.to_string(), error.rule.code(), error.message.clone()))
        }
        Err(e) => e,
    }
}

/// A value that does not decode at its type (or a text that is not JSON).
pub fn decode_error(py: Python<'_>, error: &flow_core::Error) -> PyErr {
    raise(py, &DECODE_ERROR, "DecodeError", error)
}

/// A Python value that cannot be encoded at its type.
pub fn encode_error(py: Python<'_>, error: &flow_core::Error) -> PyErr {
    raise(py, &ENCODE_ERROR, "EncodeError", error)
}
