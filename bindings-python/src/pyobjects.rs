//! The Python classes the native side builds values of, imported once, and
//! the one unsafe operation of the binding: building a generated frozen
//! dataclass instance without running its `__init__`.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};

static DECIMAL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static SOME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static FLOW_SET: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static FLOW_MAP: PyOnceLock<Py<PyType>> = PyOnceLock::new();

pub fn decimal(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    DECIMAL.import(py, "decimal", "Decimal")
}

pub fn some(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    SOME.import(py, "flow_toolkit._values", "Some")
}

pub fn flow_set(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    FLOW_SET.import(py, "flow_toolkit._values", "FlowSet")
}

pub fn flow_map(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    FLOW_MAP.import(py, "flow_toolkit._values", "FlowMap")
}

/// A new instance of `class` whose slots `attrs` hold `values`, built the
/// way `object.__new__` and `object.__setattr__` would (so a frozen
/// dataclass's own `__setattr__`, which refuses, is not called), without the
/// Python-level `__init__`: the values were already checked against the
/// declaration, which is all the generated `__init__` would do.
pub fn instance<'a, 'py>(
    class: &Bound<'py, PyType>,
    attrs: impl IntoIterator<Item = (&'a Py<PyString>, Bound<'py, PyAny>)>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = class.py();
    // SAFETY: `class` is a live type object; tp_alloc returns a new reference
    // or NULL with an exception set, which from_owned_ptr_or_err handles.
    let object = unsafe {
        let tp = class.as_type_ptr();
        let alloc = (*tp).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
        Bound::from_owned_ptr_or_err(py, alloc(tp, 0))?
    };
    for (attr, value) in attrs {
        // SAFETY: all three pointers are live for the duration of the call.
        let status = unsafe { ffi::PyObject_GenericSetAttr(object.as_ptr(), attr.as_ptr(), value.as_ptr()) };
        if status != 0 {
            return Err(PyErr::fetch(py));
        }
    }
    Ok(object)
}

/// Pauses Python's cyclic garbage collector while it lives, restoring its
/// previous state: for building many new acyclic objects at once.
pub struct GcPause {
    was_enabled: bool,
}

impl GcPause {
    pub fn new(_py: Python<'_>) -> GcPause {
        // SAFETY: the GIL is held (the token proves it).
        GcPause { was_enabled: unsafe { ffi::PyGC_Disable() } != 0 }
    }
}

impl Drop for GcPause {
    fn drop(&mut self) {
        if self.was_enabled {
            // SAFETY: a GcPause only lives under the GIL that made it.
            unsafe {
                ffi::PyGC_Enable();
            }
        }
    }
}
