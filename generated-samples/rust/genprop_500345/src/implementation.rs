//! The implementation of the p500345 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::BTreeMap;

use flow_runtime::codec::{GenericValue, Never};
use flow_runtime::Call;

use p500345_tools::types::{Crate, Ref};
use p500345_tools::P500345Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P500345Tools for Implementation {
    /// `github.com/example/p500345@0.1.0/h.flow.file`
    async fn file(
        &self,
        ctx: &Call,
        slots: GenericValue,
        crate_: Ref<Never, BTreeMap<Vec<u8>, Vec<u8>>, Crate>,
        future: Crate,
    ) -> Result<(), Never> {
        todo!("file")
    }
}
