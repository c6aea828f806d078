//! The implementation of the p0 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use flow_runtime::codec::{BigInt, GenericValue, Never};
use flow_runtime::Call;

use p0_tools::types::{Big, Pair};
use p0_tools::P0Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P0Tools for Implementation {
    /// `github.com/example/p0@0.1.0/h.flow.tool`
    async fn tool(
        &self,
        ctx: &Call,
        big: Big<BigInt>,
        pair: Pair<String, GenericValue>,
    ) -> Result<Pair<BigInt, Big<bool>>, Never> {
        todo!("tool")
    }
}
