//! The implementation of the keywords Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::BTreeMap;

use flow_runtime::codec::{BigInt, ContextDict, ContextSet, GenericValue, Never};

use keywords_tools::types::{
    Bag, Box, Call, Empty, Json, Node, Option, Phantom, Result, Self_, Session, String, Switch,
    Twin, Twin2,
};
use keywords_tools::KeywordsTools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl KeywordsTools for Implementation {
    /// `github.com/example/keywords@0.1.0/kw.flow.type`
    async fn r#type(
        &self,
        ctx: &flow_runtime::Call,
        self_: Self_,
        r#match: Option,
        ctx_: bool,
        r#box: Box<std::option::Option<BigInt>>,
        node: Node,
        phantom: Phantom<std::string::String>,
        bag: Bag<std::string::String>,
        session: Session,
    ) -> std::result::Result<Result, String> {
        todo!("type")
    }

    /// `github.com/example/keywords@0.1.0/kw.flow.get-sum`
    async fn get_sum(
        &self,
        ctx: &flow_runtime::Call,
        call: Call,
        args: Vec<BigInt>,
    ) -> std::result::Result<
        keywords_tools::types::KeywordsTools,
        keywords_tools::types::Implementation,
    > {
        todo!("get_sum")
    }

    /// `github.com/example/keywords@0.1.0/kw.flow.get_sum`
    async fn get_sum_2(
        &self,
        ctx: &flow_runtime::Call,
        tools: Empty,
    ) -> std::result::Result<Json, Never> {
        todo!("get_sum_2")
    }

    /// `github.com/example/keywords@0.1.0/kw.flow.ping`
    async fn ping(&self, ctx: &flow_runtime::Call) -> std::result::Result<(), Never> {
        todo!("ping")
    }

    /// `github.com/example/keywords@0.1.0/kw.flow.pick`
    async fn pick(
        &self,
        ctx: &flow_runtime::Call,
        items: ContextSet<GenericValue>,
        by: ContextDict<GenericValue, GenericValue>,
        named: BTreeMap<std::string::String, GenericValue>,
        bag: GenericValue,
        boxed: Box<GenericValue>,
        plain: Bag<BigInt>,
    ) -> std::result::Result<Vec<std::option::Option<GenericValue>>, Never> {
        todo!("pick")
    }

    /// `github.com/example/keywords@0.1.0/kw.flow.await`
    async fn r#await(
        &self,
        ctx: &flow_runtime::Call,
        r#if: BigInt,
        r#return: std::string::String,
        r#yield: std::option::Option<bool>,
        r#try: Twin,
        r#in: Twin2,
        r#for: Switch,
        r#await: BigInt,
    ) -> std::result::Result<Twin2, Switch> {
        todo!("await")
    }

    /// `github.com/example/keywords@0.1.0/kw.flow.Ping`
    async fn ping_2(&self, ctx: &flow_runtime::Call) -> std::result::Result<(), Never> {
        todo!("ping_2")
    }
}
