//! Replies written directly from the typed result (`Call::reply_direct`)
//! against the value path (`Call::reply`), through the server core: the
//! reply lines of the weather Tools are byte-identical, for the MCP front's
//! outcome as for the Flow line; and a result holding a carrier of the value
//! model takes the checked way, so one not of the declared type is still
//! answered Unknown, naming the path.

use std::collections::BTreeMap;

use flow_core::types::parse::listing_from_text;
use flow_core::{Limits, Value};
use flow_protocol::{Event, HandlerResult, ServerCore};
use flow_runtime::codec::{BigDecimal, BigInt, Duration, Instant, IntoValue, Json, Never};
use flow_runtime::{block_on, handle, Call};
use rust_weather::Weather;
use weather_tools::{Page, Region, Station, Units, WeatherError, WeatherTools};

const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
const STATIONS: &str = "github.com/acme/weather@1.2.0/weather.flow.list_stations";
const HISTORY: &str = "github.com/acme/weather@1.2.0/weather.flow.station_history";

fn core() -> ServerCore {
    core_under(Limits::default())
}

fn core_under(limits: Limits) -> ServerCore {
    let listing =
        listing_from_text(include_bytes!("../../../tests/examples/weather.tools.json"), &Limits::default()).unwrap();
    ServerCore::from_listing(&listing).unwrap().with_limits(limits)
}

fn call_line(tool: &str, args: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","method":"call","params":{{"args":{args},"call":"c1","run":"r","tool":"{tool}"}}}}"#)
}

/// The reply line of one call whose handler answers with `run`.
fn reply_line(tool: &str, args: &str, run: impl FnOnce(&Call) -> HandlerResult) -> String {
    reply_line_under(Limits::default(), tool, args, run)
}

fn reply_line_under(limits: Limits, tool: &str, args: &str, run: impl FnOnce(&Call) -> HandlerResult) -> String {
    let mut core = core_under(limits);
    let call = match core.receive(call_line(tool, args).as_bytes()).pop() {
        Some(Event::Start(call)) => call,
        other => panic!("{tool} did not start: {other:?}"),
    };
    let key = call.key.clone();
    let result = handle(*call, |ctx, _| Ok(run(ctx)));
    core.finish(&key, result).remove(0)
}

/// The outcome the core settles for the MCP front, as text.
fn settled(tool: &str, args: &str, run: impl FnOnce(&Call) -> HandlerResult) -> String {
    let mut core = core();
    let Some(Event::Start(call)) = core.receive(call_line(tool, args).as_bytes()).pop() else {
        panic!("{tool} did not start")
    };
    let key = call.key.clone();
    let result = handle(*call, |ctx, _| Ok(run(ctx)));
    core.settle(&key, result).unwrap().to_canonical()
}

/// Both ways of one method's result: (direct, value path), each as a reply
/// line and as the settled outcome.
fn both_ways<O, E>(tool: &str, args: &str, method: impl Fn(&Call) -> Result<O, E>) -> [(String, String); 2]
where
    O: flow_runtime::codec::CanonicalText,
    E: flow_runtime::codec::CanonicalText,
{
    let direct = reply_line(tool, args, |ctx| {
        let reply = ctx.reply_direct(method(ctx));
        assert!(matches!(reply, HandlerResult::OkText(_) | HandlerResult::FailedText(_)), "{reply:?}");
        reply
    });
    let value = reply_line(tool, args, |ctx| ctx.reply(method(ctx)));
    let settled_direct = settled(tool, args, |ctx| ctx.reply_direct(method(ctx)));
    let settled_value = settled(tool, args, |ctx| ctx.reply(method(ctx)));
    [(direct, value), (settled_direct, settled_value)]
}

fn assert_same([(line, old_line), (outcome, old_outcome)]: [(String, String); 2]) {
    assert_eq!(line, old_line);
    assert_eq!(outcome, old_outcome);
    assert!(line.contains(&outcome), "{line} holds {outcome}");
}

#[test]
fn forecast_replies_are_the_value_path_s_bytes() {
    let weather = Weather::default();
    for (city, days, units) in [
        ("Oslo", 2, None),
        ("Zürich \"quoted\"\n", 14, Some(Units::Imperial)),
        ("Nowhere", 1, None),
        ("Oslo", 99, None),
    ] {
        let args = r#"{"city":"Oslo","days":2,"units":"None"}"#;
        let both = both_ways(FORECAST, args, |ctx| {
            block_on(weather.get_forecast(ctx, city.to_owned(), BigInt::from(days), units.clone()))
        });
        assert_same(both);
    }
}

#[test]
fn station_and_history_replies_are_the_value_path_s_bytes() {
    let weather = Weather::default();
    let region = || Region { name: "north".to_owned(), children: Vec::new() };
    let args = r#"{"cursor":"None","region":{"children":[],"name":"north"}}"#;
    for cursor in [None, Some("5".to_owned()), Some("x".to_owned())] {
        assert_same(both_ways(STATIONS, args, |ctx| block_on(weather.list_stations(ctx, region(), cursor.clone()))));
    }
    let args = r#"{"counts":[],"since":"2026-01-01T00:00:00Z","station":1,"window":"PT1S"}"#;
    let big: BigInt = "-12345678901234567890123".parse().unwrap();
    for (station, window) in [(BigInt::from(7), "PT90.5S"), (BigInt::from(-3), "PT0.000000001S"), (big, "PT3600S")] {
        let counts = BTreeMap::from([(BigInt::from(1), BigInt::from(4)), (BigInt::from(2), BigInt::from(-9))]);
        let since = Instant::parse("2026-01-01T00:00:00.25Z").unwrap();
        let window = Duration::parse(window).unwrap();
        assert_same(both_ways(HISTORY, args, |ctx| {
            block_on(weather.station_history(ctx, station.clone(), since, window, counts.clone()))
        }));
    }
}

#[test]
fn a_carrier_takes_the_checked_way() {
    let args = r#"{"city":"Oslo","days":2,"units":"None"}"#;
    // A value of another type than the declared Forecast: refused as before.
    let line = reply_line(FORECAST, args, |ctx| ctx.reply_direct::<Value, Never>(Ok(Value::Int(3.into()))));
    let old = reply_line(FORECAST, args, |ctx| ctx.reply::<Value, Never>(Ok(Value::Int(3.into()))));
    assert_eq!(line, old);
    assert!(line.contains(r#""outcome":{"Unknown":"the handler's result is not of the declared type: $: expected a record, found an Int [encode]"}"#), "{line}");
    // A carrier inside a typed value: the whole value is checked, and the
    // path names where inside it the check refused.
    let error = || Err::<Never, _>((Value::Text("not a duration".into()), BigInt::from(1)));
    let line = reply_line(FORECAST, args, |ctx| ctx.reply_direct(error()));
    assert_eq!(line, reply_line(FORECAST, args, |ctx| ctx.reply(error())));
    assert!(line.contains(r#""outcome":{"Unknown":"the handler's error is not of the declared type: "#), "{line}");
    // A carrier holding a value of the declared type is written as before.
    let rate_limited = || Err::<Never, _>(WeatherError::RateLimited.into_value());
    let line = reply_line(FORECAST, args, |ctx| ctx.reply_direct(rate_limited()));
    assert_eq!(line, reply_line(FORECAST, args, |ctx| ctx.reply(rate_limited())));
    assert!(line.contains(r#""outcome":{"Failed":"RateLimited"}"#), "{line}");
}

#[test]
fn direct_replies_are_held_to_the_outgoing_limits_as_before() {
    let page = |raw: Json, note: usize| {
        let station = Station {
            id: BigInt::from(1),
            position: (BigDecimal::from(1), BigDecimal::from(2)),
            readings: BTreeMap::new(),
            raw,
            photo: None,
        };
        Ok::<_, WeatherError>(Page { items: vec![station], next: Some("n".repeat(note)) })
    };
    let args = r#"{"cursor":"None","region":{"children":[],"name":"north"}}"#;
    let deep = (0..140).fold(Json::Null, |inner, _| Json::Array(vec![inner]));
    let small = Limits { max_bytes: 400, ..Limits::default() };
    for (limits, raw, note, rule) in
        [(small, Json::Null, 400, "[too-large]"), (Limits::default(), deep, 1, "[too-deep]")]
    {
        let direct = reply_line_under(limits, STATIONS, args, |ctx| ctx.reply_direct(page(raw.clone(), note)));
        let value = reply_line_under(limits, STATIONS, args, |ctx| ctx.reply(page(raw.clone(), note)));
        assert_eq!(direct, value);
        assert!(direct.contains("the handler's reply could not be sent") && direct.contains(rule), "{direct}");
    }
    // Exactly at the size limit, the direct reply is sent as the value's was.
    let fits = reply_line(STATIONS, args, |ctx| ctx.reply(page(Json::Null, 100)));
    let limits = Limits { max_bytes: fits.len() - 1, ..Limits::default() };
    let direct = reply_line_under(limits, STATIONS, args, |ctx| ctx.reply_direct(page(Json::Null, 100)));
    assert_eq!(direct, fits);
    let over = Limits { max_bytes: fits.len() - 2, ..Limits::default() };
    let direct = reply_line_under(over, STATIONS, args, |ctx| ctx.reply_direct(page(Json::Null, 100)));
    assert!(direct.contains("[too-large]"), "{direct}");
}
