//! flow-soak: the fault soak (docs/testing.md, "The fault soak"). Drives many calls, a fixed
//! number outstanding, through the host client into a Tool wrapped in
//! `flow-chaos`, which duplicates lines both ways, delays replies and kills
//! the Tool at random; then checks every outcome against the chaos log and
//! that memory stayed flat.
//!
//! ```sh
//! flow-soak [--calls N] [--outstanding K] [--seed S] [--kills K] [--dup-call P]
//!           [--dup-reply P] [--delay P] [--max-delay-ms M] [--kill-describe P]
//!           [--work DIR] [--keep] [--swap-replies P] [--stalls N] [--stall-ms M] LANG...
//! ```
//!
//! `--swap-replies` has flow-chaos lie (tests show the checks fail).
//! `--stalls N` has flow-chaos stop reading the Tool's replies about N times
//! a soak, `--stall-ms` each (a host that stops reading for a while).
//!
//! LANG is `rust` (examples/rust-weather), `python` (examples/python, in
//! `.venv`), `node` (examples/typescript, built with tsc), `test`
//! (flow-test-tool) or `mcp`: `flow-host mcp-adapter` serving the MCP tools
//! of the Python SDK test server (tests/mcp/python_server.py, in
//! `.venv-mcp`), flow-chaos wrapping the adapter, so that each kill is a
//! SIGKILLed adapter whose MCP server must go with it. Exit status 1 on any
//! violation.
//!
//! And for every LANG: once the host is dropped and the last flow-chaos has
//! ended, no process started under the soak is left running (each carries a
//! mark in its environment, found in /proc): not a Tool, not an MCP server
//! whose adapter was killed.
//!
//! What each call must end with (host-boundary.md, "The Tool process
//! protocol"). The host's knowledge is what it wrote: a call whose line it
//! wrote to the process's stdin "reached the process" (the process is
//! flow-chaos: the host cannot see past it, nor into a pipe's buffer), so
//! when the process ends before a reply, the call is Unknown, whether
//! flow-chaos passed it on, only read it, or never read it. NotRun only
//! when the host could not write the line (the process had ended, or a
//! restart's describe failed). So, per call, from the log:
//!
//! - a reply written to the host (`out`): the outcome is that reply's, byte
//!   for byte (its hash), and the one the Tool owes these args (the city
//!   echoed, the value echoed, ...): nothing lost, nothing misattributed;
//! - read by flow-chaos, no reply out: Unknown, ended "after the call
//!   reached it";
//! - never read by flow-chaos: Unknown (written into the pipe, unread) or
//!   NotRun (not written); which one only the host knows, so both are
//!   accepted and counted apart, each with the host's reason for it.
//!
//! And: every call ends exactly once (a second receive finds the host's
//! channel closed); every reply out beyond a call's first is dropped and
//! logged by the host, exactly as many; replies the Tool sent for one call
//! (two when a duplicated call line met it finished) are identical, so a
//! re-sent call was answered from the first run (decisions.md 7; the
//! counting calls would show a second run).
//!
//! Memory: this process's (the host's) resident set over the calls, and each
//! Tool process's once warm (see `WARM`), must be flat (see `flat`).
//!
//! `--cancel-storms N`: N times a soak, a run of 64 consecutive calls is each
//! cancelled as soon as it is sent, whatever its handler does with a cancel:
//! each owes what its args call for, or NotRun "cancelled before it
//! started" when it was still waiting for a thread (or the event loop).
//!
//! `--cancel-storm N` instead (no flow-chaos, no host client): a writer thread
//! sends the Tool N calls whose handlers wait for a cancel, then their N
//! cancels, while a reader takes the replies. However many calls the Tool
//! holds, it must read on: every call settled exactly once (run and
//! cancelled, cancelled before it started, or NotRun past the Tool's
//! bound) within a generous deadline that only a deadlock misses, and the
//! Tool's resident set under `--storm-mib` (default 512).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use flow_core::json::{parse_str, write_string, Json};
use flow_core::manifest::Runner;
use flow_core::types::parse::listing_from_text;
use flow_core::types::{Prim, Term};
use flow_core::Limits;
use flow_host::{Binding, Host, HostOptions, Resolver};
use flow_protocol::{CallKey, CallOutcome};

// flow-chaos's randomness, outcome hash and memory reading; `chance` is its
// alone.
#[path = "../soak_support.rs"]
#[allow(dead_code)]
mod soak_support;
use soak_support::{fnv, rss, Rng};

const WEATHER: &[u8] = include_bytes!("../../../tests/examples/weather.tools.json");
const FORECAST: &str = "github.com/acme/weather@1.2.0/weather.flow.get_forecast";
const HISTORY: &str = "github.com/acme/weather@1.2.0/weather.flow.station_history";
const ECHO: &str = "github.com/acme/weather@1.2.0/weather.flow.echo";
const MCP_LISTING: &[u8] = include_bytes!("../../../tests/mcp/python-server.tools.json");
const MCP_ADD: &str = "github.com/acme/mcp-test@0.1.0/server.flow.add";
const MCP_GREET: &str = "github.com/acme/mcp-test@0.1.0/server.flow.greet";
const MCP_DIVIDE: &str = "github.com/acme/mcp-test@0.1.0/server.flow.divide";
const MCP_SLOW: &str = "github.com/acme/mcp-test@0.1.0/server.flow.slow";
/// The class of a call the Tool answered Unknown: its handler threw, or (MCP)
/// the call was cancelled.
const ANSWERED_UNKNOWN: &str = "Unknown, answered by the Tool (a handler that threw, or an MCP call cancelled)";
/// The variable that marks every process a soak starts (see the module's doc).
const MARK: &str = "FLOW_SOAK_MARK";

/// Deadlock guards only: nothing is timed. A call's outcome within this, and
/// the last wrapper's end after the host is dropped.
const GUARD: Duration = Duration::from_secs(300);

fn quoted(text: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, text);
    out
}

fn json(text: &str) -> Json {
    parse_str(text, &Limits::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lang {
    Rust,
    Python,
    Node,
    Test,
    Mcp,
}

impl Lang {
    fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Python => "python",
            Lang::Node => "node",
            Lang::Test => "test",
            Lang::Mcp => "mcp",
        }
    }

    /// The city that fails with UnknownCity, the one whose handler throws
    /// (answered Unknown) and the one that waits for a cancel (then Failed),
    /// as each implementation spells them.
    fn cities(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Lang::Rust | Lang::Test | Lang::Mcp => ("Nowhere", "panic", "wait-for-cancel"),
            Lang::Python | Lang::Node => ("Atlantis", "boom", "slow"),
        }
    }
}

/// What the Tool owes a call's args, when its reply gets out.
enum Expect {
    /// Ok: a forecast for this city with this many days.
    Forecast(String, usize),
    /// Ok: the echoed text.
    Echo(String),
    /// Ok: readings starting at this instant (canonical text).
    Since(String),
    /// Ok: rust-weather's `count` city, `run N`.
    Count,
    Failed,
    /// The handler throws: the Tool answers Unknown.
    Throws,
    /// Cancelled once sent; the handler waits for it, then fails. A cancel
    /// proves nothing (host-boundary.md): the call stays open until this
    /// reply, or Unknown if the process ends first.
    Cancelled,
    /// Exactly this outcome, canonical text (the MCP server's tools).
    Exact(String),
    /// Cancelled once sent, through the MCP adapter: MCP answers a cancelled
    /// request with nothing, so the adapter's reply is Unknown (NotRun when
    /// the cancel found the call still waiting for an adapter thread).
    CancelledUnknown,
}

/// The listing whose Tools a soak calls, and the Tool whose process it counts.
fn listing_of(lang: Lang) -> (&'static [u8], &'static str) {
    match lang {
        Lang::Mcp => (MCP_LISTING, MCP_ADD),
        _ => (WEATHER, FORECAST),
    }
}

/// A call of the Python SDK test server's tools: integers beyond 64 bits
/// (exact through the adapter and pydantic), an Option parameter both ways,
/// a declared error, and a cancelled call.
fn plan_mcp(i: usize, rng: &mut Rng) -> Plan {
    let big = |rng: &mut Rng| format!("{}{:019}", 1 + rng.below(1_000_000), rng.next() % 10_000_000_000_000_000_000);
    let exact = |tool: &'static str, args: String, outcome: String| Plan {
        tool,
        args: json(&args),
        type_args: Vec::new(),
        expect: Expect::Exact(outcome),
    };
    match rng.below(100) {
        0..=59 => {
            let (a, b) = (big(rng), big(rng));
            let total = add_decimal(&a, &b);
            exact(
                MCP_ADD,
                format!(r#"{{"a":{a},"b":{b}}}"#),
                format!(r#"{{"Ok":{{"terms":[{a},{b}],"total":{total}}}}}"#),
            )
        }
        60..=84 => {
            let name = format!("n{i}-{:x}", rng.next() >> 40);
            if rng.below(2) == 0 {
                exact(
                    MCP_GREET,
                    format!(r#"{{"name":"{name}","greeting":"None"}}"#),
                    format!(r#"{{"Ok":{{"text":"Hello, {name}!"}}}}"#),
                )
            } else {
                exact(
                    MCP_GREET,
                    format!(r#"{{"name":"{name}","greeting":{{"Some":"Hi"}}}}"#),
                    format!(r#"{{"Ok":{{"text":"Hi, {name}!"}}}}"#),
                )
            }
        }
        85..=96 => {
            let a = 1 + rng.below(1_000_000);
            if rng.below(2) == 0 {
                exact(
                    MCP_DIVIDE,
                    format!(r#"{{"a":{a},"b":0}}"#),
                    format!(r#"{{"Failed":{{"DivisionByZero":{{"dividend":{a}}}}}}}"#),
                )
            } else {
                let b = 1 + rng.below(1000);
                exact(
                    MCP_DIVIDE,
                    format!(r#"{{"a":{a},"b":{b}}}"#),
                    format!(r#"{{"Ok":{{"quotient":{},"remainder":{}}}}}"#, a / b, a % b),
                )
            }
        }
        _ => Plan { tool: MCP_SLOW, args: json("{}"), type_args: Vec::new(), expect: Expect::CancelledUnknown },
    }
}

/// The sum of two non-negative decimal integers, digit by digit (they are
/// beyond 64 bits).
fn add_decimal(a: &str, b: &str) -> String {
    let (a, b): (Vec<u8>, Vec<u8>) =
        (a.bytes().rev().map(|d| d - b'0').collect(), b.bytes().rev().map(|d| d - b'0').collect());
    let (mut out, mut carry) = (Vec::new(), 0u8);
    for k in 0..a.len().max(b.len()) {
        let sum = a.get(k).copied().unwrap_or(0) + b.get(k).copied().unwrap_or(0) + carry;
        out.push(b'0' + sum % 10);
        carry = sum / 10;
    }
    if carry > 0 {
        out.push(b'0' + carry);
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

struct Plan {
    tool: &'static str,
    args: Json,
    type_args: Vec<Term>,
    expect: Expect,
}

fn plan(lang: Lang, i: usize, rng: &mut Rng) -> Plan {
    if lang == Lang::Mcp {
        return plan_mcp(i, rng);
    }
    let (failing, throwing, waiting) = lang.cities();
    let roll = rng.below(100);
    let forecast = |city: &str, days: usize, units: &str| Plan {
        tool: FORECAST,
        args: json(&format!(r#"{{"city":{},"days":{days},"units":{units}}}"#, quoted(city))),
        type_args: Vec::new(),
        expect: Expect::Forecast(city.to_owned(), days),
    };
    match roll {
        0..=58 => {
            let units = ["\"None\"", r#"{"Some":"Metric"}"#, r#"{"Some":"Imperial"}"#][rng.below(3) as usize];
            forecast(&format!("c{i}-{:x}", rng.next() >> 40), 1 + rng.below(3) as usize, units)
        }
        59..=83 => {
            // Text of varied length and escapes: lines of many sizes.
            let mut text = format!("e{i}-");
            for _ in 0..rng.below(300) {
                text.push(['a', 'z', '7', ' ', 'é', '"', '\\', '\n', '\u{1F600}'][rng.below(9) as usize]);
            }
            Plan {
                tool: ECHO,
                args: json(&format!(r#"{{"value":{}}}"#, quoted(&text))),
                type_args: vec![Term::Prim(Prim::Text)],
                expect: Expect::Echo(format!(r#"{{"Ok":{}}}"#, quoted(&text))),
            }
        }
        84..=92 if lang == Lang::Rust => Plan { expect: Expect::Count, ..forecast("count", 1, "\"None\"") },
        84..=92 => {
            // The Python and Node Tools count their runs of station_history
            // in its last reading: a second run of one call would differ.
            let s = i % 86_400;
            let since = format!("2026-01-{:02}T{:02}:{:02}:{:02}Z", 1 + i / 86_400 % 28, s / 3600, s / 60 % 60, s % 60);
            Plan {
                tool: HISTORY,
                args: json(&format!(r#"{{"station":{i},"since":"{since}","window":"PT60S","counts":[]}}"#)),
                type_args: Vec::new(),
                expect: Expect::Since(since),
            }
        }
        93..=96 => Plan { expect: Expect::Failed, ..forecast(failing, 1, "\"None\"") },
        97 => Plan { expect: Expect::Throws, ..forecast(throwing, 1, "\"None\"") },
        _ => Plan { expect: Expect::Cancelled, ..forecast(waiting, 1, "\"None\"") },
    }
}

/// Whether an answered call's outcome is the one its args call for.
fn owed(expect: &Expect, outcome: &CallOutcome) -> Result<(), String> {
    let text = outcome.to_canonical();
    let good = match expect {
        Expect::Forecast(city, days) => {
            text.starts_with(&format!(r#"{{"Ok":{{"city":{},"days":["#, quoted(city)))
                && text.matches(r#""date":"#).count() == *days
        }
        Expect::Echo(want) => &text == want,
        Expect::Since(since) => text.starts_with(&format!(r#"{{"Ok":[["{since}","#)),
        Expect::Count => text.starts_with(r#"{"Ok":{"city":"run "#),
        Expect::Failed => text.starts_with(r#"{"Failed":{"UnknownCity":"#),
        Expect::Throws => outcome.case() == "Unknown",
        Expect::Cancelled => outcome.case() == "Failed",
        Expect::Exact(want) => &text == want,
        Expect::CancelledUnknown => {
            outcome.case() == "Unknown" && outcome.reason().is_some_and(|r| r.starts_with("cancelled"))
        }
    };
    if good {
        Ok(())
    } else {
        Err(format!("not what its args call for: {}", text.chars().take(200).collect::<String>()))
    }
}

/// What is kept of an outcome: not its value (a run of 100,000 would hold
/// them all, and the host's memory is measured in this process).
struct Record {
    case: &'static str,
    reason: Option<String>,
    hash: u64,
    owed: Result<(), String>,
    /// The outcome's text when it is no value (a reason), for violations.
    text: String,
}

/// What the chaos log says of one call.
#[derive(Default)]
struct Seen {
    read: u32,
    forwarded: u32,
    replies: Vec<String>,
    outs: Vec<String>,
}

#[derive(Default)]
struct Log {
    calls: HashMap<String, Seen>,
    starts: u64,
    kills: u64,
    dup_calls: u64,
    dup_replies: u64,
    delays: u64,
    /// Times flow-chaos stopped reading the Tool's replies for a while.
    stalls: u64,
    /// (generation, replies so far, bytes)
    rss: Vec<(u64, u64, u64)>,
}

fn read_log(path: &Path) -> Log {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut log = Log::default();
    for line in text.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        match words[0] {
            "start" => log.starts += 1,
            "kill" => log.kills += 1,
            "dupcall" => log.dup_calls += 1,
            "dupreply" => log.dup_replies += 1,
            "delay" => log.delays += 1,
            "stall" => log.stalls += 1,
            "in" => log.calls.entry(words[2].to_owned()).or_default().read += 1,
            "fwd" => log.calls.entry(words[2].to_owned()).or_default().forwarded += 1,
            "reply" => log.calls.entry(words[2].to_owned()).or_default().replies.push(words[3].to_owned()),
            "out" => log.calls.entry(words[2].to_owned()).or_default().outs.push(words[3].to_owned()),
            "rss" => log.rss.push((
                words[1].parse().unwrap_or(0),
                words[2].parse().unwrap_or(0),
                words[3].parse().unwrap_or(0),
            )),
            _ => {}
        }
    }
    log
}

struct Settings {
    calls: usize,
    outstanding: usize,
    seed: u64,
    kills: f64,
    dup_call: f64,
    dup_reply: f64,
    delay: f64,
    max_delay_ms: u64,
    /// Of restarts, how many flow-chaos kills on their describe.
    kill_describe: f64,
    /// flow-chaos's lie, to show the checks fail (tests only).
    swap_replies: f64,
    /// About how many times a soak flow-chaos stops reading replies, and for how long.
    stalls: f64,
    stall_ms: u64,
    /// Runs of 64 calls each cancelled as soon as it is sent.
    cancel_storms: usize,
    work: PathBuf,
    /// Keep the chaos logs of a soak that passed (a failed one's are kept).
    keep: bool,
    repo: PathBuf,
    bin_dir: PathBuf,
}

fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The Tool's command and the directory it runs in.
fn tool_command(lang: Lang, s: &Settings) -> Result<(String, PathBuf), String> {
    let need = |path: PathBuf, how: &str| {
        if path.exists() {
            Ok(path)
        } else {
            Err(format!("{} is missing: {how}", path.display()))
        }
    };
    Ok(match lang {
        Lang::Rust => {
            let exe = need(s.bin_dir.join("rust-weather"), "cargo build -p rust-weather")?;
            (shell_quote(exe.to_str().unwrap_or_default()), s.work.clone())
        }
        Lang::Test => {
            let exe = need(s.bin_dir.join("flow-test-tool"), "cargo build -p flow-toolkit-host")?;
            (shell_quote(exe.to_str().unwrap_or_default()), s.work.clone())
        }
        Lang::Python => {
            let python = need(s.repo.join(".venv/bin/python"), "make python-env")?;
            (
                format!("{} -m weather_tools", shell_quote(python.to_str().unwrap_or_default())),
                s.repo.join("examples/python"),
            )
        }
        Lang::Node => {
            need(s.repo.join("examples/typescript/weather-tools/dist/main.js"), "make soak (builds it with tsc)")?;
            ("node weather-tools/dist/main.js".to_owned(), s.repo.join("examples/typescript"))
        }
        Lang::Mcp => {
            let adapter = need(s.bin_dir.join("flow-host"), "cargo build -p flow-toolkit-host")?;
            let python = need(s.repo.join(".venv-mcp/bin/python"), "make mcp-servers")?;
            let listing = s.repo.join("tests/mcp/python-server.tools.json");
            let server = s.repo.join("tests/mcp/python_server.py");
            let words = [adapter.as_path(), Path::new("mcp-adapter"), &listing, Path::new("--"), &python, &server];
            (
                words.iter().map(|w| shell_quote(w.to_str().unwrap_or_default())).collect::<Vec<_>>().join(" "),
                s.repo.clone(),
            )
        }
    })
}

/// Peak of the samples in a quarter of a series (`first`: the first quarter).
fn quarter_max(samples: &[u64], first: bool) -> u64 {
    let q = samples.len().div_ceil(4).max(1);
    let part = if first { &samples[..q.min(samples.len())] } else { &samples[samples.len().saturating_sub(q)..] };
    part.iter().copied().max().unwrap_or(0)
}

/// Replies after which a Tool process is warm: its server core's memory of
/// finished pairs (`DEFAULT_MEMORY`, the re-sent call rule) is full, each new
/// pair evicting the oldest, so its resident set has no reason to grow. Before
/// that it does: remembered replies, allocator arenas, the runtime's caches.
const WARM: u64 = flow_protocol::server::DEFAULT_MEMORY as u64;

/// Memory is flat when the last quarter's peak is within this of the
/// first quarter's: 8 MiB plus a tenth. Why these numbers: docs/testing.md,
/// "Hardening" (the fault soak).
fn flat(first: u64, last: u64) -> bool {
    last <= first + first / 10 + 8 * 1024 * 1024
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn soak(lang: Lang, s: &Settings) -> Result<Vec<String>, String> {
    let started = Instant::now();
    let (tool, dir) = tool_command(lang, s)?;
    let chaos = s.bin_dir.join("flow-chaos");
    if !chaos.exists() {
        return Err(format!("{} is missing: cargo build -p flow-toolkit-host", chaos.display()));
    }
    let log_path = s.work.join(format!("chaos-{}.log", lang.name()));
    for suffix in ["", ".gen", ".exited", ".stderr"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", log_path.display()));
    }
    // About four kill draws a call (each line read and written, both ways).
    let kill_rate = s.kills / (4.0 * s.calls as f64);
    // One stall draw per line read from the Tool, about one a call.
    let stall_rate = s.stalls / s.calls as f64;
    let mark = format!("{}-{}", std::process::id(), lang.name());
    let command = format!(
        "env {MARK}={mark} {} --seed {} --log {} --dup-call {} --dup-reply {} --delay {} --max-delay-ms {} --kill {kill_rate} --kill-describe {} --swap-replies {} --stall {stall_rate} --stall-ms {} -- {tool}",
        shell_quote(chaos.to_str().unwrap_or_default()),
        s.seed,
        shell_quote(log_path.to_str().unwrap_or_default()),
        s.dup_call,
        s.dup_reply,
        s.delay,
        s.max_delay_ms,
        s.kill_describe,
        s.swap_replies,
        s.stall_ms,
    );
    let (listing_bytes, counted) = listing_of(lang);
    let listing = listing_from_text(listing_bytes, &Limits::default()).map_err(|e| e.to_string())?;
    let mut resolver = Resolver::default();
    for t in &listing.tools {
        let binding =
            Binding { runner: Runner::Command(command.clone()), dir: dir.clone(), origin: "flow-soak".into() };
        resolver.overrides.insert(t.tool.clone(), binding);
    }
    let host_log = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = host_log.clone();
    let options = HostOptions {
        log: Arc::new(move |l| sink.lock().unwrap_or_else(|e| e.into_inner()).push(l.to_owned())),
        quiet_stderr: true,
        ..HostOptions::default()
    };
    let host = Host::bind(&listing, &resolver, options).map_err(|r| format!("not bound: {r:?}"))?;

    // Each call's plan is made when it is sent, from the seed and its index,
    // so that nothing the soak holds grows with the calls but one record each.
    let plan_of = |i: usize| plan(lang, i, &mut Rng(s.seed ^ (i as u64).wrapping_mul(0x2545_F491_4F6C_DD1D)));
    let results: Vec<Mutex<Option<Record>>> = (0..s.calls).map(|_| Mutex::new(None)).collect();
    let violations = Mutex::new(Vec::<String>::new());
    let host_rss = Mutex::new(Vec::<u64>::new());
    let (next, done) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let every = (s.calls / 200).max(1);
    let violate = |text: String| violations.lock().unwrap_or_else(|e| e.into_inner()).push(text);

    std::thread::scope(|scope| {
        for _ in 0..s.outstanding {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= s.calls {
                    break;
                }
                let plan = plan_of(i);
                let handle =
                    match host.call_with(plan.tool, CallKey::new("soak", format!("c{i}")), &plan.args, &plan.type_args)
                    {
                        Ok(handle) => handle,
                        Err(e) => {
                            violate(format!("c{i}: refused before sending: {e}"));
                            continue;
                        }
                    };
                let storm = lang != Lang::Mcp && in_storm(i, s);
                if storm || matches!(plan.expect, Expect::Cancelled | Expect::CancelledUnknown) {
                    handle.cancel();
                }
                let Some(outcome) = handle.wait_timeout(GUARD) else {
                    violate(format!("c{i}: no outcome within {GUARD:?}"));
                    continue;
                };
                // Exactly once: the handle holds its one outcome; a second
                // reply for the pair is dropped by the host, never delivered.
                match handle.poll() {
                    Some(again) if again == outcome => {}
                    Some(second) => violate(format!("c{i}: a second outcome {}", second.to_canonical())),
                    None => violate(format!("c{i}: the call reopened after its outcome")),
                }
                let text = outcome.to_canonical();
                let record = Record {
                    case: outcome.case(),
                    reason: outcome.reason().map(str::to_owned),
                    hash: fnv(&text),
                    // A cancelled call still waiting for a thread never ran.
                    owed: if (storm || matches!(plan.expect, Expect::Cancelled | Expect::CancelledUnknown))
                        && outcome.case() == "NotRun"
                        && outcome.reason().is_some_and(|r| r.starts_with("cancelled before it started"))
                    {
                        Ok(())
                    } else {
                        owed(&plan.expect, &outcome)
                    },
                    text: if outcome.reason().is_some() { text.chars().take(160).collect() } else { String::new() },
                };
                drop(outcome);
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(record);
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                if n % every == 0 {
                    if let Some(bytes) = rss("self") {
                        host_rss.lock().unwrap_or_else(|e| e.into_inner()).push(bytes);
                    }
                }
            });
        }
    });
    let calls_done = started.elapsed();
    let starts = host.connection(counted).map(|c| c.starts()).unwrap_or(0);
    drop(host);
    // The last wrapper ends once its input does: its log is then complete.
    let guard = Instant::now();
    let gen_path = format!("{}.gen", log_path.display());
    let exited_path = format!("{}.exited", log_path.display());
    loop {
        let generation = std::fs::read_to_string(&gen_path).unwrap_or_default();
        if !generation.is_empty() && std::fs::read_to_string(&exited_path).unwrap_or_default() == generation {
            break;
        }
        if guard.elapsed() > GUARD {
            return Err(format!("the last flow-chaos did not end within {GUARD:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }

    let log = read_log(&log_path);
    let mut violations = violations.into_inner().unwrap_or_else(|e| e.into_inner());
    let left = survivors(&mark);
    if !left.is_empty() {
        violations.push(format!("{} process(es) still running after the soak: {}", left.len(), left.join("; ")));
    }
    let mut count: HashMap<&'static str, u64> = HashMap::new();
    let mut extra_outs = 0u64;
    let empty = Seen::default();
    for (i, record) in results.into_iter().enumerate() {
        let Some(Record { case, reason, hash, owed, text }) = record.into_inner().unwrap_or_else(|e| e.into_inner())
        else {
            continue; // already a violation
        };
        let seen = log.calls.get(&format!(r#"["soak","c{i}"]"#)).unwrap_or(&empty);
        let reason = reason.as_deref().unwrap_or("");
        *count.entry(case).or_default() += 1;
        extra_outs += seen.outs.len().saturating_sub(1) as u64;
        if seen.replies.windows(2).any(|w| w[0] != w[1]) {
            violations.push(format!("c{i}: the Tool answered one call differently: {:?}", seen.replies));
        }
        let class = if let Some(first) = seen.outs.first() {
            if format!("{hash:016x}") != *first {
                violations.push(format!("c{i}: the host's outcome is not the reply written for it: {text}"));
            }
            if let Err(why) = owed {
                violations.push(format!("c{i}: {why}"));
            }
            match case {
                "Unknown" => ANSWERED_UNKNOWN,
                _ => "answered",
            }
        } else if seen.read > 0 {
            if case != "Unknown" || !reason.contains("after the call reached it") {
                violations.push(format!("c{i}: read by the process, no reply out, ended {text}"));
            }
            if seen.forwarded > 0 {
                "Unknown, passed to the Tool, killed before its reply got out"
            } else {
                "Unknown, read by flow-chaos, killed before passing it on"
            }
        } else {
            match case {
                "Unknown" if reason.contains("after the call reached it") => {
                    "Unknown, written to the pipe, never read (killed first)"
                }
                "NotRun" if reason.contains("before the call reached it") => {
                    "NotRun, the process had ended before the host wrote it"
                }
                "NotRun" if reason.contains("is not available") => {
                    "NotRun, the restarted process was killed before its describe"
                }
                _ => {
                    violations.push(format!("c{i}: never read by the process, ended {text}"));
                    "violation"
                }
            }
        };
        *count.entry(class).or_default() += 1;
    }
    let drops =
        host_log.lock().unwrap_or_else(|e| e.into_inner()).iter().filter(|l| l.contains("dropped a reply for")).count()
            as u64;
    if drops != extra_outs {
        violations.push(format!("the host dropped {drops} replies; {extra_outs} were second replies"));
    }
    let answered = count.get("answered").copied().unwrap_or(0) + count.get(ANSWERED_UNKNOWN).copied().unwrap_or(0);
    if answered == 0 {
        violations.push("no call was answered".to_owned());
    }

    // Memory: the host (this process) over the calls; each Tool process over
    // its life once warm (see WARM), if it lived to be sampled 8 times more.
    let host_rss = host_rss.into_inner().unwrap_or_else(|e| e.into_inner());
    let (h_first, h_last) = (quarter_max(&host_rss, true), quarter_max(&host_rss, false));
    if !flat(h_first, h_last) {
        violations.push(format!(
            "host memory grew: first quarter's peak {}, last quarter's {}",
            mib(h_first),
            mib(h_last)
        ));
    }
    let mut by_gen: HashMap<u64, Vec<(u64, u64)>> = HashMap::new();
    for &(g, replies, bytes) in &log.rss {
        by_gen.entry(g).or_default().push((replies, bytes));
    }
    let mut checked = 0;
    let mut longest: Option<(u64, Vec<(u64, u64)>)> = None;
    for (g, samples) in &by_gen {
        let warm: Vec<u64> = samples.iter().filter(|&&(r, _)| r >= WARM).map(|&(_, b)| b).collect();
        if warm.len() >= 8 {
            checked += 1;
            if !flat(quarter_max(&warm, true), quarter_max(&warm, false)) {
                violations.push(format!(
                    "Tool process {g}: memory grew once warm: {}",
                    warm.iter().map(|&b| mib(b)).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        let replies = samples.last().map_or(0, |&(r, _)| r);
        if longest.as_ref().is_none_or(|(_, l)| l.last().map_or(0, |&(r, _)| r) < replies) {
            longest = Some((*g, samples.clone()));
        }
    }

    let mut lines = vec![format!("{}: {} calls, {} outstanding, seed {}", lang.name(), s.calls, s.outstanding, s.seed)];
    let get = |k: &str| count.get(k).copied().unwrap_or(0);
    lines.push(format!(
        "  outcomes: Ok {}, Failed {}, Unknown {}, NotRun {}, BadReply {}",
        get("Ok"),
        get("Failed"),
        get("Unknown"),
        get("NotRun"),
        get("BadReply")
    ));
    let mut classes: Vec<_> = count.iter().filter(|(k, _)| k.contains(',') || **k == "answered").collect();
    classes.sort();
    for (class, n) in classes {
        lines.push(format!("    {class}: {n}"));
    }
    lines.push(format!(
        "  chaos: {} processes started ({} by the host), {} kills, {} calls sent twice, {} replies sent twice, {} replies delayed, {} stalls of the reader; host dropped {drops} second replies",
        log.starts, starts, log.kills, log.dup_calls, log.dup_replies, log.delays, log.stalls
    ));
    lines.push(format!("  time: {:.1} s for the calls", calls_done.as_secs_f64()));
    lines.push(format!(
        "  host RSS: first sample {}, first quarter's peak {}, last quarter's peak {}, last sample {}",
        mib(host_rss.first().copied().unwrap_or(0)),
        mib(h_first),
        mib(h_last),
        mib(host_rss.last().copied().unwrap_or(0))
    ));
    if let Some((g, samples)) = longest {
        let at = |r: u64| samples.iter().find(|&&(n, _)| n >= r).or(samples.last()).copied().unwrap_or((0, 0));
        let (first, warm, last) = (at(0), at(WARM), at(u64::MAX));
        lines.push(format!(
            "  Tool RSS: longest-lived process ({g} of {}) {} after {} replies, {} after {}, {} after {}; peak of all {}; {checked} process(es) lived past {} replies and were checked",
            log.starts,
            mib(first.1),
            first.0,
            mib(warm.1),
            warm.0,
            mib(last.1),
            last.0,
            mib(log.rss.iter().map(|&(_, _, b)| b).max().unwrap_or(0)),
            WARM + 8 * 256,
        ));
    }
    if violations.is_empty() {
        lines.push("  every call ended once, as prescribed".to_owned());
        Ok(lines)
    } else {
        let total = violations.len();
        lines.extend(violations.into_iter().take(20).map(|v| format!("  VIOLATION {v}")));
        lines.push(format!("  {total} violation(s)"));
        Err(lines.join("\n"))
    }
}

/// The processes still running with `mark` (see the module's doc), waiting
/// up to [`GUARD`] for them to end; their command lines.
fn survivors(mark: &str) -> Vec<String> {
    let needle = format!("{MARK}={mark}\0").into_bytes();
    let guard = Instant::now();
    loop {
        let mut left = Vec::new();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Ok(environ) = std::fs::read(entry.path().join("environ")) else { continue };
            if environ.windows(needle.len()).any(|w| w == needle.as_slice()) {
                let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                left.push(format!(
                    "{} {}",
                    entry.file_name().to_string_lossy(),
                    String::from_utf8_lossy(&cmdline).replace('\0', " ").trim()
                ));
            }
        }
        if left.is_empty() || guard.elapsed() > GUARD {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether call `i` is in one of the soak's cancel storms: `--cancel-storms`
/// runs of [`STORM_CALLS`] calls, evenly spread.
fn in_storm(i: usize, s: &Settings) -> bool {
    (1..=s.cancel_storms).any(|k| {
        let start = k * s.calls / (s.cancel_storms + 1);
        (start..start + STORM_CALLS).contains(&i)
    })
}

const STORM_CALLS: usize = 64;

/// A Tool's resident set, by pid.
fn rss_of(pid: u32) -> Option<u64> {
    rss(&pid.to_string())
}

/// The call id in a reply line (`"call":"sN"`).
fn reply_call(line: &str) -> Option<&str> {
    let at = line.find("\"call\":\"")? + 8;
    let end = line[at..].find('"')?;
    Some(&line[at..at + end])
}

/// `--cancel-storm`: see the module doc.
fn cancel_storm(lang: Lang, calls: usize, max_mib: u64, s: &Settings) -> Result<String, String> {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let (tool, dir) = tool_command(lang, s)?;
    let (_, _, waiting) = lang.cities();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut child = Command::new("sh")
        .args(["-c", &format!("exec {tool}")])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: cannot start {tool}: {e}", lang.name()))?;
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let started = Instant::now();
    // The writer never waits for a reply: calls, then cancels, as fast as
    // the pipe takes them.
    let (close_tx, close_rx) = std::sync::mpsc::channel::<()>();
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        let mut batch = Vec::with_capacity(1 << 16);
        for i in 0..calls {
            batch.extend_from_slice(
                format!(
                    "{{\"jsonrpc\":\"2.0\",\"method\":\"call\",\"params\":{{\"args\":{{\"city\":{},\"days\":1,\"units\":\"None\"}},\"call\":\"s{i}\",\"run\":\"storm\",\"tool\":\"{FORECAST}\"}}}}\n",
                    quoted(waiting)
                )
                .as_bytes(),
            );
            if batch.len() >= 1 << 16 {
                stdin.write_all(&batch)?;
                batch.clear();
            }
        }
        for i in 0..calls {
            batch.extend_from_slice(
                format!("{{\"jsonrpc\":\"2.0\",\"method\":\"cancel\",\"params\":{{\"call\":\"s{i}\",\"run\":\"storm\"}}}}\n").as_bytes(),
            );
            if batch.len() >= 1 << 16 {
                stdin.write_all(&batch)?;
                batch.clear();
            }
        }
        stdin.write_all(&batch)?;
        // Open until every call has settled: the end of input ends the Tool.
        let _ = close_rx.recv();
        Ok(())
    });
    // The reader says when every call has settled, then reads on to the end
    // of output (the Tool ends once its input does): a second reply for a
    // call, or any other line, fails the storm.
    let (tx, rx) = std::sync::mpsc::channel::<Result<Option<String>, String>>();
    std::thread::spawn(move || {
        let mut counts = vec![0u8; calls];
        let (mut settled, mut ran, mut waited, mut refused) = (0usize, 0usize, 0usize, 0usize);
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let shown = || line.chars().take(300).collect::<String>();
            let index = reply_call(&line).and_then(|c| c.strip_prefix('s')).and_then(|n| n.parse::<usize>().ok());
            let Some(index) = index.filter(|&n| n < calls) else {
                let _ = tx.send(Err(format!("a line that answers no call: {}", shown())));
                return;
            };
            counts[index] += 1;
            if counts[index] > 1 {
                let _ = tx.send(Err(format!("s{index} answered twice: {}", shown())));
                return;
            }
            if line.contains("\"outcome\":{\"Failed\":") {
                ran += 1;
            } else if line.contains("{\"NotRun\":\"cancelled before it started") {
                waited += 1;
            } else if line.contains("{\"NotRun\":\"the Tool is at its bound of calls") {
                refused += 1;
            } else {
                let _ = tx.send(Err(format!("s{index}: {}", shown())));
                return;
            }
            settled += 1;
            if settled == calls {
                let _ = tx.send(Ok(None));
            }
        }
        let _ = tx.send(if settled == calls {
            Ok(Some(format!(
                "{ran} ran and were cancelled, {waited} cancelled before they started, {refused} NotRun past the bound"
            )))
        } else {
            Err(format!("the Tool's output ended with {settled} of {calls} calls settled"))
        });
    });
    // A deadlock misses this by far: a second per 500 calls, and a minute.
    let deadline = Duration::from_secs(60 + calls as u64 / 500);
    let mut peak = 0;
    let mut settled_in = None;
    let outcome = loop {
        if let Some(bytes) = rss_of(pid) {
            peak = peak.max(bytes);
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(None)) => {
                // Every call settled: the end of input lets the Tool end.
                settled_in = Some(started.elapsed());
                let _ = close_tx.send(());
            }
            Ok(Ok(Some(summary))) => break Ok(summary),
            Ok(Err(why)) => break Err(why),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if started.elapsed() < deadline => {}
            Err(_) if settled_in.is_some() => break Err(format!("the Tool did not end within {deadline:?}")),
            Err(_) => break Err(format!("not every call settled within {deadline:?}: a deadlock")),
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    drop(close_tx);
    let _ = writer.join();
    let name = lang.name();
    let summary = outcome.map_err(|why| format!("flow-soak --cancel-storm {calls} {name}: FAILED: {why}"))?;
    if peak > max_mib << 20 {
        return Err(format!(
            "flow-soak --cancel-storm {calls} {name}: FAILED: the Tool's resident set reached {}, over {max_mib} MiB",
            mib(peak)
        ));
    }
    Ok(format!(
        "flow-soak --cancel-storm {calls} {name}: every call settled once in {:.1} s ({summary}); the Tool's peak resident set {}",
        settled_in.unwrap_or_default().as_secs_f64(),
        mib(peak)
    ))
}

fn usage(why: &str) -> ! {
    eprintln!(
        "flow-soak: {why}\nusage: flow-soak [--calls N] [--outstanding K] [--seed S] [--kills K] [--dup-call P] [--dup-reply P] [--delay P] [--max-delay-ms M] [--kill-describe P] [--work DIR] [--keep] [--swap-replies P] [--stalls N] [--stall-ms M] [--cancel-storms N] [--cancel-storm N [--storm-mib M]] rust|python|node|test|mcp..."
    );
    std::process::exit(2)
}

fn main() {
    let exe = std::env::current_exe().unwrap_or_else(|e| usage(&format!("where am I: {e}")));
    let mut s = Settings {
        calls: 2000,
        outstanding: 64,
        seed: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64),
        kills: 8.0,
        dup_call: 0.02,
        dup_reply: 0.02,
        delay: 0.05,
        max_delay_ms: 20,
        kill_describe: 0.2,
        swap_replies: 0.0,
        stalls: 0.0,
        stall_ms: 300,
        cancel_storms: 0,
        work: std::env::temp_dir().join(format!("flow-soak-{}", std::process::id())),
        keep: false,
        repo: Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
        bin_dir: exe.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let mut langs = Vec::new();
    let (mut storm, mut storm_mib) = (None, 512);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage(&format!("{arg} takes a value")));
        let number = |v: String| v.parse::<f64>().unwrap_or_else(|_| usage(&format!("not a number: {v}")));
        match arg.as_str() {
            "--calls" => s.calls = number(value()) as usize,
            "--outstanding" => s.outstanding = number(value()) as usize,
            "--seed" => s.seed = value().parse().unwrap_or_else(|_| usage("--seed: not a number")),
            "--kills" => s.kills = number(value()),
            "--dup-call" => s.dup_call = number(value()),
            "--dup-reply" => s.dup_reply = number(value()),
            "--delay" => s.delay = number(value()),
            "--max-delay-ms" => s.max_delay_ms = number(value()) as u64,
            "--swap-replies" => s.swap_replies = number(value()),
            "--kill-describe" => s.kill_describe = number(value()),
            "--stalls" => s.stalls = number(value()),
            "--stall-ms" => s.stall_ms = number(value()) as u64,
            "--work" => s.work = PathBuf::from(value()),
            "--cancel-storm" => storm = Some(number(value()) as usize),
            "--storm-mib" => storm_mib = number(value()) as u64,
            "--cancel-storms" => s.cancel_storms = number(value()) as usize,
            "--keep" => s.keep = true,
            "rust" => langs.push(Lang::Rust),
            "python" => langs.push(Lang::Python),
            "node" => langs.push(Lang::Node),
            "test" => langs.push(Lang::Test),
            "mcp" => langs.push(Lang::Mcp),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    if langs.is_empty() {
        usage("name at least one Tool");
    }
    if let Some(calls) = storm {
        let mut failed = false;
        for lang in langs {
            match cancel_storm(lang, calls, storm_mib, &s) {
                Ok(line) => println!("{line}"),
                Err(text) => {
                    failed = true;
                    println!("{text}");
                }
            }
        }
        std::process::exit(i32::from(failed));
    }
    std::fs::create_dir_all(&s.work).unwrap_or_else(|e| usage(&format!("{}: {e}", s.work.display())));
    let mut failed = false;
    for lang in langs {
        match soak(lang, &s) {
            Ok(lines) => println!("{}", lines.join("\n")),
            Err(text) => {
                failed = true;
                println!("{text}");
            }
        }
        let _ = std::io::stdout().flush();
    }
    if failed {
        println!("flow-soak: FAILED (logs in {})", s.work.display());
        std::process::exit(1);
    }
    if !s.keep {
        let _ = std::fs::remove_dir_all(&s.work);
    }
}
