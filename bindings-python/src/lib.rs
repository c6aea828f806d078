//! `flow_toolkit._native`: the Rust side of the Python package `flow_toolkit`.
//! Every rule lives in `flow-core`; this crate converts between the core's
//! values and their Python form, and drives the core's server from Python.
//!
//! - [`codec`]: `Codec` and `TypeCodec`, typed decode and canonical encode.
//! - [`pyplan`]: the Python form of each type, and the generated classes.
//! - [`to_py`], [`from_py`]: values to and from their Python form;
//!   [`write_py`]: canonical text straight from the Python form, with
//!   [`numbers`] (ints and Decimals read without their `str`) and [`pystr`]
//!   (the result as a `str` in one allocation).
//! - [`order`]: Flow's equality and order over Python values (FlowSet, FlowMap).
//! - [`time`], [`token`]: `Instant`, `Duration`, `HostToken`.
//! - [`server`]: the Tool process runtime.
//! - [`errors`]: refusals raised as `DecodeError` / `EncodeError`.

use pyo3::prelude::*;

pub mod codec;
pub mod errors;
pub mod from_py;
pub mod numbers;
pub mod order;
pub mod pyobjects;
pub mod pyplan;
pub mod pystr;
pub mod server;
pub mod time;
pub mod to_py;
pub mod token;
pub mod write_py;

use flow_core::fingerprint::{fingerprint, signature};
use flow_core::schema::SchemaForm;
use flow_core::{json, Limits};

use crate::codec::{read_listing, text_bytes};
use crate::errors::decode_error;

/// The allocator of the module's own (Rust) memory; Python's objects keep
/// Python's. Decoding makes and frees many small blocks, which mimalloc
/// serves several times faster than glibc (docs/codec-performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

extern "C" {
    /// mimalloc's own setter (linked in by the allocator above).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_arena_eager_commit` in mimalloc.h's `mi_option_t` (the v2
/// sources of libmimalloc-sys 0.1.49, pinned by Cargo.lock).
const MI_OPTION_ARENA_EAGER_COMMIT: std::ffi::c_int = 4;

/// Commits arena memory as it is used rather than all at once, so that a
/// decode's peak memory stays within the hostile-input bounds (an eagerly
/// committed arena held a 1 MiB decode's peak at 10 MiB instead of under 7).
fn commit_memory_on_use() {
    // SAFETY: a plain option store, valid at any time; it applies to arenas
    // mimalloc reserves from now on.
    unsafe { mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) }
}

/// The canonical text of any JSON text (str or bytes), read under the JSON
/// rules and default limits.
#[pyfunction]
fn canonical(py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<String> {
    json::canonicalize(text_bytes(data)?, &Limits::default()).map_err(|e| decode_error(py, &e))
}

/// Each Tool's identity and fingerprint, in listing order.
#[pyfunction]
fn fingerprints(py: Python<'_>, listing: &Bound<'_, PyAny>) -> PyResult<Vec<(String, String)>> {
    let listing = read_listing(py, listing)?;
    listing
        .tools
        .iter()
        .map(|t| Ok((t.tool.clone(), fingerprint(t, &listing.declarations).map_err(|e| decode_error(py, &e))?)))
        .collect()
}

/// A Tool's signature as canonical text: the describe form, or with
/// `stripped` the canonical signature that is hashed.
#[pyfunction]
#[pyo3(signature = (listing, tool, *, stripped = false))]
fn tool_signature(py: Python<'_>, listing: &Bound<'_, PyAny>, tool: &str, stripped: bool) -> PyResult<String> {
    let listing = read_listing(py, listing)?;
    let decl = listing
        .tool(tool)
        .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(format!("no Tool {tool} in the listing")))?;
    let form = if stripped { SchemaForm::Canonical } else { SchemaForm::Describe };
    signature(decl, &listing.declarations, form).map(|j| j.to_canonical()).map_err(|e| decode_error(py, &e))
}

/// One Tool's fingerprint: `sha256:` and the hex hash of its canonical signature.
#[pyfunction]
fn tool_fingerprint(py: Python<'_>, listing: &Bound<'_, PyAny>, tool: &str) -> PyResult<String> {
    let listing = read_listing(py, listing)?;
    let decl = listing
        .tool(tool)
        .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(format!("no Tool {tool} in the listing")))?;
    fingerprint(decl, &listing.declarations).map_err(|e| decode_error(py, &e))
}

/// Validates a tools listing (raises DecodeError naming the path and rule).
#[pyfunction]
fn check_listing(py: Python<'_>, listing: &Bound<'_, PyAny>) -> PyResult<()> {
    read_listing(py, listing).map(|_| ())
}

/// Runs the `flow-gen` command line with `args` (the first is the program
/// name) and returns its exit status.
#[pyfunction]
fn flow_gen_main(py: Python<'_>, args: Vec<String>) -> i32 {
    py.detach(|| flow_gen::cli::run(args))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    commit_memory_on_use();
    m.add("DATA_VERSION", flow_core::types::DATA_VERSION)?;
    // How this module was built, for the benchmarks, which refuse a debug
    // build (benches/python/timing.py), and for bug reports.
    m.add("BUILD_PROFILE", if cfg!(debug_assertions) { "debug" } else { "release" })?;
    m.add("STABLE_ABI", cfg!(feature = "abi3"))?;
    m.add_function(wrap_pyfunction!(canonical, m)?)?;
    m.add_function(wrap_pyfunction!(fingerprints, m)?)?;
    m.add_function(wrap_pyfunction!(tool_signature, m)?)?;
    m.add_function(wrap_pyfunction!(check_listing, m)?)?;
    m.add_function(wrap_pyfunction!(tool_fingerprint, m)?)?;
    m.add_function(wrap_pyfunction!(flow_gen_main, m)?)?;
    m.add_function(wrap_pyfunction!(order::flow_sorted_set, m)?)?;
    m.add_function(wrap_pyfunction!(order::flow_sorted_map, m)?)?;
    m.add_function(wrap_pyfunction!(order::flow_compare, m)?)?;
    m.add_function(wrap_pyfunction!(order::flow_hash, m)?)?;
    m.add_function(wrap_pyfunction!(order::flow_index, m)?)?;
    m.add_class::<time::Instant>()?;
    m.add_class::<time::Duration>()?;
    m.add_class::<token::HostToken>()?;
    m.add_class::<codec::Codec>()?;
    m.add_class::<codec::TypeCodec>()?;
    server::register(m)?;
    Ok(())
}
