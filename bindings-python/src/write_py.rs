//! The fast path of encoding: canonical text written straight from Python
//! objects, with the same checks as [`crate::from_py`] and no intermediate
//! [`flow_core::Value`]. Where Flow's order decides the text (a Set, a
//! non-Text Dict) or a value needs the core's checks (a type parameter's
//! JSON), that part goes through `from_py` and the core's writer instead, so
//! the rules stay in one place; everything else is written here in one walk:
//! records' members in the precomputed code-point order of their names,
//! Option fields left out when None.

use flow_core::json::{write_canonical as write_json, write_string};
use flow_core::types::Prim;
use flow_core::{Error, Limits, Rule};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};

use crate::from_py::{self, Failure, FromPy};
use crate::numbers;
use crate::pyobjects::{flow_map, flow_map_pairs, flow_set, flow_set_items, read_slot, some, some_value};
use crate::pyplan::{Id, PyField, PyNode, PyPayload, PyPlan};
use crate::time::{Duration, Instant};

type Result<T> = std::result::Result<T, Failure>;

pub struct WritePy<'a> {
    pub plan: &'a PyPlan,
    pub limits: Limits,
}

fn under_key(e: Failure, key: &str) -> Failure {
    match e {
        Failure::Refused(e) => Failure::Refused(e.under_key(key)),
        other => other,
    }
}

fn under_index(e: Failure, index: usize) -> Failure {
    match e {
        Failure::Refused(e) => Failure::Refused(e.under_index(index)),
        other => other,
    }
}

/// An `int` exactly (not a subclass, so never a bool).
fn is_exact_int(value: &Bound<'_, PyAny>) -> bool {
    // SAFETY: a live object pointer.
    unsafe { pyo3::ffi::PyLong_CheckExact(value.as_ptr()) != 0 }
}

/// A field's value: from its slot when the object is exactly the class the
/// offset belongs to (the callers check the class), else by attribute.
fn get<'py>(value: &Bound<'py, PyAny>, field: &PyField) -> PyResult<Bound<'py, PyAny>> {
    match field.offset.and_then(|offset| read_slot(value, offset)) {
        Some(v) => Ok(v),
        None => value.getattr(field.attr.bind(value.py())),
    }
}

impl WritePy<'_> {
    /// A big int's decimal text when it is within the digit limit (Python's
    /// own `str`, which also refuses past its limit); None otherwise, and the
    /// checked path words the refusal.
    fn big_int_text(&self, value: &Bound<'_, PyAny>) -> Option<String> {
        let text = value.str().ok()?;
        let text = text.to_str().ok()?;
        let digits = text.trim_start_matches('-').len() as u64;
        (digits <= self.limits.max_digits).then(|| text.to_owned())
    }

    /// A `decimal.Decimal` exactly (the caller checks), finite and within the
    /// digit limit, as its canonical text read through its `str`: for what
    /// [`numbers::write_decimal`] does not read. None for anything else (the
    /// checked path words why).
    fn decimal_text(&self, value: &Bound<'_, PyAny>) -> Result<Option<String>> {
        let text = value.str()?;
        let text = text.to_str()?;
        // Decimal's text is already canonical when it has no exponent (nor
        // NaN, sNaN, Infinity), no trailing zero after a point and is not -0:
        // Decimal never writes leading zeros. The common case, kept as it is.
        let exponent_or_special = text.bytes().any(|b| matches!(b, b'E' | b'N' | b'I' | b'n' | b's'));
        let trailing_zero = text.contains('.') && text.ends_with('0');
        let plain = !exponent_or_special && !trailing_zero && text != "-0";
        if plain {
            let digits = text.bytes().filter(u8::is_ascii_digit).count() as u64;
            return Ok((digits <= self.limits.max_digits).then(|| text.to_owned()));
        }
        // NaN, sNaN and Infinity are no JSON numbers: parse_json refuses them.
        let Some(number) = flow_core::Number::parse_json(text) else { return Ok(None) };
        Ok((number.canonical_digit_count() <= self.limits.max_digits).then(|| number.to_canonical()))
    }

    fn slow(&self, value: &Bound<'_, PyAny>, node: Id, out: &mut String) -> Result<()> {
        let v = FromPy { plan: self.plan, limits: self.limits }.value(value, node)?;
        v.write_canonical(out);
        Ok(())
    }

    /// Writes `value`, of the type `node`, as canonical text.
    #[inline]
    pub fn value(&self, value: &Bound<'_, PyAny>, node: Id, out: &mut String) -> Result<()> {
        // Most values are primitives: they skip the large match below.
        match self.plan.node(node) {
            PyNode::Prim(p) => self.prim(value, *p, out),
            _ => self.compound(value, node, out),
        }
    }

    #[inline(never)]
    fn compound(&self, value: &Bound<'_, PyAny>, node: Id, out: &mut String) -> Result<()> {
        let py = value.py();
        match self.plan.node(node) {
            PyNode::Prim(p) => self.prim(value, *p, out),
            PyNode::List(item) => {
                let Ok(list) = value.cast::<PyList>() else { return self.slow(value, node, out) };
                out.push('[');
                for (i, v) in list.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.value(&v, *item, out).map_err(|e| under_index(e, i))?;
                }
                out.push(']');
                Ok(())
            }
            PyNode::Tuple(parts) => {
                let Ok(tuple) = value.cast::<PyTuple>() else { return self.slow(value, node, out) };
                if tuple.len() != parts.len() {
                    return self.slow(value, node, out);
                }
                out.push('[');
                for (i, (part, v)) in parts.iter().zip(tuple.iter()).enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.value(&v, *part, out).map_err(|e| under_index(e, i))?;
                }
                out.push(']');
                Ok(())
            }
            PyNode::TextDict(item) => {
                let Ok(dict) = value.cast::<PyDict>() else { return self.slow(value, node, out) };
                let mut entries = Vec::with_capacity(dict.len());
                for (k, v) in dict.iter() {
                    entries.push((from_py::text(&k, "a str key")?, v));
                }
                entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, k);
                    out.push(':');
                    self.value(v, *item, out).map_err(|e| under_key(e, k))?;
                }
                out.push('}');
                Ok(())
            }
            PyNode::Option { item, wrap } => {
                if value.is_none() {
                    out.push_str("\"None\"");
                    return Ok(());
                }
                let inner = if *wrap {
                    if !value.is_instance(some(py)?)? {
                        return self.slow(value, node, out);
                    }
                    some_value(value)?
                } else {
                    value.clone()
                };
                out.push_str("{\"Some\":");
                self.value(&inner, *item, out).map_err(|e| if *wrap { under_key(e, "Some") } else { e })?;
                out.push('}');
                Ok(())
            }
            PyNode::Record(record) => {
                // Exactly the class: its slot offsets hold (a subclass, or
                // anything else, takes the checked path).
                if !value.get_type().is(record.class.bind(py)) {
                    return self.slow(value, node, out);
                }
                self.fields(value, &record.fields, &record.sorted, out)
            }
            PyNode::Enum(plan) => {
                let class = value.get_type();
                let Some(index) = plan.ctors.iter().position(|c| c.class.bind(py).is(&class)) else {
                    return self.slow(value, node, out);
                };
                let ctor = &plan.ctors[index];
                match &ctor.payload {
                    PyPayload::None => out.push_str(&ctor.name_json),
                    PyPayload::Positional(parts) => {
                        out.push('{');
                        out.push_str(&ctor.name_json);
                        out.push(':');
                        if parts.len() > 1 {
                            out.push('[');
                        }
                        for (i, part) in parts.iter().enumerate() {
                            if i > 0 {
                                out.push(',');
                            }
                            let v = get(value, part)?;
                            self.value(&v, part.node, out)
                                .map_err(|e| if parts.len() == 1 { e } else { under_index(e, i) })
                                .map_err(|e| under_key(e, &ctor.name))?;
                        }
                        if parts.len() > 1 {
                            out.push(']');
                        }
                        out.push('}');
                    }
                    PyPayload::Named { fields, sorted } => {
                        out.push('{');
                        out.push_str(&ctor.name_json);
                        out.push(':');
                        self.fields(value, fields, sorted, out).map_err(|e| under_key(e, &ctor.name))?;
                        out.push('}');
                    }
                }
                Ok(())
            }
            // A FlowSet (FlowMap) holds its elements (pairs) in Flow's order,
            // unique: for elements of the declared type that is the order of
            // the canonical text, so they are written as they are.
            // Exact types: isinstance against an ABC subclass is slow.
            PyNode::Set(item) if value.get_type().is(flow_set(py)?) => {
                let items = flow_set_items(value)?;
                let items = items.cast::<PyTuple>().map_err(PyErr::from)?;
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    self.value(&v, *item, out).map_err(|e| under_index(e, i))?;
                }
                out.push(']');
                Ok(())
            }
            PyNode::Dict(key, item) if value.get_type().is(flow_map(py)?) => {
                let pairs = flow_map_pairs(value)?;
                let pairs = pairs.cast::<PyTuple>().map_err(PyErr::from)?;
                out.push('[');
                for (i, pair) in pairs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let pair = pair.cast_into::<PyTuple>().map_err(PyErr::from)?;
                    out.push('[');
                    self.value(&pair.get_item(0)?, *key, out).map_err(|e| under_index(under_index(e, 0), i))?;
                    out.push(',');
                    self.value(&pair.get_item(1)?, *item, out).map_err(|e| under_index(under_index(e, 1), i))?;
                    out.push(']');
                }
                out.push(']');
                Ok(())
            }
            // Anything else (host tokens, type parameters, a refusal to
            // word): the general path.
            _ => self.slow(value, node, out),
        }
    }

    /// A record or named payload: members in code-point order of their names,
    /// an Option field left out when None and written as its payload when Some.
    fn fields(&self, value: &Bound<'_, PyAny>, fields: &[PyField], sorted: &[usize], out: &mut String) -> Result<()> {
        let py = value.py();
        out.push('{');
        let mut first = true;
        for &i in sorted {
            let field = &fields[i];
            let v = get(value, field)?;
            let (node, v) = match self.plan.node(field.node) {
                PyNode::Option { item, wrap } => {
                    if v.is_none() {
                        continue;
                    }
                    let inner = if *wrap {
                        if !v.is_instance(some(py)?)? {
                            return Err(Failure::Refused(Error::new(
                                Rule::Encode,
                                format!("expected Some(...) or None, found {}", v.get_type().qualname()?),
                            )))
                            .map_err(|e| under_key(e, &field.flow_name));
                        }
                        some_value(&v)?
                    } else {
                        v
                    };
                    (*item, inner)
                }
                _ => (field.node, v),
            };
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(&field.key);
            self.value(&v, node, out).map_err(|e| under_key(e, &field.flow_name))?;
        }
        out.push('}');
        Ok(())
    }

    /// The common cases inline (an int that fits an i64, a str), the rest in
    /// [`Self::any_prim`].
    #[inline]
    fn prim(&self, value: &Bound<'_, PyAny>, prim: Prim, out: &mut String) -> Result<()> {
        match prim {
            Prim::Int if is_exact_int(value) => {
                if let Some(small) = numbers::small_int(value) {
                    numbers::push_int(out, small);
                    return Ok(());
                }
            }
            Prim::Text => {
                if let Some(text) = value.cast::<PyString>().ok().and_then(|s| s.to_str().ok()) {
                    write_string(out, text);
                    return Ok(());
                }
            }
            _ => {}
        }
        self.any_prim(value, prim, out)
    }

    #[inline(never)]
    fn any_prim(&self, value: &Bound<'_, PyAny>, prim: Prim, out: &mut String) -> Result<()> {
        use std::fmt::Write;
        match prim {
            Prim::Int if is_exact_int(value) => {
                if !numbers::write_int(value, out, self.limits.max_digits) {
                    match self.big_int_text(value) {
                        Some(text) => out.push_str(&text),
                        None => write!(out, "{}", from_py::int(value, "an int", &self.limits)?)
                            .expect("writing to a String"),
                    }
                }
            }
            Prim::Int if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() => {
                write!(out, "{}", from_py::int(value, "an int", &self.limits)?).expect("writing to a String")
            }
            Prim::Decimal => {
                let class = crate::pyobjects::decimal(value.py())?;
                let exact = value.get_type().is(class);
                if !(exact && numbers::write_decimal(value, class, out, self.limits.max_digits)) {
                    match if exact { self.decimal_text(value)? } else { None } {
                        Some(text) => out.push_str(&text),
                        None => from_py::decimal_number(value, "a decimal.Decimal", &self.limits)?.write_canonical(out),
                    }
                }
            }
            Prim::Text => match value.cast::<PyString>().ok().and_then(|s| s.to_str().ok()) {
                Some(text) => write_string(out, text),
                None => write_string(out, &from_py::text(value, "a str")?),
            },
            Prim::Bool if value.is_instance_of::<PyBool>() => {
                out.push_str(if value.is_truthy()? { "true" } else { "false" })
            }
            Prim::Unit if value.is_none() => out.push_str("null"),
            Prim::Bytes if value.is_instance_of::<PyBytes>() => {
                out.push('"');
                flow_core::base64::encode(value.cast::<PyBytes>().expect("checked").as_bytes(), out);
                out.push('"');
            }
            Prim::Instant if value.is_instance_of::<Instant>() => {
                out.push('"');
                value.cast::<Instant>().expect("checked").get().inner.write_canonical(out);
                out.push('"');
            }
            Prim::Duration if value.is_instance_of::<Duration>() => {
                out.push('"');
                value.cast::<Duration>().expect("checked").get().inner.write_canonical(out);
                out.push('"');
            }
            Prim::JsonValue => write_json(out, &from_py::json(value, &self.limits)?),
            // Every refusal, with its message, comes from the one converter.
            _ => FromPy { plan: self.plan, limits: self.limits }.prim_value(value, prim)?.write_canonical(out),
        }
        Ok(())
    }
}
