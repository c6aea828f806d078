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

/// Called once by `lib/index.js` with the classes native code builds and
/// recognizes (`Decimal`, `Instant`, ...). Not for use by applications.
#[napi(ts_args_type = "classes: Record<string, unknown>")]
pub fn register(env: Env, classes: In) -> Result<()> {
    classes::register(Js::new(env.raw()), classes.0)
}
