//! The implementation of the p13 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::{BTreeMap, BTreeSet};

use flow_runtime::codec::{BigDecimal, BigInt, Duration, Instant, Json, Never};
use flow_runtime::Call;

use p13_tools::types::{FooBar, X, X1, X12, X13};
use p13_tools::P13Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P13Tools for Implementation {
    /// `github.com/example/p13@0.1.0/h.flow.a
    /// b`
    async fn a_b(
        &self,
        ctx: &Call,
        n1: BTreeMap<String, Vec<BigDecimal>>,
        foo_bar: X1,
        var: X<Option<FooBar>>,
        foo_2: X12<BTreeMap<String, X1>, BTreeMap<String, Instant>, FooBar>,
        x_1: FooBar,
        u00_e9: X13<(), BTreeMap<X13<Json, BigDecimal, bool>, Vec<u8>>, BigInt>,
    ) -> Result<Vec<BTreeMap<String, X<Instant>>>, Never> {
        todo!("a_b")
    }

    /// `github.com/example/p13@0.1.0/h.flow.a"b`
    async fn a_b_2(
        &self,
        ctx: &Call,
        _2fa: Duration,
    ) -> Result<bool, (X<BigInt>, Vec<u8>, X12<Json, Instant, Vec<u8>>)> {
        todo!("a_b_2")
    }

    /// `github.com/example/p13@0.1.0/h.flow.U00E9`
    async fn u00_e9(
        &self,
        ctx: &Call,
        n0: String,
        foo_: bool,
        x_1: BTreeSet<BigInt>,
    ) -> Result<BTreeMap<String, BTreeMap<String, BigInt>>, Never> {
        todo!("u00_e9")
    }
}
