//! The Rust host client, pipelined, against the trivial Rust Flow floor
//! (`flow-floor-flow-echo`) and the generated Rust Tool
//! (`flow-bench-rust-weather`), beside the standard-library Python neutral
//! driver (`benches/neutral/driver.py`) against the same floor, in one run:
//!
//! - `handles`: one caller thread keeps 64 calls outstanding through call
//!   handles, waiting on the oldest before sending the next;
//! - `threads`: 64 threads, each calling and waiting in a closed loop (a
//!   thread per outstanding call);
//! - `neutral`: the neutral driver's one line per write, its own reader
//!   thread, 64 outstanding.
//!
//! The `floor.*`, `weather.*` and `neutral` figures are `get_forecast`'s args
//! (`{"city":"Oslo","days":2,"units":"None"}`); the `echo.*` figures are the
//! like-for-like form: the generic `echo` Tool at `T = json.Value` with
//! `{"value":"hello"}`, answered by the generated Rust Tool and by the floor
//! (describing an `echo` of the same shape), so the Tool's own cost is
//! apart from the forecast's size. Each measurement is a fresh process
//! after a warm-up, the rounds interleaved so that a spell of load falls on
//! one run of each. Goals: the host client against the floor at least as
//! fast as the neutral driver against it; the host client with the
//! generated Rust Tool at least 0.8x of the host client with the floor
//! (`get_forecast` against the floor's echo of its args, and `echo` against
//! the floor's `echo`).
//!
//! Run: `cargo bench -p flow-benches --bench host_client` (the neutral
//! driver needs `python3`, or the interpreter `FLOW_BENCH_PYTHON` names);
//! `-- floor.handles` runs only the rows whose id starts with that word, and
//! `FLOW_BENCH_CALLS=N` sets the calls per figure (to profile one row).

use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use flow_benches::report::{quick, record, scaled};
use flow_benches::timing::closed_loop;
use flow_core::fingerprint::describe_entry;
use flow_core::json::{parse_str, Json};
use flow_core::manifest::Runner;
use flow_core::types::parse::listing_from_text;
use flow_core::types::{Listing, Prim, Term};
use flow_core::Limits;
use flow_host::{Binding, CallHandle, Host, HostOptions, Resolver};
use flow_protocol::{CallKey, CallOutcome};

/// What the floor serves, as the host sees it: the forecast's parameters,
/// echoed back as any JSON value.
const FLOOR_LISTING: &str = r#"{"data":"0.1","tools":[{"tool":"bench.flow.forecast_echo","doc":null,"generic":[],"params":[{"name":"city","type":"Text"},{"name":"days","type":"Int"},{"name":"units","type":"Text"}],"ok":"json.Value","err":"Never"}],"declarations":{}}"#;
const FLOOR_TOOL: &str = "bench.flow.forecast_echo";
/// The floor's `echo`, the shape of the weather listing's: generic in `T`,
/// `value: T`; its success is `json.Value` since the floor answers with the
/// whole args object.
const FLOOR_ECHO_LISTING: &str = r#"{"data":"0.1","tools":[{"tool":"bench.flow.echo","doc":null,"generic":["T"],"params":[{"name":"value","type":{"Param":{"owner":"tool","index":0}}}],"ok":"json.Value","err":"Never"}],"declarations":{}}"#;
const FLOOR_ECHO: &str = "bench.flow.echo";
const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
const ECHO: &str = "github.com/acme/weather@1.2.0/weather.flow.echo";
const ARGS: &str = r#"{"city":"Oslo","days":2,"units":"None"}"#;
const ECHO_ARGS: &str = r#"{"value":"hello"}"#;
const OUTSTANDING: usize = 64;

fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

fn bind(listing: &Listing, command: &str) -> Host {
    let mut resolver = Resolver::default();
    for tool in &listing.tools {
        let binding =
            Binding { runner: Runner::Command(command.to_owned()), dir: std::env::temp_dir(), origin: "bench".into() };
        resolver.overrides.insert(tool.tool.clone(), binding);
    }
    Host::bind(listing, &resolver, HostOptions::default()).unwrap_or_else(|r| panic!("{r:?}"))
}

struct Server {
    listing: Listing,
    command: String,
    tool: &'static str,
    args: &'static str,
    /// The type arguments of a generic Tool.
    type_args: Vec<Term>,
}

fn settled(outcome: CallOutcome) {
    assert!(matches!(outcome, CallOutcome::Ok(_)), "{outcome:?}");
}

/// User plus system CPU of this process (every thread), in seconds, from
/// /proc/self/stat as the neutral driver reads its servers'.
fn own_cpu() -> f64 {
    let text = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = text.rsplit_once(") ").map(|(_, rest)| rest.split(' ').collect()).unwrap_or_default();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15, 11 and 12 after the name; 100 ticks a second.
    (ticks(11) + ticks(12)) / 100.0
}

/// One figure: calls per second, and the client's CPU per call in us.
#[derive(Clone, Copy)]
struct Figure {
    rate: f64,
    cpu_us: f64,
}

/// Calls per second through handles: one thread, `OUTSTANDING` out.
fn handles(server: &Server, calls: usize) -> Figure {
    let host = bind(&server.listing, &server.command);
    let args = parse_str(server.args, &Limits::default()).unwrap();
    let run = |tag: &str, calls: usize| {
        let mut out: VecDeque<CallHandle> = VecDeque::with_capacity(OUTSTANDING);
        let (start, cpu) = (Instant::now(), own_cpu());
        for i in 0..calls {
            if out.len() == OUTSTANDING {
                settled(out.pop_front().unwrap().wait());
            }
            let key = CallKey::new(tag, i.to_string());
            out.push_back(host.call_with(server.tool, key, &args, &server.type_args).unwrap());
        }
        out.into_iter().for_each(|h| settled(h.wait()));
        let rate = calls as f64 / start.elapsed().as_secs_f64();
        Figure { rate, cpu_us: (own_cpu() - cpu) / calls as f64 * 1e6 }
    };
    run("warmup", calls / 10);
    run("run", calls)
}

/// Calls per second with a thread per outstanding call.
fn threads(server: &Server, calls: usize) -> Figure {
    let host = Arc::new(bind(&server.listing, &server.command));
    let args: Json = parse_str(server.args, &Limits::default()).unwrap();
    let (tool, type_args) = (server.tool, Arc::new(server.type_args.clone()));
    let run = |tag: &'static str, per_slot: usize| -> (Duration, usize, f64) {
        let (host, args, type_args) = (host.clone(), args.clone(), type_args.clone());
        let cpu = own_cpu();
        let (wall, latencies) = closed_loop(OUTSTANDING, per_slot, move |slot, i| {
            let key = CallKey::new(tag, format!("{slot}-{i}"));
            settled(host.call_with(tool, key, &args, &type_args).unwrap().wait());
        });
        (wall, latencies.len(), own_cpu() - cpu)
    };
    run("warmup", calls / OUTSTANDING / 10);
    let (wall, done, cpu) = run("run", calls / OUTSTANDING);
    Figure { rate: done as f64 / wall.as_secs_f64(), cpu_us: cpu / done as f64 * 1e6 }
}

/// Calls per second of the neutral driver against the floor.
fn neutral(floor: &[String], calls: usize) -> Figure {
    let python = std::env::var("FLOW_BENCH_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("neutral/driver.py");
    let out = Command::new(&python)
        .arg(&driver)
        .args(["--protocol", "flow", "--runs", "1", "--outstanding", &OUTSTANDING.to_string()])
        .args(["--calls", &calls.to_string(), "--"])
        .args(floor)
        .output()
        .unwrap_or_else(|e| panic!("{python} {}: {e}", driver.display()));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "the neutral driver failed: {text}{}", String::from_utf8_lossy(&out.stderr));
    // "131,000 calls/s, server CPU 1.5 us/call, driver CPU 4.0 us/call, p50 ..."
    let parse = |figure: &str| -> f64 {
        figure.trim().replace(',', "").parse().unwrap_or_else(|e| panic!("the neutral driver said {text:?}: {e}"))
    };
    let rate = parse(text.split(" calls/s").next().unwrap_or_default());
    let cpu_us = parse(text.split("driver CPU ").nth(1).and_then(|t| t.split(' ').next()).unwrap_or_default());
    Figure { rate, cpu_us }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Writes the describe result of `listing`'s Tools to `file`, for the floor.
fn describe_file(listing: &Listing, file: &Path) {
    let entries: Vec<Json> = listing.tools.iter().map(|t| describe_entry(t, &listing.declarations).unwrap()).collect();
    let described = Json::object([("data", Json::str("0.1")), ("tools", Json::Array(entries))]);
    std::fs::write(file, described.to_canonical()).unwrap();
}

fn main() {
    let limits = Limits::default();
    let floor_listing = listing_from_text(FLOOR_LISTING.as_bytes(), &limits).unwrap();
    let floor_echo_listing = listing_from_text(FLOOR_ECHO_LISTING.as_bytes(), &limits).unwrap();
    let temp = |what: &str| std::env::temp_dir().join(format!("flow-bench-floor-{what}-{}.json", std::process::id()));
    let (forecast_file, echo_file): (PathBuf, PathBuf) = (temp("describe"), temp("echo-describe"));
    describe_file(&floor_listing, &forecast_file);
    describe_file(&floor_echo_listing, &echo_file);
    let floor_exe = PathBuf::from(env!("CARGO_BIN_EXE_flow-floor-flow-echo"));
    let weather_listing =
        listing_from_text(include_bytes!("../../tests/examples/weather.tools.json"), &limits).unwrap();
    let weather_command = quote(Path::new(env!("CARGO_BIN_EXE_flow-bench-rust-weather")));
    let floor = Server {
        listing: floor_listing,
        command: format!("{} --describe {}", quote(&floor_exe), quote(&forecast_file)),
        tool: FLOOR_TOOL,
        args: ARGS,
        type_args: Vec::new(),
    };
    let weather = Server {
        listing: weather_listing.clone(),
        command: weather_command.clone(),
        tool: FORECAST,
        args: ARGS,
        type_args: Vec::new(),
    };
    let echo_types = vec![Term::Prim(Prim::JsonValue)];
    let floor_echo = Server {
        listing: floor_echo_listing,
        command: format!("{} --describe {}", quote(&floor_exe), quote(&echo_file)),
        tool: FLOOR_ECHO,
        args: ECHO_ARGS,
        type_args: echo_types.clone(),
    };
    let weather_echo = Server {
        listing: weather_listing,
        command: weather_command,
        tool: ECHO,
        args: ECHO_ARGS,
        type_args: echo_types,
    };
    let floor_words = vec![floor_exe.display().to_string()];
    let calls = std::env::var("FLOW_BENCH_CALLS").ok().and_then(|n| n.parse().ok()).unwrap_or(scaled(20_000, 2_000));
    // benches/table.py runs its own rounds, one run of this each.
    let rounds = if quick() || std::env::var_os("FLOW_BENCH_JSON").is_some() { 1 } else { 3 };
    println!(
        "Rust host client at {OUTSTANDING} outstanding, {calls} calls per figure, {rounds} round(s), load {}",
        load()
    );
    // `cargo bench ... -- WORD`: only the rows whose id starts with WORD (to profile one).
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let wanted = |id: &str| only.is_empty() || only.iter().any(|w| id.starts_with(w.as_str()));
    let mut figures: BTreeMap<&str, Vec<Figure>> = BTreeMap::new();
    let mut measure = |id: &'static str, figure: &dyn Fn() -> Figure| {
        if wanted(id) {
            figures.entry(id).or_default().push(figure());
        }
    };
    for _ in 0..rounds {
        measure("floor.handles", &|| handles(&floor, calls));
        measure("floor.threads", &|| threads(&floor, calls));
        measure("floor.neutral", &|| neutral(&floor_words, calls));
        measure("weather.handles", &|| handles(&weather, calls));
        measure("weather.threads", &|| threads(&weather, calls));
        measure("echo.floor.handles", &|| handles(&floor_echo, calls));
        measure("echo.weather.handles", &|| handles(&weather_echo, calls));
    }
    let _ = std::fs::remove_file(&forecast_file);
    let _ = std::fs::remove_file(&echo_file);
    let labels = [
        ("floor.handles", "Rust host client, handles from one thread, against the trivial Rust Flow floor"),
        ("floor.threads", "Rust host client, a thread per outstanding call, against the floor"),
        ("floor.neutral", "standard-library Python neutral driver against the floor"),
        ("weather.handles", "Rust host client, handles from one thread, generated Rust Tool `get_forecast`"),
        ("weather.threads", "Rust host client, a thread per outstanding call, generated Rust Tool"),
        ("echo.floor.handles", "Rust host client, handles from one thread, the floor's `echo` (T = json.Value)"),
        (
            "echo.weather.handles",
            "Rust host client, handles from one thread, generated Rust Tool `echo` (T = json.Value)",
        ),
    ];
    let medians: BTreeMap<&str, f64> =
        figures.iter().map(|(k, v)| (*k, median(v.iter().map(|f| f.rate).collect()))).collect();
    for (id, label) in labels.into_iter().filter(|(id, _)| figures.contains_key(id)) {
        let runs: Vec<String> = figures[id].iter().map(|x| format!("{:.0}", x.rate)).collect();
        let cpu = median(figures[id].iter().map(|f| f.cpu_us).collect());
        println!("{label:<90} {:>8.0} calls/s  client CPU {cpu:>5.1} us/call  (runs {})", medians[id], runs.join(", "));
        let extra = [("outstanding", OUTSTANDING as f64), ("client_cpu_us_per_call", cpu)];
        record("rust.host", id, label, "calls/s", medians[id], &extra);
    }
    let ratio = |a: &str, b: &str| Some(medians.get(a)? / medians.get(b)?);
    if let Some(vs_neutral) = ratio("floor.handles", "floor.neutral") {
        println!("host client vs the neutral driver, against the floor: {vs_neutral:.2}x (goal >= 1x)");
    }
    if let Some(vs_floor) = ratio("weather.handles", "floor.handles") {
        println!("host client with the generated Rust Tool vs with the floor: {vs_floor:.2}x (goal >= 0.8x)");
    }
    if let Some(vs_floor) = ratio("echo.weather.handles", "echo.floor.handles") {
        println!("the same, like for like (`echo` against the floor's `echo`): {vs_floor:.2}x (goal >= 0.8x)");
    }
    println!("load after: {}", load());
}
