//! The implementation of the p9 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::BTreeMap;

use flow_runtime::codec::{BigDecimal, BigInt, Duration, Instant, Json};
use flow_runtime::Call;

use p9_tools::types::{Exception, Foo, N2, U00E9, X1, X12, X13, X14};
use p9_tools::P9Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P9Tools for Implementation {
    /// `github.com/example/p9@0.1.0/h.flow.a,b`
    async fn a_b(
        &self,
        ctx: &Call,
        u00e9: Foo,
        u00e9_2: X1<Vec<u8>, BTreeMap<U00E9<BigInt, BigDecimal, Duration>, N2<Vec<u8>>>, (X14, BigDecimal)>,
        n2: U00E9<Vec<U00E9<Vec<u8>, BigDecimal, String>>, (), N2<Instant>>,
        x1: X13,
        foo_bar: X1<BTreeMap<BigDecimal, BigDecimal>, Json, Vec<u8>>,
        exception: N2<BigDecimal>,
        a_b: Foo,
        x_1: Exception,
        symbol: X14,
        foo_: X12<bool>,
    ) -> Result<Vec<u8>, String> {
        todo!("a_b")
    }
}
