//! A nongeneric call's args decoded straight into their Rust types: the
//! server core ([`ServerCore::handlers_decode_args`]) hands the args object
//! over as read, and each parameter is decoded from its JSON
//! ([`FromJson`]), with no [`Value`](flow_core::Value) between. The order of
//! refusals is the core's own decoding of args: parameters in order (missing,
//! else not decoding), then a member that is no parameter; each with its path
//! from the message root, and NotRun before the method runs.
//!
//! A call that arrives with decoded values instead (MCP's, whose front
//! decodes its arguments under its own rules) converts them as [`Args`] does.
//!
//! [`ServerCore::handlers_decode_args`]: flow_protocol::ServerCore::handlers_decode_args

use crate::codec::{FromJson, FromValue};
use flow_core::error::Result;
use flow_core::json::Object;
use flow_protocol::args as call_args;
use flow_protocol::{HandlerResult, StartedCall};

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

#[cfg(test)]
mod tests {
    //! Args decoded by the handler, against the weather listing's server core.

    use super::*;
    use crate::codec::{BigInt, Json, Never};
    use flow_core::types::parse::listing_from_text;
    use flow_core::Limits;
    use flow_protocol::{Event, ServerCore};

    const WEATHER: &[u8] = include_bytes!("../../../tests/examples/weather.tools.json");
    const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";

    /// A forecast call started by a core that leaves its args to the handler,
    /// or (`own_args` false) decodes them itself, as MCP's front does too.
    fn start(args: &str, own_args: bool) -> StartedCall {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let core = ServerCore::from_listing(&listing).unwrap();
        let mut core = if own_args { core.handlers_decode_args() } else { core };
        let line = format!(
            r#"{{"jsonrpc":"2.0","method":"call","params":{{"run":"r","call":"c","tool":"{FORECAST}","args":{args}}}}}"#
        );
        match core.receive(line.as_bytes()).pop() {
            Some(Event::Start(call)) => *call,
            other => panic!("not started: {other:?}"),
        }
    }

    /// Runs the forecast handler's shape: the three args, then the method.
    fn run(call: StartedCall, ran: &mut bool) -> HandlerResult {
        handle_typed(call, |ctx, args| {
            let city: String = args.next("city")?;
            let days: BigInt = args.next("days")?;
            let units: Option<Json> = args.next("units")?;
            *ran = true;
            assert_eq!((city.as_str(), days, units), ("Oslo", BigInt::from(2), None));
            Ok(ctx.reply::<BigInt, Never>(Ok(BigInt::from(1))))
        })
    }

    #[test]
    fn the_core_leaves_the_args_undecoded_and_the_handler_decodes_them() {
        let call = start(r#"{"city":"Oslo","days":2,"units":"None"}"#, true);
        assert!(call.args.is_empty() && call.undecoded.is_some());
        let mut ran = false;
        assert!(matches!(run(call, &mut ran), HandlerResult::Ok(_)));
        assert!(ran);
    }

    #[test]
    fn values_decoded_elsewhere_convert_as_before() {
        let call = start(r#"{"city":"Oslo","days":2,"units":"None"}"#, false);
        assert!(call.undecoded.is_none() && call.args.len() == 3);
        let mut ran = false;
        assert!(matches!(run(call, &mut ran), HandlerResult::Ok(_)));
        assert!(ran);
    }

    #[test]
    fn args_that_do_not_decode_are_not_run_with_the_cores_refusal() {
        for (args, why) in [
            (r#"{"city":1,"days":2,"units":"None"}"#, "$.params.args.city: expected a string, found a number [type]"),
            (
                r#"{"city":"Oslo","days":2.5,"units":"None"}"#,
                "$.params.args.days: expected an Int, found 2.5 [not-whole]",
            ),
            (r#"{"city":"Oslo","units":"None"}"#, "$.params.args.days: missing argument [missing-field]"),
            (
                r#"{"city":"Oslo","days":2,"units":"Metric"}"#,
                r#"$.params.args.units: expected "None" or {"Some": v}, found "Metric" [constructor]"#,
            ),
            // Every parameter decodes, and the extra member is still refused
            // before the method runs; a parameter that does not decode comes first.
            (
                r#"{"city":"Oslo","days":2,"units":"None","x":0}"#,
                "$.params.args.x: not a parameter of the Tool [shape]",
            ),
            (
                r#"{"city":"Oslo","days":"2","units":"None","x":0}"#,
                "$.params.args.days: expected an Int (a number), found a string [type]",
            ),
        ] {
            let mut ran = false;
            let result = run(start(args, true), &mut ran);
            let HandlerResult::NotRun(reason) = result else { panic!("{args}: {result:?}") };
            assert_eq!(reason, why, "{args}");
            assert!(!ran, "{args}: the method ran");
        }
    }
}
