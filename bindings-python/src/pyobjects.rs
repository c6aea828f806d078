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

static FLOW_SET_ITEMS: PyOnceLock<Option<isize>> = PyOnceLock::new();
static FLOW_MAP_PAIRS: PyOnceLock<Option<isize>> = PyOnceLock::new();
static SOME_VALUE: PyOnceLock<Option<isize>> = PyOnceLock::new();

/// Attribute `name` of `object`, an instance of exactly `class` (checked by
/// the caller): read from its slot, whose offset is found once, when `class`
/// declares it as one.
fn slot_attr<'py>(
    object: &Bound<'py, PyAny>,
    class: &Bound<'py, PyType>,
    name: &Bound<'py, PyString>,
    offset: &PyOnceLock<Option<isize>>,
) -> PyResult<Bound<'py, PyAny>> {
    let offset = offset.get_or_try_init(object.py(), || slot_offset(class, name))?;
    match offset.and_then(|offset| read_slot(object, offset)) {
        Some(value) => Ok(value),
        None => object.getattr(name),
    }
}

/// The tuple a `FlowSet` (exactly, checked by the caller) holds its elements in.
pub fn flow_set_items<'py>(set: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = set.py();
    slot_attr(set, flow_set(py)?, pyo3::intern!(py, "_items"), &FLOW_SET_ITEMS)
}

/// The tuple of pairs a `FlowMap` (exactly, checked by the caller) holds.
pub fn flow_map_pairs<'py>(map: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = map.py();
    slot_attr(map, flow_map(py)?, pyo3::intern!(py, "_pairs"), &FLOW_MAP_PAIRS)
}

/// The payload of a `Some` (or of a subclass, read by attribute).
pub fn some_value<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = value.py();
    let class = some(py)?;
    if value.get_type().is(class) {
        slot_attr(value, class, pyo3::intern!(py, "value"), &SOME_VALUE)
    } else {
        value.getattr(pyo3::intern!(py, "value"))
    }
}

#[cfg(not(feature = "abi3"))]
static MEMBER_DESCRIPTOR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The offset of `attr`'s slot in instances of `class`, when `class` itself
/// declares it as a plain object slot (`__slots__`, as the generated frozen
/// dataclasses do); None for anything else, which is then read and written
/// through the attribute protocol. Always None under the stable ABI, which
/// hides a member descriptor's layout.
#[cfg(feature = "abi3")]
pub fn slot_offset(_class: &Bound<'_, PyType>, _attr: &Bound<'_, PyString>) -> PyResult<Option<isize>> {
    Ok(None)
}

/// The offset of `attr`'s slot in instances of `class`, when `class` itself
/// declares it as a plain object slot (`__slots__`, as the generated frozen
/// dataclasses do); None for anything else, which is then read and written
/// through the attribute protocol.
#[cfg(not(feature = "abi3"))]
pub fn slot_offset(class: &Bound<'_, PyType>, attr: &Bound<'_, PyString>) -> PyResult<Option<isize>> {
    let py = class.py();
    let Ok(descriptor) = class.getattr(pyo3::intern!(py, "__dict__"))?.get_item(attr) else { return Ok(None) };
    if !descriptor.get_type().is(MEMBER_DESCRIPTOR.import(py, "types", "MemberDescriptorType")?) {
        return Ok(None);
    }
    // SAFETY: a member_descriptor object is a PyMemberDescrObject, whose
    // d_member points at the class's PyMemberDef for as long as the class lives.
    let member = unsafe { (*(descriptor.as_ptr() as *mut ffi::PyMemberDescrObject)).d_member };
    if member.is_null() {
        return Ok(None);
    }
    // SAFETY: non-null, see above.
    let (type_code, offset) = unsafe { ((*member).type_code, (*member).offset) };
    Ok((type_code == ffi::Py_T_OBJECT_EX && offset > 0).then_some(offset))
}

/// The value in an object slot of `object`, which must be an instance of
/// exactly the class `offset` was read from; None when the slot is unset.
pub fn read_slot<'py>(object: &Bound<'py, PyAny>, offset: isize) -> Option<Bound<'py, PyAny>> {
    // SAFETY: the caller checked the object's type, so `offset` lies within
    // it and holds an object pointer or NULL.
    unsafe {
        let slot = (object.as_ptr() as *const u8).offset(offset).cast::<*mut ffi::PyObject>();
        let value = *slot;
        (!value.is_null()).then(|| Bound::from_borrowed_ptr(object.py(), value))
    }
}

/// Whether `class` is an exception class (a generated class of a type used as
/// a Tool's error is one, so that a handler can raise it).
pub fn is_exception_class(class: &Bound<'_, PyType>) -> bool {
    // SAFETY: `class` is a live type object.
    unsafe { ffi::PyType_FastSubclass(class.as_type_ptr(), ffi::Py_TPFLAGS_BASE_EXC_SUBCLASS) != 0 }
}

/// A new instance of `class` whose slots hold the given values, built the
/// way `object.__new__` and `object.__setattr__` would (so a frozen
/// dataclass's own `__setattr__`, which refuses, is not called), without the
/// Python-level `__init__`: the values were already checked against the
/// declaration, which is all the generated `__init__` would do. A known
/// slot offset is written directly. An exception class is made by its
/// `__new__` (`BaseException.__new__` sets `args` and the traceback fields,
/// which `str()` and `raise` read; zeroed memory would crash them).
pub fn instance<'a, 'py>(
    class: &Bound<'py, PyType>,
    attrs: impl IntoIterator<Item = (&'a Py<PyString>, Option<isize>, Bound<'py, PyAny>)>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = class.py();
    // SAFETY: `class` is a live type object; tp_alloc returns a new reference
    // (slots zeroed) or NULL with an exception set, which
    // from_owned_ptr_or_err handles.
    let object = unsafe {
        let tp = class.as_type_ptr();
        if is_exception_class(class) {
            let new = type_new(tp)
                .ok_or_else(|| pyo3::exceptions::PyTypeError::new_err("an exception class without __new__"))?;
            Bound::from_owned_ptr_or_err(py, new(tp, pyo3::types::PyTuple::empty(py).as_ptr(), std::ptr::null_mut()))?
        } else {
            let alloc = type_alloc(tp).unwrap_or(ffi::PyType_GenericAlloc);
            Bound::from_owned_ptr_or_err(py, alloc(tp, 0))?
        }
    };
    for (attr, offset, value) in attrs {
        match offset {
            // SAFETY: the object is exactly `class`, whose slot lies at
            // `offset`: it takes the reference, and releases whatever a
            // `__new__` may have put there.
            Some(offset) => unsafe {
                let slot = (object.as_ptr() as *mut u8).offset(offset).cast::<*mut ffi::PyObject>();
                let old = std::mem::replace(&mut *slot, value.into_ptr());
                ffi::Py_XDECREF(old);
            },
            None => {
                // SAFETY: all three pointers are live for the duration of the call.
                let status = unsafe { ffi::PyObject_GenericSetAttr(object.as_ptr(), attr.as_ptr(), value.as_ptr()) };
                if status != 0 {
                    return Err(PyErr::fetch(py));
                }
            }
        }
    }
    Ok(object)
}

// A type's tp_new and tp_alloc: read from the type object, or through
// PyType_GetSlot under the stable ABI, which hides its layout (and answers
// for static types from 3.10 on).
// SAFETY (all four): `tp` is a live type object.
#[cfg(not(feature = "abi3"))]
unsafe fn type_new(tp: *mut ffi::PyTypeObject) -> Option<ffi::newfunc> {
    (*tp).tp_new
}

#[cfg(not(feature = "abi3"))]
unsafe fn type_alloc(tp: *mut ffi::PyTypeObject) -> Option<ffi::allocfunc> {
    (*tp).tp_alloc
}

#[cfg(feature = "abi3")]
unsafe fn type_new(tp: *mut ffi::PyTypeObject) -> Option<ffi::newfunc> {
    let slot = ffi::PyType_GetSlot(tp, ffi::Py_tp_new);
    // SAFETY: the tp_new slot holds a newfunc, or NULL.
    (!slot.is_null()).then(|| std::mem::transmute::<*mut std::ffi::c_void, ffi::newfunc>(slot))
}

#[cfg(feature = "abi3")]
unsafe fn type_alloc(tp: *mut ffi::PyTypeObject) -> Option<ffi::allocfunc> {
    let slot = ffi::PyType_GetSlot(tp, ffi::Py_tp_alloc);
    // SAFETY: the tp_alloc slot holds an allocfunc, or NULL.
    (!slot.is_null()).then(|| std::mem::transmute::<*mut std::ffi::c_void, ffi::allocfunc>(slot))
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
