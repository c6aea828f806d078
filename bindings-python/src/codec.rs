//! `Codec`: typed decoding and canonical encoding at the types of one tools
//! listing, building and reading the generated classes. Generated packages
//! make one at import time (`Codec(LISTING, classes={...})`); a `TypeCodec`
//! is one compiled type of it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use flow_core::plan::{NodeId, Plan};
use flow_core::types::parse::{listing_from_text, term_from_json};
use flow_core::types::{Declarations, Listing, Term};
use flow_core::{json, Limits};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyType};

use crate::errors::decode_error;
use crate::pyplan::{Classes, PTerm, PyNode, PyPlan, Side};
use crate::to_py::ToPy;
use crate::write_py::WritePy;

/// Bytes of a `str` (UTF-8) or `bytes` argument.
pub fn text_bytes<'a>(data: &'a Bound<'_, PyAny>) -> PyResult<&'a [u8]> {
    if let Ok(s) = data.cast::<PyString>() {
        // SAFETY-free: to_str borrows the str's cached UTF-8, alive as long as `data`.
        return Ok(s.to_str()?.as_bytes());
    }
    if let Ok(b) = data.cast::<PyBytes>() {
        return Ok(b.as_bytes());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "expected JSON text as str or bytes, found {}",
        data.get_type().qualname()?
    )))
}

pub fn read_listing(py: Python<'_>, listing: &Bound<'_, PyAny>) -> PyResult<Listing> {
    listing_from_text(text_bytes(listing)?, &Limits::default()).map_err(|e| decode_error(py, &e))
}

/// Typed decoding and canonical encoding at the types of one tools listing.
#[pyclass(frozen, module = "flow_toolkit")]
pub struct Codec {
    pub listing: Arc<Listing>,
    pub declarations: Arc<Declarations>,
    pub classes: Arc<Classes>,
    /// A registered class to the term of its type (records, and each
    /// constructor class of an enum to the enum), for `decode(cls, ...)`.
    by_class: HashMap<usize, Term>,
}

/// One compiled type: decode JSON text to its Python form, encode the Python
/// form to canonical text.
#[pyclass(frozen, module = "flow_toolkit")]
pub struct TypeCodec {
    core: Plan,
    core_node: NodeId,
    plan: PyPlan,
    node: usize,
    limits: Limits,
    text: String,
    /// The length of the last text encoded: the next one's buffer is
    /// reserved at once rather than grown (and copied) as it is written.
    size_hint: AtomicUsize,
}

fn class_key(class: &Bound<'_, PyType>) -> usize {
    class.as_ptr() as usize
}

impl Codec {
    pub fn compile(&self, py: Python<'_>, term: &Term) -> PyResult<TypeCodec> {
        let (core, core_node) = Plan::compile(&self.declarations, term).map_err(|e| decode_error(py, &e))?;
        let mut plan = PyPlan::new(self.declarations.clone(), None, self.classes.clone());
        let pterm = PTerm::from_term(term, Side::Listing, &|_| PTerm::ParamJson(None));
        let node = plan.add(py, &pterm)?.map_err(|e| decode_error(py, &e))?;
        let text = flow_core::types::write::term_text(term, &self.declarations, &[]);
        Ok(TypeCodec { core, core_node, plan, node, limits: Limits::default(), text, size_hint: AtomicUsize::new(0) })
    }
}

#[pymethods]
impl Codec {
    /// A codec for the types of `listing` (a tools listing's JSON text).
    /// `classes` maps each record's identity to its class, and each enum's
    /// identity to its constructor classes in declaration order.
    #[new]
    fn new(py: Python<'_>, listing: &Bound<'_, PyAny>, classes: &Bound<'_, PyDict>) -> PyResult<Codec> {
        let listing = read_listing(py, listing)?;
        let classes = Classes::from_dict(classes)?;
        let mut by_class = HashMap::new();
        for (id, template) in &listing.declarations {
            if !template.generic.is_empty() {
                continue;
            }
            let term = Term::Named { declaration: id.clone(), args: Vec::new() };
            if let Some(class) = classes.records.get(&template.identity) {
                by_class.insert(class_key(class.bind(py)), term.clone());
            }
            for class in classes.enums.get(&template.identity).into_iter().flatten() {
                by_class.insert(class_key(class.bind(py)), term.clone());
            }
        }
        let declarations = Arc::new(listing.declarations.clone());
        Ok(Codec { listing: Arc::new(listing), declarations, classes: Arc::new(classes), by_class })
    }

    /// The codec of a type term, given as JSON text (`'{"List": "Int"}'`), or
    /// of a registered class (a record, or any constructor class of an enum,
    /// standing for the enum); generic declarations need a term.
    fn type_of(&self, py: Python<'_>, ty: &Bound<'_, PyAny>) -> PyResult<TypeCodec> {
        if let Ok(class) = ty.cast::<PyType>() {
            let term = self.by_class.get(&class_key(class)).ok_or_else(|| {
                pyo3::exceptions::PyKeyError::new_err(format!(
                    "{} is not a registered non-generic class of this codec; pass a type term",
                    class.qualname().map(|q| q.to_string()).unwrap_or_default()
                ))
            })?;
            return self.compile(py, term);
        }
        let text = ty
            .cast::<PyString>()
            .map_err(|_| pyo3::exceptions::PyTypeError::new_err("expected a class or a type term's JSON text"))?;
        let term_json = json::parse_str(text.to_str()?, &Limits::default()).map_err(|e| decode_error(py, &e))?;
        let term = term_from_json(&term_json).map_err(|e| decode_error(py, &e))?;
        self.compile(py, &term)
    }

    /// Decodes JSON text at `ty` (see `type_of`).
    fn decode<'py>(
        &self,
        py: Python<'py>,
        ty: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.type_of(py, ty)?.decode(py, data, None, None, None)
    }

    /// The canonical text of `value` at `ty` (see `type_of`).
    fn encode<'py>(
        &self,
        py: Python<'py>,
        ty: &Bound<'py, PyAny>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyString>> {
        self.type_of(py, ty)?.encode(value)
    }

    /// The listing's canonical text.
    #[getter]
    fn listing_text(&self) -> String {
        flow_core::types::listing_to_json(&self.listing).to_canonical()
    }
}

#[pymethods]
impl TypeCodec {
    /// Decodes JSON text (str or bytes): every rule of the encoding, then the
    /// Python form. Raises DecodeError naming the path and the rule. The
    /// limits default to `decisions.md` section 2's (16 MiB, depth 128,
    /// 4,300 digits).
    #[pyo3(signature = (data, *, max_bytes = None, max_depth = None, max_digits = None))]
    pub fn decode<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        max_bytes: Option<usize>,
        max_depth: Option<usize>,
        max_digits: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let limits = self.limits_with(max_bytes, max_depth, max_digits);
        let bytes = text_bytes(data)?;
        match self.decode_items(py, bytes, &limits) {
            Some(decoded) => decoded,
            None => self.decode_whole(py, bytes, &limits),
        }
    }

    /// `decode` the long way, through the whole text's trees: the reference
    /// the item-by-item path of a list is tested against.
    #[pyo3(signature = (data, *, max_bytes = None, max_depth = None, max_digits = None))]
    fn _decode_whole<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        max_bytes: Option<usize>,
        max_depth: Option<usize>,
        max_digits: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let limits = self.limits_with(max_bytes, max_depth, max_digits);
        self.decode_whole(py, text_bytes(data)?, &limits)
    }

    /// The canonical text of a Python value of this type. Raises EncodeError
    /// naming the path and the rule for a value of another type.
    pub fn encode<'py>(&self, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
        let py = value.py();
        let hint = self.size_hint.load(Ordering::Relaxed);
        let mut out = String::with_capacity(hint + hint / 16);
        WritePy { plan: &self.plan, limits: self.limits }
            .value(value, self.node, &mut out)
            .map_err(|e| e.into_pyerr(py))?;
        self.size_hint.store(out.len(), Ordering::Relaxed);
        crate::pystr::new_str(py, &out)
    }

    fn __repr__(&self) -> String {
        format!("TypeCodec({})", self.text)
    }
}

impl TypeCodec {
    pub fn plan(&self) -> &PyPlan {
        &self.plan
    }

    fn limits_with(&self, max_bytes: Option<usize>, max_depth: Option<usize>, max_digits: Option<u64>) -> Limits {
        Limits {
            max_bytes: max_bytes.unwrap_or(self.limits.max_bytes),
            max_depth: max_depth.unwrap_or(self.limits.max_depth),
            max_digits: max_digits.unwrap_or(self.limits.max_digits),
        }
    }

    /// The whole text read into one JSON tree, decoded into one `Value`
    /// tree, then built in Python.
    fn decode_whole<'py>(&self, py: Python<'py>, bytes: &[u8], limits: &Limits) -> PyResult<Bound<'py, PyAny>> {
        let value = flow_core::decode::decode_with(bytes, &self.core, self.core_node, limits)
            .map_err(|e| decode_error(py, &e))?;
        // The objects built here are new and acyclic: a cyclic collection
        // while building them would only traverse them in vain (and, for a
        // large value, many times over).
        let _paused = crate::pyobjects::GcPause::new(py);
        ToPy { plan: &self.plan, context: None }.value(py, &value, self.node)
    }

    /// A list built item by item (`decode_items_with`): each item's trees
    /// are made, turned into Python and freed before the next is read, so the
    /// memory a decode holds beyond its result is one item's, and the trees
    /// stay in cache. The outcome is `decode_whole`'s, refusals included:
    /// the text's refusal first, then the first item that does not decode,
    /// then a failure of Python's. None for a type that is not a list.
    fn decode_items<'py>(&self, py: Python<'py>, bytes: &[u8], limits: &Limits) -> Option<PyResult<Bound<'py, PyAny>>> {
        let PyNode::List(item_node) = self.plan.node(self.node) else { return None };
        let to_py = ToPy { plan: &self.plan, context: None };
        let _paused = crate::pyobjects::GcPause::new(py);
        let mut items: Vec<Bound<'py, PyAny>> = Vec::new();
        let mut python_failure: Option<PyErr> = None;
        let decoded =
            flow_core::decode::decode_items_with(bytes, &self.core, self.core_node, limits, &mut |_, value| {
                // Past a failure of Python's the text is still read and
                // decoded to its end: its refusal would come first.
                if python_failure.is_none() {
                    match to_py.value(py, &value, *item_node) {
                        Ok(item) => items.push(item),
                        Err(e) => python_failure = Some(e),
                    }
                }
            })?;
        Some(match (decoded, python_failure) {
            (Err(e), _) => Err(decode_error(py, &e)),
            (Ok(_), Some(e)) => Err(e),
            (Ok(_), None) => PyList::new(py, items).map(Bound::into_any),
        })
    }
}
