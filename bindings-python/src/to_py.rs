//! Decoded values to their Python form: the core decodes and checks every
//! rule, then this walk builds the Python objects the generated types declare,
//! dataclass instances included, with no Python code in between.

use flow_core::json::Json;
use flow_core::value::{EnumPayload, Value};
use flow_core::Number;
use num_bigint::BigInt;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::pyobjects::{decimal, flow_map, flow_set, instance, some};
use crate::pyplan::{Id, PyNode, PyPayload, PyPlan};
use crate::time::{Duration, Instant};
use crate::token::HostToken;

pub fn int<'py>(py: Python<'py>, value: &BigInt) -> PyResult<Bound<'py, PyAny>> {
    match i64::try_from(value) {
        Ok(small) => Ok(small.into_pyobject(py)?.into_any()),
        Err(_) => Ok(value.into_pyobject(py)?.into_any()),
    }
}

pub fn number<'py>(py: Python<'py>, n: &Number, whole_as_int: bool) -> PyResult<Bound<'py, PyAny>> {
    if whole_as_int && n.is_whole() {
        if let Some(i) = n.to_bigint() {
            return int(py, &i);
        }
    }
    decimal(py)?.call1((n.to_canonical(),))
}

/// json.Value's Python form: None, bool, int (whole numbers), Decimal (the
/// others), str, list, dict.
pub fn json<'py>(py: Python<'py>, value: &Json) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Json::Null => py.None().into_bound(py),
        Json::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        Json::Number(n) => number(py, n, true)?,
        Json::String(s) => PyString::new(py, s).into_any(),
        Json::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json(py, item)?)?;
            }
            list.into_any()
        }
        Json::Object(object) => {
            let dict = PyDict::new(py);
            for (k, v) in object.iter() {
                dict.set_item(k, json(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// Makes the order object a Set or Dict node's FlowSet or FlowMap keeps.
pub type MakeOrder = dyn Fn(Python<'_>, Id) -> PyResult<Py<PyAny>>;

/// A FlowSet or FlowMap holding decoded elements, which arrive sorted and
/// unique: built like `_from_sorted` would, without calling into Python.
fn collection<'py>(
    class: &Bound<'py, pyo3::types::PyType>,
    items_attr: &'static str,
    items: Bound<'py, PyAny>,
    order: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = class.py();
    static ITEMS: pyo3::sync::PyOnceLock<Py<PyString>> = pyo3::sync::PyOnceLock::new();
    static PAIRS: pyo3::sync::PyOnceLock<Py<PyString>> = pyo3::sync::PyOnceLock::new();
    static ORDER: pyo3::sync::PyOnceLock<Py<PyString>> = pyo3::sync::PyOnceLock::new();
    let intern = |cell: &'static pyo3::sync::PyOnceLock<Py<PyString>>, name: &str| {
        cell.get_or_init(py, || PyString::intern(py, name).unbind())
    };
    let attr = if items_attr == "_items" { intern(&ITEMS, "_items") } else { intern(&PAIRS, "_pairs") };
    instance(class, [(attr, None, items), (intern(&ORDER, "_order"), None, order)])
}

/// A list of `len` empty slots, filled in place: no growth as elements
/// arrive. A list dropped before it is full releases the slots it holds and
/// skips the empty ones.
fn sized_list(py: Python<'_>, len: usize) -> PyResult<Bound<'_, PyAny>> {
    // SAFETY: PyList_New returns a new reference, or NULL with an exception set.
    unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyList_New(len as pyo3::ffi::Py_ssize_t)) }
}

/// Fills the empty slot `i` of a list `sized_list` made.
#[inline]
fn set_new_item(list: &Bound<'_, PyAny>, i: usize, element: Bound<'_, PyAny>) -> PyResult<()> {
    // SAFETY: `i` is below the length the list was made with, and its slot
    // is still empty: SET_ITEM takes the reference.
    #[cfg(not(feature = "abi3"))]
    unsafe {
        pyo3::ffi::PyList_SET_ITEM(list.as_ptr(), i as pyo3::ffi::Py_ssize_t, element.into_ptr())
    };
    // The stable ABI's function form: it takes the reference too, and checks
    // the index (an error set when it is out of range).
    // SAFETY: as above.
    #[cfg(feature = "abi3")]
    if unsafe { pyo3::ffi::PyList_SetItem(list.as_ptr(), i as pyo3::ffi::Py_ssize_t, element.into_ptr()) } != 0 {
        return Err(PyErr::fetch(list.py()));
    }
    Ok(())
}

pub struct ToPy<'a> {
    pub plan: &'a PyPlan,
    /// In a generic call: the order a Set's or Dict's elements (keys) keep,
    /// from the call's concrete types (`host-boundary.md`, "Toolkits": not
    /// JSON's or Python's order). None elsewhere: Flow's order read from the
    /// values themselves is the declared one.
    pub context: Option<&'a MakeOrder>,
}

impl ToPy<'_> {
    fn order<'py>(&self, py: Python<'py>, node: Id) -> PyResult<Bound<'py, PyAny>> {
        match self.context {
            Some(make) => Ok(make(py, node)?.into_bound(py)),
            None => Ok(py.None().into_bound(py)),
        }
    }
}

impl ToPy<'_> {
    pub fn value<'py>(&self, py: Python<'py>, value: &Value, node: Id) -> PyResult<Bound<'py, PyAny>> {
        let mismatch =
            || pyo3::exceptions::PyRuntimeError::new_err("a decoded value does not fit its Python form (a bug)");
        Ok(match (self.plan.node(node), value) {
            (PyNode::Prim(_), Value::Unit) => py.None().into_bound(py),
            (PyNode::Prim(_), Value::Bool(b)) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
            (PyNode::Prim(_), Value::Int(i)) => int(py, i)?,
            (PyNode::Prim(_), Value::Decimal(d)) => number(py, d, false)?,
            (PyNode::Prim(_), Value::Text(s)) => PyString::new(py, s).into_any(),
            (PyNode::Prim(_), Value::Bytes(b)) => PyBytes::new(py, b).into_any(),
            (PyNode::Prim(_), Value::Instant(i)) => Bound::new(py, Instant { inner: *i })?.into_any(),
            (PyNode::Prim(_), Value::Duration(d)) => Bound::new(py, Duration { inner: *d })?.into_any(),
            (PyNode::Prim(_), Value::Json(j)) => json(py, j)?,
            (PyNode::List(item), Value::List(items)) => {
                let list = sized_list(py, items.len())?;
                for (i, v) in items.iter().enumerate() {
                    let element = self.value(py, v, *item)?;
                    set_new_item(&list, i, element)?;
                }
                list
            }
            (PyNode::Set(item), Value::Set(items)) => {
                let elements = items.iter().map(|v| self.value(py, v, *item)).collect::<PyResult<Vec<_>>>()?;
                collection(flow_set(py)?, "_items", PyTuple::new(py, elements)?.into_any(), self.order(py, *item)?)?
            }
            (PyNode::Option { item, wrap }, Value::Option(inner)) => match inner {
                None => py.None().into_bound(py),
                Some(v) if *wrap => some(py)?.call1((self.value(py, v, *item)?,))?,
                Some(v) => self.value(py, v, *item)?,
            },
            (PyNode::TextDict(item), Value::TextDict(entries)) => {
                let dict = PyDict::new(py);
                for (k, v) in entries {
                    dict.set_item(k, self.value(py, v, *item)?)?;
                }
                dict.into_any()
            }
            (PyNode::Dict(key, item), Value::Dict(entries)) => {
                let mut pairs = Vec::with_capacity(entries.len());
                for (k, v) in entries {
                    pairs.push(PyTuple::new(py, [self.value(py, k, *key)?, self.value(py, v, *item)?])?);
                }
                collection(flow_map(py)?, "_pairs", PyTuple::new(py, pairs)?.into_any(), self.order(py, *key)?)?
            }
            (PyNode::Tuple(parts), Value::Tuple(items)) => {
                let values =
                    parts.iter().zip(items).map(|(p, v)| self.value(py, v, *p)).collect::<PyResult<Vec<_>>>()?;
                PyTuple::new(py, values)?.into_any()
            }
            (PyNode::Record(record), Value::Record(fields)) => {
                let mut values = Vec::with_capacity(fields.len());
                for (plan, (_, v)) in record.fields.iter().zip(fields) {
                    values.push((&plan.attr, plan.offset, self.value(py, v, plan.node)?));
                }
                instance(record.class.bind(py), values)?
            }
            (PyNode::Enum(plan), Value::Enum(e)) => {
                let ctor = plan.ctors.get(e.index as usize).ok_or_else(mismatch)?;
                match (&ctor.payload, &e.payload) {
                    (PyPayload::None, _) => match &ctor.singleton {
                        Some(one) => one.bind(py).clone(),
                        None => instance(ctor.class.bind(py), [])?,
                    },
                    (PyPayload::Positional(parts), EnumPayload::Positional(items)) => {
                        let mut values = Vec::with_capacity(items.len());
                        for (part, v) in parts.iter().zip(items) {
                            values.push((&part.attr, part.offset, self.value(py, v, part.node)?));
                        }
                        instance(ctor.class.bind(py), values)?
                    }
                    (PyPayload::Named { fields, .. }, EnumPayload::Named(items)) => {
                        let mut values = Vec::with_capacity(items.len());
                        for (plan, (_, v)) in fields.iter().zip(items) {
                            values.push((&plan.attr, plan.offset, self.value(py, v, plan.node)?));
                        }
                        instance(ctor.class.bind(py), values)?
                    }
                    _ => return Err(mismatch()),
                }
            }
            (PyNode::Host, Value::HostToken(j)) => Bound::new(py, HostToken::from_json(j))?.into_any(),
            // A Tool type parameter: the value's standalone encoding, as JSON.
            (PyNode::ParamJson(_), Value::Json(j)) => json(py, j)?,
            (PyNode::ParamJson(_), v) => {
                let text = v.to_canonical();
                let limits = flow_core::Limits { max_bytes: usize::MAX, ..flow_core::Limits::DEFAULT };
                let j = flow_core::json::parse_str(&text, &limits).map_err(|e| crate::errors::decode_error(py, &e))?;
                json(py, &j)?
            }
            _ => return Err(mismatch()),
        })
    }
}
