//! The implementation of the p2 Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::{BTreeMap, BTreeSet};

use flow_runtime::codec::{BigDecimal, BigInt, Duration, Instant};
use flow_runtime::Call;

use p2_tools::types::{FooBar, PartialEq, U03A9mega, FOOBAR, N1};
use p2_tools::P2Tools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl P2Tools for Implementation {
    /// `github.com/example/p2@0.1.0/h.flow.foo`
    async fn foo_(
        &self,
        ctx: &Call,
        u03c9mega: BigDecimal,
        foo_: PartialEq,
        foo_bar: FOOBAR<BTreeMap<Instant, FooBar<Vec<u8>>>, FOOBAR<FOOBAR<bool, Duration>, U03A9mega>>,
        tuple: U03A9mega,
        foo_bar_2: FooBar<BTreeSet<BigInt>>,
        n1: N1,
    ) -> Result<BTreeMap<String, (bool, U03A9mega)>, String> {
        todo!("foo_")
    }

    /// `github.com/example/p2@0.1.0/h.flow.tools`
    async fn tools(&self, ctx: &Call) -> Result<BigInt, BTreeMap<String, N1>> {
        todo!("tools")
    }

    /// `github.com/example/p2@0.1.0/h.flow.{{x}}`
    async fn x(
        &self,
        ctx: &Call,
    ) -> Result<Option<(Duration, Duration, FOOBAR<Duration, bool>)>, Option<String>> {
        todo!("x")
    }
}
