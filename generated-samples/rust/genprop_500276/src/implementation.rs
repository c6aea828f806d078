//! The implementation of the p500276 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::{BTreeMap, BTreeSet};

use flow_runtime::codec::{BigDecimal, BigInt, Duration, Instant, Json};
use flow_runtime::Call;

use p500276_tools::types::{Object, Record, Strau00DFe, Void, X2fa, N4, X1, X2FA};
use p500276_tools::P500276Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P500276Tools for Implementation {
    /// `github.com/example/p500276@0.1.0/h.flow.IntoValue`
    async fn into_value(
        &self,
        ctx: &Call,
        x1: Option<Option<BTreeMap<String, Json>>>,
        n3: (),
        k: BTreeMap<String, Vec<X2FA<Json>>>,
        strau00dfe: Void,
        x1_2: Object<BTreeMap<X2fa<Json, bool, BigDecimal>, N4<Duration, Vec<u8>, BigInt>>>,
        u00f1andu00fa: X2fa<BigInt, BTreeMap<Record<bool>, Duration>, BTreeSet<N4<BigInt, String, Json>>>,
        void: Record<Vec<BigDecimal>>,
        x1_3: Strau00DFe,
        object: N4<Vec<BigDecimal>, Duration, bool>,
        add_note: X1<X2FA<Instant>, Instant, ()>,
        k_2: X2FA<String>,
    ) -> Result<Vec<Option<X2fa<BigInt, BigDecimal, Json>>>, String> {
        todo!("into_value")
    }

    /// `github.com/example/p500276@0.1.0/h.flow.n1`
    async fn n1(
        &self,
        ctx: &Call,
        x1: Void,
        u00e9: Json,
    ) -> Result<(Instant, (Json, X2fa<Json, bool, BigInt>), Vec<String>), X2FA<bool>> {
        todo!("n1")
    }
}
