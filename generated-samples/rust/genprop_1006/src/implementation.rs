//! The implementation of the p1006 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::{BTreeMap, BTreeSet};

use flow_runtime::codec::{BigDecimal, BigInt, Duration, Instant, Json, Never};
use flow_runtime::Call;

use p1006_tools::types::{Send, U01C4ungla, N0, N1, X1, X12};
use p1006_tools::P1006Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P1006Tools for Implementation {
    /// `github.com/example/p1006@0.1.0/h.flow.char`
    async fn char_(
        &self,
        ctx: &Call,
        u00_e9: N1<BTreeMap<BigInt, N0<BigInt>>>,
        u00e9: Send,
        n1: X1<U01C4ungla<X12<Vec<u8>, Instant, Vec<u8>>, N1<bool>>, (), X12<U01C4ungla<BigInt, Vec<u8>>, String, Instant>>,
        send: N0<N1<Vec<u8>>>,
        x1: U01C4ungla<X12<Json, Vec<u8>, N1<BigInt>>, Send>,
        u01c6ungla: N1<BTreeMap<Json, bool>>,
        r#trait: X12<BTreeMap<X1<Vec<u8>, bool, Vec<u8>>, X12<BigDecimal, Instant, Instant>>, (String, X12<String, Vec<u8>, bool>, BigInt), BTreeSet<X12<BigDecimal, BigInt, Instant>>>,
    ) -> Result<(), String> {
        todo!("char_")
    }

    /// `github.com/example/p1006@0.1.0/h.flow.u00E9`
    async fn u00_e9(
        &self,
        ctx: &Call,
        foo_2: BigDecimal,
        x1: BTreeSet<X1<Instant, bool, Instant>>,
    ) -> Result<BTreeSet<BTreeMap<String, String>>, Never> {
        todo!("u00_e9")
    }

    /// `github.com/example/p1006@0.1.0/h.flow.é`
    async fn u00e9(
        &self,
        ctx: &Call,
    ) -> Result<
        X1<U01C4ungla<Vec<u8>, Send>, Json, BTreeMap<Instant, U01C4ungla<Duration, Vec<u8>>>>,
        Vec<u8>,
    > {
        todo!("u00e9")
    }
}
