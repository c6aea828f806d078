//! Flow's equality and order (`decisions.md` section 3) over Python values,
//! read from the values themselves: what `FlowSet` and `FlowMap` sort and
//! compare by, since Python's own `==`, `<` and `hash` disagree with Flow for
//! lists, records, dicts and json.Value (and refuse some of them).
//!
//! Within one Flow type the Python form decides the order without the type:
//! None (an Option's None, Unit, JSON null) < bool < numbers (int and Decimal,
//! by value) < str (code points) < bytes < list < dict (ascending key/value
//! pairs) < tuple; Instant and Duration by nanoseconds; FlowSet and FlowMap
//! element-wise; `Some(v)` after None; a record by its fields in declaration
//! order; an enum by constructor (the generated `_flow_index`), then payload.
//! That is section 3's order for every type, json.Value's included. A float
//! has no place in a Flow value and a host token has no order: both are
//! refused with a TypeError.

use std::cmp::Ordering;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::pyobjects::{decimal, flow_map, flow_set, some};
use crate::time::{Duration, Instant};
use crate::token::HostToken;

#[derive(PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Rank {
    Null,
    Bool,
    Number,
    Text,
    Bytes,
    List,
    Dict,
    Tuple,
    Instant,
    Duration,
    Set,
    Map,
    Some,
    Enum,
    Record,
}

fn rank(value: &Bound<'_, PyAny>) -> PyResult<Rank> {
    let py = value.py();
    Ok(if value.is_none() {
        Rank::Null
    } else if value.is_instance_of::<PyBool>() {
        Rank::Bool
    } else if value.is_instance_of::<PyInt>() {
        Rank::Number
    } else if value.is_instance_of::<PyString>() {
        Rank::Text
    } else if value.is_instance_of::<PyBytes>() {
        Rank::Bytes
    } else if value.is_instance_of::<PyList>() {
        Rank::List
    } else if value.is_instance_of::<PyDict>() {
        Rank::Dict
    } else if value.is_instance_of::<PyTuple>() {
        Rank::Tuple
    } else if value.is_instance_of::<Instant>() {
        Rank::Instant
    } else if value.is_instance_of::<Duration>() {
        Rank::Duration
    } else if value.is_instance_of::<PyFloat>() {
        return Err(PyTypeError::new_err(
            "a float has no place in a Flow value: floats are not exact; use int or decimal.Decimal",
        ));
    } else if value.is_instance_of::<HostToken>() {
        return Err(PyTypeError::new_err("host tokens have no order: a FlowSet or FlowMap key cannot hold one"));
    } else if value.is_instance(decimal(py)?)? {
        Rank::Number
    } else if value.is_instance(flow_set(py)?)? {
        Rank::Set
    } else if value.is_instance(flow_map(py)?)? {
        Rank::Map
    } else if value.is_instance(some(py)?)? {
        Rank::Some
    } else if value.get_type().hasattr(pyo3::intern!(py, "_flow_index"))? {
        Rank::Enum
    } else if value.get_type().hasattr(pyo3::intern!(py, "__dataclass_fields__"))? {
        Rank::Record
    } else {
        return Err(PyTypeError::new_err(format!(
            "{} is not the Python form of a Flow value",
            value.get_type().qualname()?
        )));
    })
}

fn seq<'py>(
    a: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>,
    b: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>,
) -> PyResult<Ordering> {
    let mut b = b;
    for x in a {
        let Some(y) = b.next() else { return Ok(Ordering::Greater) };
        match compare(&x?, &y?)? {
            Ordering::Equal => {}
            other => return Ok(other),
        }
    }
    Ok(if b.next().is_some() { Ordering::Less } else { Ordering::Equal })
}

fn slot_values<'py>(value: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let slots = value.get_type().getattr(pyo3::intern!(value.py(), "__slots__"))?;
    let names: Vec<Bound<'py, PyAny>> =
        if slots.is_instance_of::<PyString>() { vec![slots] } else { slots.try_iter()?.collect::<PyResult<_>>()? };
    names.iter().map(|n| value.getattr(n.cast::<PyString>()?)).collect()
}

fn sorted_items<'py>(dict: &Bound<'py, PyDict>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let mut items: Vec<(String, Bound<'py, PyAny>)> = Vec::with_capacity(dict.len());
    for (k, v) in dict.iter() {
        let key: String = k.extract()?;
        items.push((key.clone(), PyTuple::new(dict.py(), [k, v])?.into_any()));
    }
    // Code-point order is the UTF-8 byte order of Rust strings.
    items.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(items.into_iter().map(|(_, pair)| pair).collect())
}

/// Flow's order between two Python values of one Flow type.
pub fn compare(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Ordering> {
    let (ra, rb) = (rank(a)?, rank(b)?);
    if ra != rb {
        return Ok(ra.cmp(&rb));
    }
    let py = a.py();
    match ra {
        Rank::Null => Ok(Ordering::Equal),
        Rank::Bool | Rank::Number | Rank::Text | Rank::Bytes => a.compare(b),
        Rank::List | Rank::Tuple | Rank::Set => seq(a.try_iter()?, b.try_iter()?),
        Rank::Dict => {
            let (x, y) = (sorted_items(a.cast()?)?, sorted_items(b.cast()?)?);
            seq(x.into_iter().map(Ok), y.into_iter().map(Ok))
        }
        Rank::Map => {
            let items = pyo3::intern!(py, "items");
            seq(a.call_method0(items)?.try_iter()?, b.call_method0(items)?.try_iter()?)
        }
        Rank::Instant => Ok(a.cast::<Instant>()?.get().inner.cmp(&b.cast::<Instant>()?.get().inner)),
        Rank::Duration => Ok(a.cast::<Duration>()?.get().inner.cmp(&b.cast::<Duration>()?.get().inner)),
        Rank::Some => {
            let value = pyo3::intern!(py, "value");
            compare(&a.getattr(value)?, &b.getattr(value)?)
        }
        Rank::Enum => {
            let index = pyo3::intern!(py, "_flow_index");
            let (i, j): (i64, i64) = (a.getattr(index)?.extract()?, b.getattr(index)?.extract()?);
            if i != j {
                return Ok(i.cmp(&j));
            }
            seq(slot_values(a)?.into_iter().map(Ok), slot_values(b)?.into_iter().map(Ok))
        }
        Rank::Record => {
            if !a.get_type().is(b.get_type()) {
                return Err(PyTypeError::new_err(format!(
                    "cannot order a {} and a {}: they are different records",
                    a.get_type().qualname()?,
                    b.get_type().qualname()?
                )));
            }
            seq(slot_values(a)?.into_iter().map(Ok), slot_values(b)?.into_iter().map(Ok))
        }
    }
}

/// A hash consistent with [`compare`]'s equality.
pub fn hash(value: &Bound<'_, PyAny>) -> PyResult<isize> {
    let combine =
        |items: Vec<isize>, seed: isize| items.into_iter().fold(seed, |h, x| h.wrapping_mul(1_000_003).wrapping_add(x));
    let py = value.py();
    Ok(match rank(value)? {
        // Python hashes equal ints and Decimals alike.
        Rank::Null | Rank::Bool | Rank::Number | Rank::Text | Rank::Bytes | Rank::Instant | Rank::Duration => {
            value.hash()?
        }
        Rank::List | Rank::Tuple | Rank::Set | Rank::Map => {
            let items = if value.is_instance(flow_map(py)?)? {
                value.call_method0(pyo3::intern!(py, "items"))?.try_iter()?.collect::<PyResult<Vec<_>>>()?
            } else {
                value.try_iter()?.collect::<PyResult<Vec<_>>>()?
            };
            combine(items.iter().map(hash).collect::<PyResult<_>>()?, 7)
        }
        Rank::Dict => combine(sorted_items(value.cast()?)?.iter().map(hash).collect::<PyResult<_>>()?, 11),
        Rank::Some => combine(vec![hash(&value.getattr(pyo3::intern!(py, "value"))?)?], 13),
        Rank::Enum | Rank::Record => {
            let seed = value.get_type().hash()?;
            combine(slot_values(value)?.iter().map(hash).collect::<PyResult<_>>()?, seed)
        }
    })
}

fn sort<'py>(items: &mut [(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)]) -> PyResult<()> {
    // sort_by cannot fail: remember the first error and stop comparing.
    let mut error = None;
    items.sort_by(|a, b| {
        if error.is_some() {
            return Ordering::Equal;
        }
        compare(&a.0, &b.0).unwrap_or_else(|e| {
            error = Some(e);
            Ordering::Equal
        })
    });
    error.map_or(Ok(()), Err)
}

/// The elements of an iterable in Flow order, equal ones once.
#[pyfunction]
pub fn flow_sorted_set<'py>(items: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let mut all = items.try_iter()?.map(|i| Ok((i?, None))).collect::<PyResult<Vec<_>>>()?;
    sort(&mut all)?;
    let mut out: Vec<Bound<'py, PyAny>> = Vec::with_capacity(all.len());
    for (item, _) in all {
        if let Some(last) = out.last() {
            if compare(last, &item)? == Ordering::Equal {
                continue;
            }
        }
        out.push(item);
    }
    PyTuple::new(items.py(), out)
}

/// `(key, value)` pairs in Flow order of their keys. A key given twice with
/// equal values is kept once; with different values it is refused, since
/// keeping either would silently drop the other.
#[pyfunction]
pub fn flow_sorted_map<'py>(pairs: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    let py = pairs.py();
    let mut all = Vec::new();
    for pair in pairs.try_iter()? {
        let pair = pair?;
        let (k, v): (Bound<'py, PyAny>, Bound<'py, PyAny>) = pair.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a (key, value) pair, found {}",
                pair.get_type().qualname().map(|q| q.to_string()).unwrap_or_default()
            ))
        })?;
        all.push((k, Some(v)));
    }
    sort(&mut all)?;
    let mut out: Vec<(Bound<'py, PyAny>, Bound<'py, PyAny>)> = Vec::with_capacity(all.len());
    for (k, v) in all {
        let v = v.expect("pairs have values");
        if let Some((lk, lv)) = out.last() {
            if compare(lk, &k)? == Ordering::Equal {
                if compare(lv, &v)? == Ordering::Equal {
                    continue;
                }
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "key {} is given twice, with the values {} and {}",
                    k.repr()?,
                    lv.repr()?,
                    v.repr()?
                )));
            }
        }
        out.push((k, v));
    }
    PyTuple::new(py, out.into_iter().map(|(k, v)| PyTuple::new(py, [k, v])).collect::<PyResult<Vec<_>>>()?)
}

/// -1, 0 or 1: Flow's order between two values of one Flow type.
#[pyfunction]
pub fn flow_compare(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i32> {
    Ok(compare(a, b)? as i32)
}

/// A hash agreeing with Flow's equality.
#[pyfunction]
pub fn flow_hash(value: &Bound<'_, PyAny>) -> PyResult<isize> {
    hash(value)
}

/// Where `item` is in the Flow-sorted tuple `items` (binary search), or -1.
#[pyfunction]
pub fn flow_index(items: &Bound<'_, PyTuple>, item: &Bound<'_, PyAny>, key_of_pair: bool) -> PyResult<isize> {
    let (mut lo, mut hi) = (0usize, items.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        let at = items.get_item(mid)?;
        let at = if key_of_pair { at.get_item(0)? } else { at };
        match compare(&at, item)? {
            Ordering::Less => lo = mid + 1,
            Ordering::Greater => hi = mid,
            Ordering::Equal => return Ok(mid as isize),
        }
    }
    Ok(-1)
}
