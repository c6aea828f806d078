//! The implementation of the p500155 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::BTreeMap;

use flow_runtime::codec::{GenericValue, Json};
use flow_runtime::Call;

use p500155_tools::types::{Zu00FCrich, FOO};
use p500155_tools::P500155Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P500155Tools for Implementation {
    /// `github.com/example/p500155@0.1.0/h.flow.x1`
    async fn x1(
        &self,
        ctx: &Call,
        slots: BTreeMap<String, Json>,
        u00_e9: Option<Option<Vec<Zu00FCrich>>>,
        f_oo: Zu00FCrich,
        zu00fcrich: FOO,
    ) -> Result<Zu00FCrich, bool> {
        todo!("x1")
    }

    /// `github.com/example/p500155@0.1.0/h.flow.None`
    async fn none(
        &self,
        ctx: &Call,
        zu00fcrich: Option<Option<GenericValue>>,
        debug: Option<Option<GenericValue>>,
        x_1: FOO,
    ) -> Result<(), Vec<Json>> {
        todo!("none")
    }

    /// `github.com/example/p500155@0.1.0/h.flow.Foo_2`
    async fn foo_2(&self, ctx: &Call) -> Result<String, Option<Option<Zu00FCrich>>> {
        todo!("foo_2")
    }
}
