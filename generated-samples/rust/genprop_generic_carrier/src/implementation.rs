//! The implementation of the carrier Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::BTreeSet;

use flow_runtime::codec::{BigInt, ContextDict, ContextSet, GenericValue};
use flow_runtime::Call;

use carrier_tools::types::{Holder, Keyed, Outer, Page, Pair};
use carrier_tools::CarrierTools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl CarrierTools for Implementation {
    /// `github.com/example/carrier@0.1.0/h.flow.echo`
    async fn echo(
        &self,
        ctx: &Call,
        x: GenericValue,
        y: Pair<Page<GenericValue>, GenericValue>,
        z: ContextSet<Page<GenericValue>>,
        w: ContextDict<Pair<GenericValue, BigInt>, String>,
        v: Page<GenericValue>,
    ) -> Result<Page<Pair<GenericValue, Holder>>, String> {
        todo!("echo")
    }

    /// `github.com/example/carrier@0.1.0/h.flow.plain`
    async fn plain(
        &self,
        ctx: &Call,
        h: Holder,
        k: Keyed,
        s: BTreeSet<Holder>,
        o: Outer<BigInt>,
    ) -> Result<Outer<Holder>, Pair<Keyed, String>> {
        todo!("plain")
    }
}
