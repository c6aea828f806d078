//! Python values to Flow values, checked against their Python form: the wrong
//! type anywhere is refused with its path (`$.days[3].high_c`) and rule, never
//! coerced. A float is refused everywhere, since it is not an exact number; so
//! are a NaN or infinite Decimal and numbers past the digit limit.

use flow_core::json::{Json, Object};
use flow_core::value::{EnumPayload, EnumValue, Value};
use flow_core::{Error, Limits, Number, Rule};
use num_bigint::BigInt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::pyobjects::{decimal, flow_map, flow_set, some};
use crate::pyplan::{Id, PyNode, PyPayload, PyPlan};
use crate::time::{Duration, Instant};
use crate::token::HostToken;
use flow_core::types::Prim;

type Result<T> = std::result::Result<T, Failure>;

/// Why a conversion stopped: a refusal of the value, or a Python exception
/// raised while looking at it (a property that raised, say).
pub enum Failure {
    Refused(Error),
    Python(PyErr),
}

impl From<PyErr> for Failure {
    fn from(e: PyErr) -> Failure {
        Failure::Python(e)
    }
}

impl Failure {
    fn under_key(self, key: &str) -> Failure {
        match self {
            Failure::Refused(e) => Failure::Refused(e.under_key(key)),
            other => other,
        }
    }

    fn under_index(self, index: usize) -> Failure {
        match self {
            Failure::Refused(e) => Failure::Refused(e.under_index(index)),
            other => other,
        }
    }

    /// The Python exception to raise: an EncodeError for a refusal.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Failure::Refused(e) => crate::errors::encode_error(py, &e),
            Failure::Python(e) => e,
        }
    }
}

fn refuse(rule: Rule, message: impl Into<String>) -> Failure {
    Failure::Refused(Error::new(rule, message))
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().qualname().map(|n| n.to_string()).unwrap_or_else(|_| "an object".to_owned())
}

fn expected(what: &str, found: &Bound<'_, PyAny>) -> Failure {
    if found.is_instance_of::<PyFloat>() {
        return refuse(
            Rule::Encode,
            format!("expected {what}, found a float: floats are not exact; use int or decimal.Decimal"),
        );
    }
    refuse(Rule::Encode, format!("expected {what}, found {}", type_name(found)))
}

fn check_digits(n: &Number, max_digits: u64) -> Result<()> {
    n.check_digits(max_digits).map_err(Failure::Refused)
}

/// A Python int (not a bool) as a BigInt, held to the digit limit.
pub fn int(value: &Bound<'_, PyAny>, what: &str, limits: &Limits) -> Result<BigInt> {
    if !value.is_instance_of::<PyInt>() || value.is_instance_of::<PyBool>() {
        return Err(expected(what, value));
    }
    if let Ok(small) = value.extract::<i64>() {
        return Ok(BigInt::from(small));
    }
    let big: BigInt = value.extract()?;
    // 4,300 digits are about 14,284 bits: count exactly only near the limit.
    let bits = big.bits();
    if bits as f64 * std::f64::consts::LOG10_2 > limits.max_digits as f64 + 1.0 {
        return Err(refuse(
            Rule::NumberTooLarge,
            format!("an int of about {bits} bits has more than {} digits", limits.max_digits),
        ));
    }
    check_digits(&Number::from_bigint(&big), limits.max_digits)?;
    Ok(big)
}

/// A finite decimal.Decimal as an exact Number, held to the digit limit.
pub fn decimal_number(value: &Bound<'_, PyAny>, what: &str, limits: &Limits) -> Result<Number> {
    let py = value.py();
    if !value.is_instance(decimal(py)?)? {
        return Err(expected(what, value));
    }
    if !value.call_method0(pyo3::intern!(py, "is_finite"))?.extract::<bool>()? {
        return Err(refuse(
            Rule::Encode,
            format!("expected {what}, found Decimal('{}'), which is no number", value.str()?),
        ));
    }
    let text = value.str()?;
    let number = Number::parse_json(text.to_str()?)
        .ok_or_else(|| refuse(Rule::Encode, format!("Decimal text {} is not a plain number", text)))?;
    check_digits(&number, limits.max_digits)?;
    Ok(number)
}

pub fn text(value: &Bound<'_, PyAny>, what: &str) -> Result<String> {
    let s = value.cast::<PyString>().map_err(|_| expected(what, value))?;
    match s.to_str() {
        Ok(s) => Ok(s.to_owned()),
        Err(_) => Err(refuse(Rule::Encode, "a str holding a lone surrogate is not Unicode text")),
    }
}

/// json.Value's Python form back to JSON.
pub fn json(value: &Bound<'_, PyAny>, limits: &Limits) -> Result<Json> {
    const WHAT: &str = "JSON (None, bool, int, Decimal, str, list or dict with str keys)";
    if value.is_none() {
        return Ok(Json::Null);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Json::Bool(b.is_true()));
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(Json::Number(Number::from_bigint(&int(value, WHAT, limits)?)));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Json::String(text(s.as_any(), WHAT)?));
    }
    if let Ok(list) = value.cast::<PyList>() {
        let mut items = Vec::with_capacity(list.len());
        for (i, item) in list.iter().enumerate() {
            items.push(json(&item, limits).map_err(|e| e.under_index(i))?);
        }
        return Ok(Json::Array(items));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut members = Vec::with_capacity(dict.len());
        for (k, v) in dict.iter() {
            let key = text(&k, "a str key").map_err(|e| match e {
                Failure::Refused(_) => expected("a str key in a JSON object", &k),
                other => other,
            })?;
            let item = json(&v, limits).map_err(|e| e.under_key(&key))?;
            members.push((key, item));
        }
        // A dict has no duplicate keys.
        return Ok(Json::Object(Object::from_members(members).expect("dict keys are unique")));
    }
    if value.is_instance(decimal(value.py())?)? {
        return Ok(Json::Number(decimal_number(value, WHAT, limits)?));
    }
    Err(expected(WHAT, value))
}

pub struct FromPy<'a> {
    pub plan: &'a PyPlan,
    pub limits: Limits,
}

fn sort_unique<T>(mut items: Vec<T>, key: impl Fn(&T) -> &Value, what: &str) -> Result<Vec<T>> {
    items.sort_by(|a, b| key(a).flow_cmp(key(b)));
    if items.windows(2).any(|w| key(&w[0]) == key(&w[1])) {
        return Err(refuse(Rule::Encode, format!("{what} holds two equal elements")));
    }
    Ok(items)
}

impl FromPy<'_> {
    pub fn value(&self, value: &Bound<'_, PyAny>, node: Id) -> Result<Value> {
        let py = value.py();
        match self.plan.node(node) {
            PyNode::Prim(p) => self.prim_value(value, *p),
            PyNode::List(item) => {
                let list = value.cast::<PyList>().map_err(|_| expected("a list", value))?;
                let mut items = Vec::with_capacity(list.len());
                for (i, v) in list.iter().enumerate() {
                    items.push(self.value(&v, *item).map_err(|e| e.under_index(i))?);
                }
                Ok(Value::List(items))
            }
            PyNode::Set(item) => {
                if !value.is_instance(flow_set(py)?)? {
                    return Err(expected("a FlowSet", value));
                }
                let mut items = Vec::new();
                for (i, v) in value.try_iter()?.enumerate() {
                    items.push(self.value(&v?, *item).map_err(|e| e.under_index(i))?);
                }
                sort_unique(items, |v| v, "the Set").map(Value::Set)
            }
            PyNode::Option { item, wrap } => {
                if value.is_none() {
                    return Ok(Value::none());
                }
                if *wrap {
                    if !value.is_instance(some(py)?)? {
                        return Err(expected("Some(...) or None", value));
                    }
                    let inner = value.getattr(pyo3::intern!(py, "value"))?;
                    return Ok(Value::some(self.value(&inner, *item).map_err(|e| e.under_key("Some"))?));
                }
                Ok(Value::some(self.value(value, *item)?))
            }
            PyNode::TextDict(item) => {
                let dict = value.cast::<PyDict>().map_err(|_| expected("a dict with str keys", value))?;
                let mut entries = Vec::with_capacity(dict.len());
                for (k, v) in dict.iter() {
                    let key = text(&k, "a str key")?;
                    let item = self.value(&v, *item).map_err(|e| e.under_key(&key))?;
                    entries.push((key, item));
                }
                entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                Ok(Value::TextDict(entries))
            }
            PyNode::Dict(key, item) => {
                if !value.is_instance(flow_map(py)?)? {
                    return Err(expected("a FlowMap", value));
                }
                let mut entries = Vec::new();
                let pairs = value.call_method0(pyo3::intern!(py, "items"))?;
                for (i, pair) in pairs.try_iter()?.enumerate() {
                    let pair = pair?;
                    let pair = pair.cast::<PyTuple>().map_err(|_| expected("a (key, value) pair", &pair))?;
                    let k = self.value(&pair.get_item(0)?, *key).map_err(|e| e.under_index(0).under_index(i))?;
                    let v = self.value(&pair.get_item(1)?, *item).map_err(|e| e.under_index(1).under_index(i))?;
                    entries.push((k, v));
                }
                sort_unique(entries, |(k, _)| k, "the Dict's keys").map(Value::Dict)
            }
            PyNode::Tuple(parts) => {
                let tuple =
                    value.cast::<PyTuple>().map_err(|_| expected(&format!("a tuple of {}", parts.len()), value))?;
                if tuple.len() != parts.len() {
                    return Err(refuse(
                        Rule::Encode,
                        format!("expected a tuple of {}, found one of {}", parts.len(), tuple.len()),
                    ));
                }
                let mut items = Vec::with_capacity(parts.len());
                for (i, (part, v)) in parts.iter().zip(tuple.iter()).enumerate() {
                    items.push(self.value(&v, *part).map_err(|e| e.under_index(i))?);
                }
                Ok(Value::Tuple(items))
            }
            PyNode::Record(record) => {
                let class = record.class.bind(py);
                if !value.is_instance(class)? {
                    return Err(expected(&format!("a {} ({})", class.qualname()?, record.identity), value));
                }
                let mut fields = Vec::with_capacity(record.fields.len());
                for field in &record.fields {
                    let v = value.getattr(field.attr.bind(py))?;
                    let v = self.value(&v, field.node).map_err(|e| e.under_key(&field.flow_name))?;
                    fields.push((field.flow_name.clone(), v));
                }
                Ok(Value::Record(fields))
            }
            PyNode::Enum(plan) => {
                let class = value.get_type();
                let found = plan.ctors.iter().position(|c| c.class.bind(py).is(&class));
                let found = match found {
                    Some(i) => Some(i),
                    None => {
                        let mut hit = None;
                        for (i, c) in plan.ctors.iter().enumerate() {
                            if value.is_instance(c.class.bind(py))? {
                                hit = Some(i);
                                break;
                            }
                        }
                        hit
                    }
                };
                let Some(index) = found else {
                    let names: Vec<String> = plan
                        .ctors
                        .iter()
                        .map(|c| c.class.bind(py).qualname().map(|n| n.to_string()).unwrap_or_default())
                        .collect();
                    return Err(expected(&format!("one of {} ({})", names.join(", "), plan.identity), value));
                };
                let ctor = &plan.ctors[index];
                let under = |e: Failure| e.under_key(&ctor.name);
                let payload = match &ctor.payload {
                    PyPayload::None => EnumPayload::None,
                    PyPayload::Positional(parts) => {
                        let mut items = Vec::with_capacity(parts.len());
                        for (i, part) in parts.iter().enumerate() {
                            let v = value.getattr(part.attr.bind(py))?;
                            let v =
                                self.value(&v, part.node)
                                    .map_err(|e| if parts.len() == 1 { e } else { e.under_index(i) });
                            items.push(v.map_err(under)?);
                        }
                        EnumPayload::Positional(items)
                    }
                    PyPayload::Named { fields, .. } => {
                        let mut items = Vec::with_capacity(fields.len());
                        for field in fields {
                            let v = value.getattr(field.attr.bind(py))?;
                            let v =
                                self.value(&v, field.node).map_err(|e| e.under_key(&field.flow_name)).map_err(under)?;
                            items.push((field.flow_name.clone(), v));
                        }
                        EnumPayload::Named(items)
                    }
                };
                Ok(Value::Enum(EnumValue { index: index as u32, name: ctor.name.clone(), payload }))
            }
            PyNode::Host => {
                let token = value.cast::<HostToken>().map_err(|_| expected("a HostToken", value))?;
                Ok(Value::HostToken(token.get().json()))
            }
            PyNode::ParamJson(None) => Ok(Value::Json(json(value, &self.limits)?)),
            PyNode::ParamJson(Some((plan, node))) => {
                let j = json(value, &self.limits)?;
                flow_core::decode::from_json(j, plan, *node).map_err(Failure::Refused)
            }
            PyNode::Unservable(why) => Err(refuse(Rule::NotServable, format!("no value crosses here: {why}"))),
            PyNode::Pending => Err(refuse(Rule::NotServable, "an incomplete type (a bug)")),
        }
    }

    pub fn prim_value(&self, value: &Bound<'_, PyAny>, prim: Prim) -> Result<Value> {
        Ok(match prim {
            Prim::Int => Value::Int(int(value, "an int", &self.limits)?),
            Prim::Decimal => Value::Decimal(decimal_number(value, "a decimal.Decimal", &self.limits)?),
            Prim::Text => Value::Text(text(value, "a str")?),
            Prim::Bool => Value::Bool(value.cast::<PyBool>().map_err(|_| expected("a bool", value))?.is_true()),
            Prim::Bytes => {
                Value::Bytes(value.cast::<PyBytes>().map_err(|_| expected("bytes", value))?.as_bytes().to_vec())
            }
            Prim::Unit => {
                if !value.is_none() {
                    return Err(expected("None (Unit)", value));
                }
                Value::Unit
            }
            Prim::Instant => {
                Value::Instant(value.cast::<Instant>().map_err(|_| expected("an Instant", value))?.get().inner)
            }
            Prim::Duration => {
                Value::Duration(value.cast::<Duration>().map_err(|_| expected("a Duration", value))?.get().inner)
            }
            Prim::JsonValue => Value::Json(json(value, &self.limits)?),
            Prim::Never => return Err(refuse(Rule::Never, "Never has no values")),
        })
    }
}
