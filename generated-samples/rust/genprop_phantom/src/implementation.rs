//! The implementation of the phantom Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use flow_runtime::codec::{BigInt, ContextDict, ContextSet, GenericValue, Never};
use flow_runtime::Call;

use phantom_tools::types::{Empty, Half, Holder, Mark, Marked, Tag};
use phantom_tools::PhantomTools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl PhantomTools for Implementation {
    /// `github.com/example/phantom@0.1.0/h.flow.use_tags`
    async fn use_tags(
        &self,
        ctx: &Call,
        h: Holder,
        m: Marked<BigInt, BigInt, BigInt, BigInt>,
        e: Empty<BigInt>,
        half: Half<String, String>,
    ) -> Result<Half<BigInt, Never>, Mark<BigInt, String>> {
        todo!("use_tags")
    }

    /// `github.com/example/phantom@0.1.0/h.flow.generic`
    async fn generic(
        &self,
        ctx: &Call,
        t: Tag<GenericValue>,
        s: ContextSet<Tag<GenericValue>>,
        h: Half<GenericValue, GenericValue>,
        k: ContextDict<Mark<GenericValue, GenericValue>, BigInt>,
    ) -> Result<
        Marked<GenericValue, GenericValue, GenericValue, GenericValue>,
        Empty<GenericValue>,
    > {
        todo!("generic")
    }
}
