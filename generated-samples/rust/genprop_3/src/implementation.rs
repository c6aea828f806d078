//! The implementation of the p3 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::{BTreeMap, BTreeSet};

use flow_runtime::codec::{BigDecimal, BigInt, Duration, GenericValue, Instant, Never};
use flow_runtime::Call;

use p3_tools::types::{Foo, Mut, X2fa, X2FA};
use p3_tools::P3Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P3Tools for Implementation {
    /// `github.com/example/p3@0.1.0/h.flow.naïve`
    async fn nau00efve(
        &self,
        ctx: &Call,
        _2fa: BTreeSet<Vec<Instant>>,
        n0: X2fa<BTreeMap<Foo<Instant>, GenericValue>, Foo<BigDecimal>>,
        str_: X2FA<BTreeMap<String, Foo<BigInt>>, X2FA<GenericValue, X2fa<String, BigDecimal>>>,
        x_1: Foo<GenericValue>,
        ufb01le: Mut,
    ) -> Result<BigDecimal, Never> {
        todo!("nau00efve")
    }

    /// `github.com/example/p3@0.1.0/h.flow.tuple`
    async fn tuple(
        &self,
        ctx: &Call,
        implementation: BigInt,
    ) -> Result<
        BTreeMap<BTreeMap<Foo<bool>, BigDecimal>, BTreeSet<BigDecimal>>,
        BTreeMap<String, Foo<Duration>>,
    > {
        todo!("tuple")
    }

    /// `github.com/example/p3@0.1.0/h.flow.tab\there`
    async fn tab_here(
        &self,
        ctx: &Call,
        tick: BTreeMap<String, BTreeMap<String, Duration>>,
    ) -> Result<Duration, Never> {
        todo!("tab_here")
    }
}
