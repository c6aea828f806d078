//! The implementation of the p500418 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::BTreeMap;

use flow_runtime::codec::{BigDecimal, BigInt, Duration, Never};
use flow_runtime::Call;

use p500418_tools::types::{Implements, Infer, New, Public, Tuple, X2fa, K, N1};
use p500418_tools::P500418Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P500418Tools for Implementation {
    /// `github.com/example/p500418@0.1.0/h.flow.loop`
    async fn r#loop(
        &self,
        ctx: &Call,
        _2fa: Tuple<Option<Option<Tuple<bool, bool, BigInt>>>, (), ()>,
        n3: BTreeMap<BTreeMap<Public, New>, Option<Infer>>,
        annotations: New,
        call_context: K,
        u0661u0662: Public,
        r#yield: X2fa<(New, Infer, N1), Option<Option<BigDecimal>>>,
        x1: Infer,
        foo_bar: Implements<K, (K, Duration, Public)>,
        symbol: N1,
        n1: Tuple<BTreeMap<String, Duration>, X2fa<Implements<Vec<u8>, BigInt>, Tuple<bool, BigDecimal, String>>, Vec<u8>>,
    ) -> Result<(), Never> {
        todo!("loop")
    }
}
