//! A running call as its handler's context sees it ([`Call`]), and the order
//! a generic call's collections keep ([`ContextOrder`]).

use std::sync::{Arc, Mutex};

use flow_core::{Limits, Value};
use flow_protocol::server::{CallTypes, GenericCall, HandlerResult};
use flow_protocol::{CallKey, CancelToken};
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::outbox;
use super::roots::{compile_roots, RootPlans};
use super::{lock, Shared};
use crate::errors::decode_error;
use crate::from_py::FromPy;
use crate::pyplan::{Id, PyNode};
use crate::to_py::json as json_to_py;
use crate::to_py::ToPy;

/// One running call, as its handler's context sees it.
#[pyclass(frozen, module = "flow_toolkit")]
pub struct Call {
    pub(super) shared: Arc<Shared>,
    pub(super) key: CallKey,
    pub(super) tool: usize,
    pub(super) cancel: CancelToken,
    pub(super) roots: Arc<RootPlans>,
    pub(super) generic: Option<GenericCall>,
    pub(super) finished: Mutex<bool>,
}

impl Call {
    fn take_finish(&self) -> bool {
        !std::mem::replace(&mut *lock(&self.finished), true)
    }

    fn encode(&self, py: Python<'_>, value: &Bound<'_, PyAny>, node: Id) -> Result<Value, String> {
        FromPy { plan: &self.roots.plan, limits: Limits::default() }.value(value, node).map_err(|e| match e {
            crate::from_py::Failure::Refused(e) => e.to_string(),
            crate::from_py::Failure::Python(e) => {
                format!("reading the value raised {}", e.value(py).repr().map(|r| r.to_string()).unwrap_or_default())
            }
        })
    }

    fn send(&self, py: Python<'_>, result: HandlerResult) {
        if outbox::on_worker() {
            // Nothing here blocks: the reply waits for the worker's next write.
            self.shared.finish(&self.key, result);
            return;
        }
        let shared = self.shared.clone();
        let key = self.key.clone();
        py.detach(move || shared.finish(&key, result));
    }
}

#[pymethods]
impl Call {
    /// The Tool's index in the served list.
    #[getter]
    fn tool(&self) -> usize {
        self.tool
    }

    /// The host's run id.
    #[getter]
    fn run_id(&self) -> &str {
        &self.key.run
    }

    /// The call's history id.
    #[getter]
    fn call_id(&self) -> &str {
        &self.key.call
    }

    /// Whether a cancel for this call has arrived.
    #[getter]
    fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Blocks (without the GIL) until the call is cancelled or `timeout`
    /// seconds pass; returns whether it is cancelled.
    #[pyo3(signature = (timeout = None))]
    fn wait_cancelled(&self, py: Python<'_>, timeout: Option<f64>) -> bool {
        let token = self.cancel.clone();
        py.detach(move || match timeout {
            Some(t) => token.sleep(std::time::Duration::from_secs_f64(t.max(0.0))),
            None => {
                token.wait();
                true
            }
        })
    }

    /// Replies Ok with `value` (encoded at the declared success type; a value
    /// of another type is answered Unknown, naming the path).
    fn ok(&self, py: Python<'_>, value: &Bound<'_, PyAny>) {
        if !self.take_finish() {
            return;
        }
        let result = match self.encode(py, value, self.roots.ok) {
            Ok(v) => HandlerResult::Ok(v),
            Err(why) => HandlerResult::Error(format!("its result is not of the declared type: {why}")),
        };
        self.send(py, result);
    }

    /// Replies Failed with `error` encoded at the declared error type; when it
    /// does not encode, replies Unknown and returns why (for the log).
    fn failed(&self, py: Python<'_>, error: &Bound<'_, PyAny>) -> Option<String> {
        if !self.take_finish() {
            return None;
        }
        let (result, refused) = match self.encode(py, error, self.roots.err) {
            Ok(v) => (HandlerResult::Failed(v), None),
            Err(why) => {
                let why = format!("its error is not of the declared type: {why}");
                (HandlerResult::Error(why.clone()), Some(why))
            }
        };
        self.send(py, result);
        refused
    }

    /// Whether `error` is an instance of a class the declared error type's
    /// values are made of (its record class, or one of its enum's constructor
    /// classes, also inside an Option): what a handler may raise to fail.
    /// Its fields are checked only when it is encoded.
    fn declares(&self, error: &Bound<'_, PyAny>) -> PyResult<bool> {
        let py = error.py();
        let plan = &self.roots.plan;
        let mut node = plan.node(self.roots.err);
        while let PyNode::Option { item, wrap: false } = node {
            node = plan.node(*item);
        }
        match node {
            PyNode::Record(record) => error.is_instance(record.class.bind(py)),
            PyNode::Enum(e) => {
                for ctor in &e.ctors {
                    if error.is_instance(ctor.class.bind(py))? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => Ok(false),
        }
    }

    /// Replies Unknown: the handler stopped some other way (`reason` says how).
    fn error(&self, py: Python<'_>, reason: &str) {
        if self.take_finish() {
            self.send(py, HandlerResult::Error(reason.to_owned()));
        }
    }

    /// Replies NotRun: the handler never started (`reason` says why).
    fn not_run(&self, py: Python<'_>, reason: &str) {
        if self.take_finish() {
            self.send(py, HandlerResult::NotRun(reason.to_owned()));
        }
    }

    /// A generic call's validated types view, as JSON (None for a nongeneric call).
    #[getter]
    fn types<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.generic {
            None => Ok(py.None().into_bound(py)),
            Some(g) => json_to_py(py, &flow_core::types::call_view_to_json(&g.view)),
        }
    }

    /// A generic call's success schema, as JSON (None for a nongeneric call).
    #[getter]
    fn schema<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.generic {
            None => Ok(py.None().into_bound(py)),
            Some(g) => json_to_py(py, &g.schema),
        }
    }

    /// The concrete type term each type parameter is bound to, by name, as JSON.
    #[getter]
    fn bindings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dict = pyo3::types::PyDict::new(py);
        if let Some(g) = &self.generic {
            for (name, term) in &g.view.bindings {
                dict.set_item(name, json_to_py(py, &flow_core::types::term_to_json(term))?)?;
            }
        }
        Ok(dict.into_any())
    }

    /// The canonical text of JSON `value` decoded at a concrete root of this
    /// call ("ok", "err", a parameter's name or a type parameter's name):
    /// checks a JSON value against the caller's type. Raises DecodeError.
    fn canonical_at(&self, py: Python<'_>, root: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
        let (types, node) = self.concrete_root(py, root)?;
        let json = crate::from_py::json(value, &Limits::default()).map_err(|e| e.into_pyerr(py))?;
        let v = flow_core::decode::from_json(json, &types.plan, node).map_err(|e| decode_error(py, &e))?;
        Ok(v.to_canonical())
    }

    /// The order at a root of this call ("ok", "err", a parameter's name, or
    /// a type parameter's name), over the Python form the handler sees and
    /// returns: what FlowSet and FlowMap take as `order=` for elements that
    /// hold a type parameter's values.
    fn order(&self, py: Python<'_>, root: &str) -> PyResult<Py<ContextOrder>> {
        let params = &self.shared.tools[self.tool].decl.params;
        let node = match root {
            "ok" => Some(self.roots.ok),
            "err" => Some(self.roots.err),
            name => params
                .iter()
                .position(|p| p.name == name)
                .map(|i| self.roots.params[i])
                .or_else(|| self.roots.bindings.iter().find(|(n, _)| n == name).map(|(_, id)| *id)),
        };
        let node =
            node.ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(format!("no root {root:?} in this call")))?;
        Py::new(py, ContextOrder { roots: self.roots.clone(), node })
    }

    /// Flow's order of two JSON values at a concrete root of this call (the
    /// caller's type decides: a record by its fields in declaration order).
    fn compare_at(&self, py: Python<'_>, root: &str, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i32> {
        let (types, node) = self.concrete_root(py, root)?;
        let decode = |x: &Bound<'_, PyAny>| -> PyResult<Value> {
            let json = crate::from_py::json(x, &Limits::default()).map_err(|e| e.into_pyerr(py))?;
            flow_core::decode::from_json(json, &types.plan, node).map_err(|e| decode_error(py, &e))
        };
        Ok(decode(a)?.flow_cmp(&decode(b)?) as i32)
    }
}

impl Call {
    fn concrete_root(&self, py: Python<'_>, root: &str) -> PyResult<(Arc<CallTypes>, usize)> {
        let Some(g) = &self.generic else {
            return Err(pyo3::exceptions::PyValueError::new_err("a nongeneric call has no call view"));
        };
        let node = match root {
            "ok" => Some(g.types.ok),
            "err" => Some(g.types.err),
            name => g.view.params.iter().position(|p| p.name == name).map(|i| g.types.params[i]),
        };
        if let Some(node) = node {
            return Ok((g.types.clone(), node));
        }
        let Some((_, term)) = g.view.bindings.iter().find(|(n, _)| n == root) else {
            return Err(pyo3::exceptions::PyKeyError::new_err(format!("no root {root:?} in this call")));
        };
        let mut plan = g.types.plan.clone();
        let node = plan.add(&g.view.declarations, term).map_err(|e| decode_error(py, &e))?;
        Ok((Arc::new(CallTypes { plan, params: Vec::new(), ok: node, err: node }), node))
    }
}

/// Flow's order and equality at one type of a generic call, whose values hold
/// JSON where the Tool's type parameters are: each is read at the caller's
/// concrete type (a record by its fields in declaration order, never by a
/// dict's keys). What a generic call's FlowSets and FlowMaps sort by.
#[pyclass(frozen, module = "flow_toolkit")]
pub struct ContextOrder {
    pub(super) roots: Arc<RootPlans>,
    pub(super) node: Id,
}

impl ContextOrder {
    fn read(&self, value: &Bound<'_, PyAny>) -> PyResult<Value> {
        FromPy { plan: &self.roots.plan, limits: Limits::default() }
            .value(value, self.node)
            .map_err(|e| e.into_pyerr(value.py()))
    }
}

#[pymethods]
impl ContextOrder {
    /// -1, 0 or 1: `a` before, equal to, or after `b`.
    fn __call__(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i32> {
        Ok(self.read(a)?.flow_cmp(&self.read(b)?) as i32)
    }

    /// The value's canonical text at this type: equal values, equal texts.
    fn canonical(&self, value: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.read(value)?.to_canonical())
    }
}

/// The Python form of a started call's args, and its [`Call`].
pub(super) fn start<'py>(
    py: Python<'py>,
    shared: &Arc<Shared>,
    started: flow_protocol::StartedCall,
) -> PyResult<(Py<Call>, Bound<'py, PyList>)> {
    let served = &shared.tools[started.tool];
    let roots = match &served.roots {
        Some(roots) => roots.clone(),
        None => Arc::new(compile_roots(py, shared.codec.get(), &served.decl, started.generic.as_ref())?),
    };
    let context_roots = roots.clone();
    let make_order = move |py: Python<'_>, node: Id| -> PyResult<Py<PyAny>> {
        Ok(Py::new(py, ContextOrder { roots: context_roots.clone(), node })?.into_any())
    };
    let context: Option<&crate::to_py::MakeOrder> = if started.generic.is_some() { Some(&make_order) } else { None };
    let to_py = ToPy { plan: &roots.plan, context };
    let args = started
        .args
        .iter()
        .zip(&roots.params)
        .map(|(v, node)| to_py.value(py, v, *node))
        .collect::<PyResult<Vec<_>>>()?;
    let call = Call {
        shared: shared.clone(),
        key: started.key,
        tool: started.tool,
        cancel: started.cancel,
        roots,
        generic: started.generic,
        finished: Mutex::new(false),
    };
    Ok((Py::new(py, call)?, PyList::new(py, args)?))
}
