//! `@flow/toolkit`: flow-core for Node.js, through Node-API (napi-rs).
//!
//! - [`text`]: canonical text, exact JSON parsing, Instant and Duration text.
//! - [`tape`]: parsed JSON handed to JavaScript in one piece, built there.
//! - [`types`]: a listing's types: fingerprints, signatures, schemas, codecs.
//! - [`server`]: the Tool server runtime, reusing flow-core's `ServerCore`.
//! - [`generic`]: generic Tools' values of a type parameter, as JSON.
//! - [`gen`]: the flow-gen command, so `npx flow-gen` needs no Rust toolchain.
//! - [`to_js`], [`from_js`]: the value mapping, both ways.
//! - [`classes`]: the JavaScript classes of `lib/` that native code builds.
//! - [`js`]: raw Node-API wrappers for the conversion loops.
//!
//! The public API is `lib/index.js` (typed by `lib/index.d.ts`), which wraps
//! this module; `index.d.ts` beside it is what napi-rs generates from here.

// napi-derive registers exports outside test builds only.
#![cfg_attr(test, allow(dead_code))]

mod classes;
mod from_js;
mod gen;
mod generic;
mod js;
mod server;
mod tape;
mod text;
mod to_js;
mod types;

use napi::{Env, Result};
use napi_derive::napi;

use crate::js::{In, Js};

/// The allocator of the module's own (Rust) memory; JavaScript's values keep
/// V8's. The Tool server's reader thread allocates what the JS thread frees,
/// which glibc serves slowly (docs/runtime-performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

extern "C" {
    /// mimalloc's own setter (linked in by the allocator above).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `mi_option_arena_eager_commit` in mimalloc.h's `mi_option_t` (the v2
/// sources of libmimalloc-sys 0.1.49, pinned by Cargo.lock).
const MI_OPTION_ARENA_EAGER_COMMIT: std::ffi::c_int = 4;
/// `mi_option_purge_delay` there.
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

/// Run when the module is loaded, before its first allocation: arena
/// memory is committed as it is used rather than all at once, so that a
/// hostile input's peak memory stays within its bound (an eagerly committed
/// arena cost a 1 MiB refusal 8 MiB instead of under 7), as in bindings-python.
#[napi_derive::module_init]
fn commit_memory_on_use() {
    // SAFETY: a plain option store, valid at any time; it applies to arenas
    // mimalloc reserves from now on.
    unsafe {
        mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0);
        mi_option_set(MI_OPTION_PURGE_DELAY, 0);
    }
}

/// Called once by `lib/index.js` with the classes native code builds and
/// recognizes (`Decimal`, `Instant`, ...). Not for use by applications.
#[napi(ts_args_type = "classes: Record<string, unknown>")]
pub fn register(env: Env, classes: In) -> Result<()> {
    classes::register(Js::new(env.raw()), classes.0)
}
