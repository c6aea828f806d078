//! Simple handlers for the example weather listing, shared by the test Tool
//! and the fault-injecting fake (each includes this file). Results are built
//! as JSON and decoded by the server core at the declared types.
//!
//! Cities that do something else:
//! - `Nowhere`: Failed UnknownCity.
//! - `wait-for-cancel`: blocks until the call is cancelled, then Failed RateLimited.
//! - `panic`: the handler panics (answered Unknown).
//! - `wrong-type`: returns a value of another type (answered Unknown).

use flow_core::json::{parse_str, write_string, Json};
use flow_core::types::Listing;
use flow_core::value::Value;
use flow_core::Limits;
use flow_protocol::{HandlerResult, StartedCall};

pub const LISTING: &[u8] = include_bytes!("../../tests/examples/weather.tools.json");

pub fn listing() -> Listing {
    flow_core::types::parse::listing_from_text(LISTING, &Limits::default()).expect("the example listing is valid")
}

fn json(text: &str) -> Json {
    parse_str(text, &Limits::default()).expect("handler JSON")
}

fn quoted(text: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, text);
    out
}

/// Runs the handler of `call`'s Tool (by the NAME of its identity).
pub fn handle(call: StartedCall) -> HandlerResult {
    match flow_core::types::identity_name(&call.identity) {
        "get_forecast" => get_forecast(&call),
        "list_stations" => HandlerResult::OkJson(json(
            r#"{"items":[{"id":7,"position":[59.9,10.75],"readings":{"wind":3.5},"raw":{"source":"test"}}]}"#,
        )),
        "station_history" => {
            let since = call.args[1].to_canonical();
            HandlerResult::OkJson(json(&format!("[[{since},1.5]]")))
        }
        // Generic: the value reaches the handler as JSON and goes back as JSON.
        "echo" => match &call.generic {
            Some(generic) => HandlerResult::OkJson(generic.args_json[0].clone()),
            None => HandlerResult::Error("echo is generic".to_owned()),
        },
        other => HandlerResult::Error(format!("no handler for {other}")),
    }
}

fn get_forecast(call: &StartedCall) -> HandlerResult {
    let Value::Text(city) = &call.args[0] else { return HandlerResult::Error("city is Text".to_owned()) };
    match city.as_str() {
        "Nowhere" => HandlerResult::FailedJson(json(&format!(
            r#"{{"UnknownCity":{{"query":{},"suggestions":["Oslo"]}}}}"#,
            quoted(city)
        ))),
        "wait-for-cancel" => {
            call.cancel.wait();
            HandlerResult::FailedJson(Json::str("RateLimited"))
        }
        "panic" => panic!("asked to panic"),
        "wrong-type" => HandlerResult::OkJson(Json::str("not a forecast")),
        _ => {
            let days = match &call.args[1] {
                Value::Int(n) => u8::try_from(n.clone()).unwrap_or(0).min(7),
                _ => 0,
            };
            let day = r#"{"date":"2024-06-01","high_c":21.5,"low_c":12,"sky":{"Cloudy":40}}"#;
            let days = vec![day; usize::from(days)].join(",");
            HandlerResult::OkJson(json(&format!(
                r#"{{"city":{},"days":[{days}],"issued":"2024-06-01T06:00:00Z","tags":["test"]}}"#,
                quoted(city)
            )))
        }
    }
}
