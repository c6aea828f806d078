//! The runtime of generated Rust Tools (`flow-gen --lang rust`): the call
//! context and the glue between a started call and a typed Tool method.
//!
//! A generated package holds a trait with one async method per Tool, the
//! types of its declarations with their codecs ([`crate::codec`]), and
//! metadata embedded at generation time. Its `serve` builds a
//! [`typed_server`] for that metadata and registers one handler per Tool;
//! each handler ([`handle_typed`], or for a generic Tool [`handle`]) decodes
//! the call's args from their JSON into the method's Rust types (a generic
//! call's, the server core decoded at its concrete types), runs the method
//! with [`block_on`] on the thread that runs the call, and turns its `Result`
//! into the reply ([`Call::reply_direct`]: for a nongeneric call the typed
//! value's own canonical text, else [`Call::reply`]). Everything else, the
//! decoding rules, `describe`, re-sent calls, cancellation, panics (Unknown)
//! and checking results before they are written, is the protocol's
//! ([`flow_protocol`]), shared with every other toolkit.
//!
//! - [`call`](Call): what a method sees of its call: cancellation, and for a
//!   generic Tool the types view, success schema and [`Codec`]s.
//! - [`Codec`]: one concrete type's decoding, encoding, equality and order.
//! - [`block_on`]: the executor.
//! - [`typed_server`], [`handle_typed`], [`TypedArgs`], [`serve_process`]:
//!   what generated `serve` code calls (the last reads `--mcp` off the
//!   command line); [`server`], [`handle`] and [`Args`] take the args as the
//!   values the core decoded.

mod call;
mod codec;
mod executor;
mod serve;
mod typed_args;

pub use call::{Call, Cancelled};
pub use codec::Codec;
pub use executor::block_on;
pub use serve::{handle, serve_process, server, typed_server, Args};
pub use typed_args::{handle_typed, TypedArgs};

#[cfg(test)]
mod tests {
    //! The call context and handler glue against the weather listing's server core.

    use std::cmp::Ordering;
    use std::collections::BTreeSet;

    use super::*;
    use crate::codec::{BigInt, ContextSet, GenericValue, Never};
    use flow_core::json::{parse_str, Json};
    use flow_core::types::parse::listing_from_text;
    use flow_core::Limits;
    use flow_protocol::{Event, HandlerResult, ServerCore, StartedCall};

    const WEATHER: &[u8] = include_bytes!("../../../tests/examples/weather.tools.json");
    const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
    const ECHO: &str = "github.com/acme/weather@1.2.0/weather.flow.echo";

    fn start(line: &str) -> StartedCall {
        let listing = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let mut core = ServerCore::from_listing(&listing).unwrap();
        match core.receive(line.as_bytes()).pop() {
            Some(Event::Start(call)) => *call,
            other => panic!("not started: {other:?}"),
        }
    }

    fn forecast() -> StartedCall {
        let args = r#"{"city":"Oslo","days":2,"units":"None"}"#;
        start(&format!(
            r#"{{"jsonrpc":"2.0","method":"call","params":{{"run":"r","call":"c","tool":"{FORECAST}","args":{args}}}}}"#
        ))
    }

    /// echo<T> at `T = Set<Int>`.
    fn echo_set(value: &str) -> StartedCall {
        let set = r#"{"Set":"Int"}"#;
        let types = format!(
            r#"{{"bindings":[{{"name":"T","type":{set}}}],"params":[{{"name":"value","type":{set}}}],"ok":{set},"err":"Never","declarations":{{}}}}"#
        );
        let schema = r#"{"type":"array","items":{"type":"integer"},"uniqueItems":true}"#;
        start(&format!(
            r#"{{"jsonrpc":"2.0","method":"call","params":{{"run":"r","call":"g","tool":"{ECHO}","args":{{"value":{value}}},"schema":{schema},"types":{types}}}}}"#
        ))
    }

    fn json(text: &str) -> GenericValue {
        GenericValue::from_json(parse_str(text, &Limits::default()).unwrap())
    }

    #[test]
    fn args_that_do_not_convert_are_not_run() {
        let result = handle(forecast(), |ctx, args| {
            let city: BigInt = args.next("city")?;
            Ok(ctx.reply::<BigInt, Never>(Ok(city)))
        });
        let HandlerResult::NotRun(why) = result else { panic!("{result:?}") };
        assert!(why.contains("$.params.args.city: expected an Int, found a Text [type]"), "{why}");
    }

    #[test]
    fn a_method_sees_its_args_and_its_result_becomes_the_reply() {
        let result = handle(forecast(), |ctx, args| {
            assert_eq!((ctx.run_id(), ctx.call_id(), ctx.is_generic()), ("r", "c", false));
            let city: String = args.next("city")?;
            let days: BigInt = args.next("days")?;
            let units: flow_core::Value = args.next("units")?;
            assert_eq!((city.as_str(), days, units), ("Oslo", BigInt::from(2), flow_core::Value::none()));
            Ok(ctx.reply::<Never, _>(Err(crate::codec::constructor(
                2,
                "RateLimited",
                flow_core::value::EnumPayload::None,
            ))))
        });
        let HandlerResult::Failed(value) = result else { panic!("{result:?}") };
        assert_eq!(value.to_canonical(), "\"RateLimited\"");
    }

    #[test]
    fn cancellation_wakes_the_method() {
        let call = forecast();
        let token = call.cancel.clone();
        let result = handle(call, |ctx, _| {
            let canceller = {
                let token = token.clone();
                std::thread::spawn(move || token.cancel())
            };
            let finished = block_on(ctx.until_cancelled(std::future::pending::<()>()));
            block_on(ctx.cancelled());
            canceller.join().unwrap();
            assert!(finished.is_none() && ctx.is_cancelled());
            assert_eq!(block_on(ctx.until_cancelled(async { 5 })), Some(5), "ready work still completes");
            Ok(HandlerResult::Error("stopped".into()))
        });
        assert!(matches!(result, HandlerResult::Error(_)));
    }

    #[test]
    fn a_generic_call_has_its_view_schema_and_codecs() {
        let result = handle(echo_set("[3, 1.0e0, 2]"), |ctx, args| {
            let value: GenericValue = args.next("value")?;
            assert_eq!(value.as_json().to_canonical(), "[1,2,3]");
            assert_eq!(
                ctx.success_schema().unwrap().to_canonical(),
                r#"{"items":{"type":"integer"},"type":"array","uniqueItems":true}"#
            );
            assert_eq!(ctx.types().unwrap().bindings[0].0, "T");
            let t = ctx.codec("T").unwrap();
            // The type's order and equality, not JSON's: [1,2,3] < [1,3] as a Set<Int>.
            assert_eq!(t.compare(&json("[1,2,3]"), &json("[1,3]")).unwrap(), Ordering::Less);
            assert!(t.equal(&json("[2, 1]"), &json("[1, 2.0]")).unwrap());
            let typed: BTreeSet<BigInt> = t.decode(&value).unwrap();
            assert_eq!(typed.len(), 3);
            assert_eq!(t.encode(typed).unwrap().as_json().to_canonical(), "[1,2,3]");
            assert!(ctx.codec("U").is_err());
            // The author answers with JSON in any order: the reply is in the type's order.
            Ok(ctx.reply::<_, Never>(Ok(json("[9, 7, 8]"))))
        });
        let HandlerResult::Ok(value) = result else { panic!("{result:?}") };
        assert_eq!(value.to_canonical(), "[7,8,9]");
    }

    #[test]
    fn a_generic_result_not_of_the_concrete_type_is_unknown() {
        let result = handle(echo_set("[]"), |ctx, _| Ok(ctx.reply::<_, Never>(Ok(json("[1, 1]")))));
        let HandlerResult::Error(why) = result else { panic!("{result:?}") };
        assert!(why.contains("the method's result is not of the declared type"), "{why}");
        let result =
            handle(echo_set("[]"), |ctx, _| Ok(ctx.reply::<_, Never>(Ok(ContextSet::new(vec![json("\"x\"")])))));
        assert!(matches!(result, HandlerResult::Error(_)), "{result:?}");
    }

    #[test]
    fn the_server_refuses_metadata_that_is_not_the_listing_s() {
        let listing = std::str::from_utf8(WEATHER).unwrap();
        let entries = listing_from_text(WEATHER, &Limits::default()).unwrap();
        let describe = flow_core::fingerprint::describe_entry(&entries.tools[3], &entries.declarations).unwrap();
        let good = Json::object([("data", Json::str("0.1")), ("tools", Json::Array(vec![describe]))]).to_canonical();
        assert!(server(listing, &good).is_ok());
        let bad = good.replace("sha256:f", "sha256:0");
        let e = server(listing, &bad).err().unwrap();
        assert!(e.to_string().contains("regenerate the package"), "{e}");
    }
}
