//! The implementation of the codec Tools. flow-gen wrote this file
//! once, with a stub per Tool; it is yours to edit and is never rewritten.
//!
//! A method may `.await` any future; one that needs a runtime's reactor (a
//! tokio socket, say) runs on that runtime: spawn it there and await its
//! join handle here. `ctx.cancelled()` completes when the host cancels the call.

use std::collections::{BTreeMap, BTreeSet};

use flow_runtime::codec::BigInt;
use flow_runtime::Call;

use codec_tools::types::{Blob, Box, Opts, Person, Shape, Token, Void};
use codec_tools::CodecTools;

/// The Tools' bodies.
pub struct Implementation;

// A stub's parameters stay unused until its body is written. The Tools'
// docs are on the trait.
#[allow(unused_variables)]
impl CodecTools for Implementation {
    /// `github.com/example/codec@1.0.0/codec.flow.codec`
    async fn codec(
        &self,
        ctx: &Call,
        shapes: BTreeSet<Shape>,
        r#box: Box<Option<BigInt>>,
        people: BTreeMap<Person, String>,
        token: Token,
        blob: Blob,
    ) -> Result<Opts, Void> {
        todo!("codec")
    }
}
