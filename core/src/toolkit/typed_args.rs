//! A nongeneric call's args decoded straight into their Rust types: the
//! server core ([`ServerCore::handlers_decode_args`]) hands the args object
//! over as read, and each parameter is decoded from its JSON
//! ([`FromJson`]), with no [`Value`](crate::Value) between. The order of
//! refusals is the core's own decoding of args: parameters in order (missing,
//! else not decoding), then a member that is no parameter; each with its path
//! from the message root, and NotRun before the method runs.
//!
//! A call that arrives with decoded values instead (MCP's, whose front
//! decodes its arguments under its own rules) converts them as [`Args`] does.
//!
//! [`ServerCore::handlers_decode_args`]: crate::protocol::ServerCore::handlers_decode_args

use crate::codec::{FromJson, FromValue};
use crate::error::Result;
use crate::json::Object;
use crate::protocol::args as call_args;
use crate::protocol::{HandlerResult, StartedCall};

use super::call::Call;
use super::serve::Args;

enum Source {
    /// The args object as read, members taken out as parameters are.
    Json(Object),
    /// Values the core or a front decoded.
    Values(Args),
}

/// A started call's args, decoded in parameter order.
pub struct TypedArgs {
    source: Source,
    /// How many parameters the Tool has, and how many were taken: the last
    /// one taken, what is left of the object is refused, so the method
    /// (whose args are evaluated first) never runs on a call with extra ones.
    params: usize,
    taken: usize,
}

impl TypedArgs {
    /// The next parameter, `name`, as its Rust type. Called once per
    /// parameter, in declaration order.
    pub fn next<T: FromJson + FromValue>(&mut self, name: &str) -> Result<T> {
        match &mut self.source {
            Source::Json(args) => {
                let json = call_args::take(args, name)?;
                let value = T::from_json(json).map_err(|e| call_args::under(e, name))?;
                self.taken += 1;
                if self.taken == self.params {
                    call_args::no_others(args)?;
                }
                Ok(value)
            }
            Source::Values(values) => values.next(name),
        }
    }
}

/// Runs a generated handler of a nongeneric Tool for a started call, as
/// [`super::handle`] does, its args decoded by `run` from the call's JSON
/// when the core left them undecoded. Args that do not decode are NotRun
/// with the refusal the core's decoding gives: the method never ran.
pub fn handle_typed(
    call: StartedCall,
    run: impl FnOnce(&Call, &mut TypedArgs) -> Result<HandlerResult>,
) -> HandlerResult {
    let StartedCall { key, args, undecoded, generic, cancel, types, .. } = call;
    let params = types.params.len();
    let from_json = undecoded.is_some();
    let source = match undecoded {
        Some(object) => {
            if params == 0 {
                if let Err(e) = call_args::no_others(&object) {
                    return HandlerResult::NotRun(e.to_string());
                }
            }
            Source::Json(object)
        }
        None => Source::Values(Args::of(args)),
    };
    let context = Call::new(key, cancel, types, generic);
    let mut args = TypedArgs { source, params, taken: 0 };
    match run(&context, &mut args) {
        Ok(result) => result,
        Err(e) if from_json => HandlerResult::NotRun(e.to_string()),
        Err(e) => HandlerResult::NotRun(format!("the generated Rust types refused the decoded args: {e}")),
    }
}
