//! The Tool process protocol end to end: calls per second and p50/p99 latency
//! of an echo Tool (`flow-bench-echo`, the stdio server) called through the
//! host client, with 1 and with 64 calls outstanding. Each outstanding slot is
//! a thread calling in a closed loop, so a latency is one call's own time from
//! encoding its args to admitting its reply.
//!
//! Run: `cargo bench -p flow-benches --bench protocol`

use std::sync::Arc;
use std::time::Duration;

use flow_benches::report::{record, scaled};
use flow_benches::timing::{closed_loop, percentile};
use flow_core::json::Json;
use flow_core::manifest::Runner;
use flow_core::types::parse::listing_from_text;
use flow_core::Limits;
use flow_host::{Binding, Host, HostOptions, Resolver};
use flow_protocol::{CallKey, CallOutcome};

const LISTING: &str = r#"{"data":"0.1","tools":[{"tool":"bench.flow.echo","doc":null,"generic":[],"params":[{"name":"text","type":"Text"}],"ok":"Text","err":"Never"}],"declarations":{}}"#;
const TOOL: &str = "bench.flow.echo";

fn bind() -> Host {
    let listing = listing_from_text(LISTING.as_bytes(), &Limits::default()).unwrap();
    let command = format!("'{}'", env!("CARGO_BIN_EXE_flow-bench-echo"));
    let mut resolver = Resolver::default();
    let dir = std::env::temp_dir();
    resolver
        .overrides
        .insert(TOOL.to_owned(), Binding { runner: Runner::Command(command), dir, origin: "bench".into() });
    Host::bind(&listing, &resolver, HostOptions::default()).unwrap_or_else(|r| panic!("{r:?}"))
}

/// Runs `per_slot` calls on each of `slots` threads; returns the wall time and
/// every call's latency.
fn run(host: &Arc<Host>, slots: usize, per_slot: usize, tag: &str) -> (Duration, Vec<Duration>) {
    let args = Json::object([("text", Json::str("hello, flow"))]);
    let (host, tag) = (host.clone(), tag.to_owned());
    closed_loop(slots, per_slot, move |slot, i| {
        let outcome = host.call(TOOL, CallKey::new(&tag, format!("{slot}-{i}")), &args).unwrap().wait();
        assert!(matches!(outcome, CallOutcome::Ok(_)), "{outcome:?}");
    })
}

fn main() {
    let host = Arc::new(bind());
    println!("echo Tool over stdio, host client and stdio server in one run (release build)");
    for (slots, per_slot) in [(1usize, scaled(5_000, 1_000)), (64, scaled(300, 60))] {
        run(&host, slots, per_slot / 5, &format!("warmup-{slots}"));
        let (wall, mut latencies) = run(&host, slots, per_slot, &format!("run-{slots}"));
        latencies.sort();
        let calls = latencies.len();
        let rate = calls as f64 / wall.as_secs_f64();
        let p50 = percentile(&latencies, 0.50).as_secs_f64() * 1e6;
        let p99 = percentile(&latencies, 0.99).as_secs_f64() * 1e6;
        println!("outstanding {slots:>2}: {calls:>6} calls  {rate:>8.0} calls/s  p50 {p50:>7.1} us  p99 {p99:>7.1} us");
        let extra = [("outstanding", slots as f64), ("p50_us", p50), ("p99_us", p99)];
        record("rust.protocol", "flow.echo", "Rust stdio server, echo handler", "calls/s", rate, &extra);
    }
}
