//! Helpers shared by the host's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use flow_core::json::{parse_str, Json};
use flow_core::manifest::Runner;
use flow_core::types::parse::listing_from_text;
use flow_core::types::Listing;
use flow_core::Limits;
use flow_host::{Binding, Host, HostOptions, Resolver};
use flow_protocol::{CallKey, CallOutcome};

pub const WEATHER: &[u8] = include_bytes!("../../../tests/examples/weather.tools.json");
pub const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
pub const STATIONS: &str = "github.com/acme/weather@1.2.0/weather.flow.list_stations";
pub const ECHO: &str = "github.com/acme/weather@1.2.0/weather.flow.echo";

pub fn listing() -> Listing {
    listing_from_text(WEATHER, &Limits::default()).unwrap()
}

pub fn json(text: &str) -> Json {
    parse_str(text, &Limits::default()).unwrap()
}

pub fn quote(path: &str) -> String {
    format!("'{}'", path.replace('\'', r"'\''"))
}

/// A scratch directory per test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("flow-host-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub struct Setup {
    pub host: Host,
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Setup {
    pub fn logged(&self, needle: &str) -> bool {
        self.log.lock().unwrap().iter().any(|l| l.contains(needle))
    }
}

pub fn options() -> (HostOptions, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let sink = log.clone();
    let options = HostOptions {
        log: Arc::new(move |l| sink.lock().unwrap().push(l.to_owned())),
        quiet_stderr: true,
        ..HostOptions::default()
    };
    (options, log)
}

/// Every Tool of the listing bound, by host override, to `command`.
pub fn resolver(command: &str, dir: &Path) -> Resolver {
    let mut resolver = Resolver::default();
    for tool in listing().tools {
        let binding = Binding {
            runner: Runner::Command(command.to_owned()),
            dir: dir.to_path_buf(),
            origin: "test override".into(),
        };
        resolver.overrides.insert(tool.tool, binding);
    }
    resolver
}

pub fn bind(command: &str, name: &str) -> Setup {
    bind_with(command, name, options())
}

/// As [`bind`], with processes given `grace` to exit once stopped.
pub fn bind_with_grace(command: &str, name: &str, grace: std::time::Duration) -> Setup {
    let (options, log) = options();
    bind_with(command, name, (HostOptions { stop_grace: grace, ..options }, log))
}

fn bind_with(command: &str, name: &str, (options, log): (HostOptions, Arc<Mutex<Vec<String>>>)) -> Setup {
    let host = Host::bind(&listing(), &resolver(command, &scratch(name)), options).unwrap_or_else(|r| panic!("{r:?}"));
    Setup { host, log }
}

/// The pid the fake wrote at its `start`th start into its `--state` dir.
pub fn fake_pid(state: &Path, start: u64) -> u32 {
    let file = state.join(format!("pid-{start}"));
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display())).trim().parse().unwrap()
}

/// Whether the fake `pid` is gone: exited and reaped.
pub fn fake_gone(pid: u32) -> bool {
    process_gone(pid, "flow-fake-tool")
}

/// Whether `pid`, a process of the program `name`, is gone: exited and
/// reaped. A zombie keeps its /proc entry and name; a pid reused since is
/// another program's.
pub fn process_gone(pid: u32, name: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => !stat.contains(&format!("({name})")),
    }
}

pub fn test_tool() -> String {
    quote(env!("CARGO_BIN_EXE_flow-test-tool"))
}

pub fn fake(flags: &str) -> String {
    format!("{} {flags}", quote(env!("CARGO_BIN_EXE_flow-fake-tool")))
}

pub fn forecast_args(city: &str) -> Json {
    json(&format!(r#"{{"city":"{city}","days":1,"units":"None"}}"#))
}

pub fn forecast(setup: &Setup, call: &str, city: &str) -> CallOutcome {
    setup.host.call(FORECAST, CallKey::new("r", call), &forecast_args(city)).unwrap().wait()
}

/// Ok, with the forecast for `city` (so replies are matched to their calls).
pub fn assert_forecast(outcome: &CallOutcome, city: &str) {
    match outcome {
        CallOutcome::Ok(v) => {
            assert!(v.to_canonical().starts_with(&format!("{{\"city\":\"{city}\"")), "{}", v.to_canonical())
        }
        other => panic!("expected Ok for {city}: {other:?}"),
    }
}

pub fn reason(outcome: &CallOutcome, case: &str) -> String {
    assert_eq!(outcome.case(), case, "{outcome:?}");
    outcome.reason().unwrap().to_owned()
}
