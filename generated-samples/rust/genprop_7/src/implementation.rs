//! The implementation of the p7 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::BTreeMap;

use flow_runtime::codec::{BigDecimal, BigInt, Duration, Instant, Json};
use flow_runtime::Call;

use p7_tools::types::{Decimal, End, Foo2, FooBar, Object};
use p7_tools::P7Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P7Tools for Implementation {
    /// `github.com/example/p7@0.1.0/h.flow.u00E9`
    async fn u00_e9(
        &self,
        ctx: &Call,
        v_: Foo2<(), Instant>,
        self_: Object,
        foo_bar: End<BTreeMap<Json, Foo2<BigInt, BigInt>>>,
        string: FooBar<BTreeMap<End<Duration>, bool>, BTreeMap<String, BigDecimal>, ()>,
        null: Decimal<BTreeMap<String, Duration>, Option<Option<FooBar<BigInt, String, BigInt>>>>,
    ) -> Result<Option<Option<BTreeMap<String, FooBar<BigInt, bool, bool>>>>, BigDecimal> {
        todo!("u00_e9")
    }
}
