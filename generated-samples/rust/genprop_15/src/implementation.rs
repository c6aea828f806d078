//! The implementation of the p15 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::{BTreeMap, BTreeSet};

use flow_runtime::codec::{BigDecimal, BigInt, Duration, GenericValue, Instant, Json, Never};
use flow_runtime::Call;

use p15_tools::types::{End, Foo, Future, Infer, JsonValue, Tick};
use p15_tools::P15Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P15Tools for Implementation {
    /// `github.com/example/p15@0.1.0/h.flow.x1`
    async fn x1(
        &self,
        ctx: &Call,
        end: BTreeSet<(String, Infer<BigDecimal, BigInt, bool>, Tick<Duration, String, String>)>,
        r#box: End,
        a_b: JsonValue<(), String>,
        bytes: Future<BTreeMap<String, Infer<Duration, Vec<u8>, bool>>, GenericValue, BTreeSet<bool>>,
        r#dyn: Foo<Json>,
        n4: Infer<(bool, GenericValue), (Infer<Instant, bool, Vec<u8>>, Foo<Duration>), GenericValue>,
        u00e9: Tick<GenericValue, BTreeMap<String, GenericValue>, Foo<Infer<Json, Duration, Vec<u8>>>>,
    ) -> Result<BTreeMap<String, End>, Never> {
        todo!("x1")
    }

    /// `github.com/example/p15@0.1.0/h.flow.ContextDict`
    async fn context_dict(
        &self,
        ctx: &Call,
    ) -> Result<Option<Foo<Json>>, Tick<Vec<u8>, Foo<Duration>, Vec<u8>>> {
        todo!("context_dict")
    }

    /// `github.com/example/p15@0.1.0/h.flow.flow_core`
    async fn flow_core(
        &self,
        ctx: &Call,
        u65e5u672c: BTreeSet<bool>,
    ) -> Result<
        Foo<BTreeMap<JsonValue<BigInt, Json>, String>>,
        JsonValue<BigDecimal, Foo<Instant>>,
    > {
        todo!("flow_core")
    }
}
