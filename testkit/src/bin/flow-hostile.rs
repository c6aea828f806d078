//! flow-hostile: sends one hostile message (`flow_testkit::hostile`) through
//! one side of the protocol and prints, as one JSON line, what became of it
//! and the peak memory of the process that read it.
//!
//! ```sh
//! flow-hostile server CASE   # a call whose args are CASE, into flow-hostile-tool;
//!                            # measures that Tool process
//! flow-hostile server CASE -- CMD ARGS
//!                            # the same into another Tool process serving the
//!                            # hostile listing (a generated Python or TypeScript one)
//! flow-hostile host CASE     # a reply of CASE from flow-hostile-tool --reply CASE
//!                            # to this process's host client; measures this process
//! flow-hostile text CASE FILE  # writes CASE's value text, for the bindings' tests
//! flow-hostile cases         # the catalog: NAME RULE TYPE json|typed BOUND-FACTOR WHAT
//! flow-hostile listing FILE  # writes the listing of the hostile Tools
//! ```
//!
//! Memory is `VmHWM` (peak resident set) less `VmRSS` just before the message
//! arrived: what reading the message cost, its own bytes included. A separate
//! process per case, so that one case's peak is not another's.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;

use flow_core::json::{write_string, Json, Object};
use flow_core::types::parse::listing_from_text;
use flow_core::Limits;
use flow_host::{Connection, HostOptions, ProcessSpec};
use flow_protocol::message::{write_call, write_describe_request, CallKey};
use flow_protocol::server::CallTypes;
use flow_protocol::CallOutcome;
use flow_testkit::hostile::{self, call_line, reply_line, Case};
use flow_testkit::rss;

fn tool_path() -> PathBuf {
    let me = std::env::current_exe().expect("own path");
    me.with_file_name("flow-hostile-tool")
}

struct Report {
    side: &'static str,
    case: &'static Case,
    size: usize,
    baseline: u64,
    peak: u64,
    outcome: String,
    reason: String,
}

impl Report {
    fn print(&self) {
        let mut o = Object::new();
        o.insert("side", Json::str(self.side));
        o.insert("case", Json::str(self.case.name));
        o.insert("rule", Json::str(self.case.rule));
        o.insert("size", Json::Number(flow_core::Number::from_i64(self.size as i64)));
        o.insert("baseline", Json::Number(flow_core::Number::from_i64(self.baseline as i64)));
        o.insert("peak", Json::Number(flow_core::Number::from_i64(self.peak as i64)));
        o.insert("outcome", Json::str(self.outcome.as_str()));
        o.insert("reason", Json::str(self.reason.as_str()));
        println!("{}", Json::Object(o).to_canonical());
    }
}

/// A call into a Tool process serving the hostile listing (by default the
/// echoing `flow-hostile-tool`; `command` to measure another toolkit's) with
/// the hostile value as its argument; the Tool process's memory is read
/// while it still runs.
fn server(case: &'static Case, command: &[String]) -> Report {
    let (program, args) = match command.split_first() {
        Some((program, args)) => (PathBuf::from(program), args),
        None => (tool_path(), &[][..]),
    };
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the Tool process starts (flow-hostile-tool: cargo build -p flow-testkit)");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut line = String::new();
    stdin.write_all(write_describe_request(1).as_bytes()).expect("describe written");
    stdout.read_line(&mut line).expect("describe answered");
    assert!(line.contains("\"result\""), "describe: {line}");
    let baseline = rss::current(Some(pid)).expect("/proc readable");
    let message = call_line(case, "r", "c");
    let size = message.len() - 1;
    // Written from another thread: the Tool may answer before it has read
    // the whole line (it never does today, but the test must not hang if so).
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&message).and_then(|()| stdin.flush());
        stdin
    });
    line.clear();
    stdout.read_line(&mut line).expect("the call answered");
    let peak = rss::peak(Some(pid)).expect("/proc readable");
    drop(writer.join());
    let _ = child.wait();
    let reply = flow_core::json::parse_str(line.trim_end(), &Limits::default()).expect("a reply line is JSON");
    let outcome = reply
        .as_object()
        .and_then(|o| o.get("params"))
        .and_then(|p| p.as_object())
        .and_then(|p| p.get("outcome"))
        .cloned();
    let (outcome, reason) = match outcome.as_ref().and_then(|o| o.as_object()).and_then(|o| o.iter().next()) {
        Some((case, value)) => {
            (case.to_owned(), value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_canonical()))
        }
        None => ("none".to_owned(), line.clone()),
    };
    Report { side: "server", case, size, baseline, peak, outcome, reason }
}

/// This process as the host: calls the Tool that answers with the hostile
/// reply, and reads its own memory.
fn host(case: &'static Case) -> Report {
    let listing = listing_from_text(hostile::LISTING.as_bytes(), &Limits::default()).expect("valid");
    let tool = listing.tools.iter().find(|t| t.tool == case.tool.identity()).expect("the case's Tool");
    let types =
        Arc::new(CallTypes::compile(&listing.declarations, &tool.params, &tool.ok, &tool.err).expect("compiles"));
    let spec = ProcessSpec {
        program: tool_path().to_string_lossy().into_owned(),
        args: vec!["--reply".into(), case.name.into()],
        dir: std::env::current_dir().expect("cwd"),
        env: Vec::new(),
    };
    let connection = Connection::new(spec, HostOptions::default());
    connection.describe().expect("the hostile Tool describes");
    let mut args = String::from("{");
    write_string(&mut args, case.tool.param());
    args.push_str(match case.tool {
        hostile::Tool::Json => ":null}",
        _ => ":\"\"}",
    });
    let key = CallKey::new("r", "c");
    let line = write_call(&key, case.tool.identity(), &args, None);
    let size = reply_line(case, "r", "c").len() - 1;
    let baseline = rss::current(None).expect("/proc readable");
    let outcome = connection.send(key, line, types, |_| Ok(())).wait();
    let peak = rss::peak(None).expect("/proc readable");
    connection.stop();
    let (name, reason) = match &outcome {
        CallOutcome::BadReply(r) | CallOutcome::NotRun(r) | CallOutcome::Unknown(r) => (outcome.case(), r.clone()),
        other => (other.case(), String::new()),
    };
    Report { side: "host", case, size, baseline, peak, outcome: name.to_owned(), reason }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let case = |name: &str| hostile::case(name).unwrap_or_else(|| panic!("no hostile case {name}"));
    if let [side, name, dashes, command @ ..] = args.as_slice() {
        if side == "server" && dashes == "--" && !command.is_empty() {
            server(case(name), command).print();
            return ExitCode::SUCCESS;
        }
    }
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["server", name] => server(case(name), &[]).print(),
        ["host", name] => host(case(name)).print(),
        ["text", name, file] => std::fs::write(file, hostile::value_text(case(name), 0)).expect("written"),
        ["listing", file] => std::fs::write(file, hostile::LISTING).expect("written"),
        // For the bindings' tests, tab-separated: NAME RULE TYPE-TERM
        // json|typed BOUND-FACTOR WHAT.
        ["cases"] => hostile::CASES.iter().for_each(|c| {
            let level = if c.refused_as_json() { "json" } else { "typed" };
            let factor = hostile::memory_bound(c, 1) - hostile::BASELINE;
            println!("{}\t{}\t{}\t{level}\t{factor}\t{}", c.name, c.rule, c.tool.term(), c.what)
        }),
        _ => {
            eprintln!("usage: flow-hostile (server|host) CASE | server CASE -- CMD ARGS | text CASE FILE | listing FILE | cases");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
