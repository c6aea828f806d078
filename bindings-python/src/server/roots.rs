//! The Python form of one Tool's roots: compiled once for a nongeneric Tool,
//! per call for a generic one (its type parameters as JSON at the call's
//! concrete types).

use std::sync::Arc;

use flow_core::types::ToolDecl;
use flow_protocol::server::GenericCall;
use pyo3::prelude::*;

use crate::codec::Codec;
use crate::errors::decode_error;
use crate::pyplan::{Id, PTerm, PyPlan, Side};

/// The Python form of one Tool's roots.
pub struct RootPlans {
    pub plan: PyPlan,
    pub params: Vec<Id>,
    pub ok: Id,
    pub err: Id,
    /// A generic call's type parameters, each at its concrete type, as JSON.
    pub bindings: Vec<(String, Id)>,
}

pub fn compile_roots(
    py: Python<'_>,
    codec: &Codec,
    decl: &ToolDecl,
    generic: Option<&GenericCall>,
) -> PyResult<RootPlans> {
    let view = generic.map(|g| Arc::new(g.view.declarations.clone()));
    let mut plan = PyPlan::new(codec.declarations.clone(), view, codec.classes.clone());
    let bindings: Vec<flow_core::types::Term> =
        generic.map(|g| g.view.bindings.iter().map(|(_, t)| t.clone()).collect()).unwrap_or_default();
    let tool_param = |i: usize| PTerm::ParamJson(bindings.get(i).cloned());
    let root = |plan: &mut PyPlan, term| -> PyResult<Id> {
        let pterm = PTerm::from_term(term, Side::Listing, &tool_param);
        plan.add(py, &pterm)?.map_err(|e| decode_error(py, &e))
    };
    let params = decl.params.iter().map(|p| root(&mut plan, &p.ty)).collect::<PyResult<Vec<_>>>()?;
    let ok = root(&mut plan, &decl.ok)?;
    let err = root(&mut plan, &decl.err)?;
    let mut named = Vec::new();
    for (name, term) in generic.map(|g| g.view.bindings.clone()).unwrap_or_default() {
        let node = plan.add(py, &PTerm::ParamJson(Some(term)))?.map_err(|e| decode_error(py, &e))?;
        named.push((name, node));
    }
    Ok(RootPlans { plan, params, ok, err, bindings: named })
}
