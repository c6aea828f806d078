//! flow-fake-tool: the weather Tool with faults injected, for the host's
//! tests. It runs the real server core for reading and describing, and the
//! handlers of `weather.rs` one call at a time, then misbehaves on purpose.
//!
//! Per call, by the call id's prefix:
//! - `crash-after-read...`: exits (status 3) as soon as it has read the call;
//! - `twice...`: sends its reply twice;
//! - `stray...`: first sends a reply for a call nobody made (`stray-unknown`);
//! - `oversized...`: replies with a line of more than 16 MiB;
//! - `garbage...`: first sends a line that is not JSON;
//! - `malformed...`: replies with the outcome `{"Maybe":1}`;
//! - `badvalue...`: replies `{"Ok":42}`, which is no forecast;
//! - `hold-until=ID`: holds its reply until call ID has been answered;
//! - `envelope-id-null...`, `envelope-extra...`, `envelope-1.0...`: replies
//!   with `"id":null`, an extra top-level member, or `"jsonrpc":"1.0"` in the
//!   envelope (what some JSON-RPC libraries write).
//!
//! Per process, by flag:
//! - `--data VERSION`: describes with this data version;
//! - `--bad-fingerprint NAME`: describes Tool NAME with another fingerprint;
//! - `--state DIR`: counts its starts in DIR/starts (for the next two), and
//!   writes its pid to DIR/pid-N, N its start number;
//! - `--drop-after-restart NAME`: from the second start on, does not serve NAME;
//! - `--close-stdin-on-first-start`: on the first start, closes its stdin
//!   and then answers describe (so no call can reach it), then waits to be
//!   ended;
//! - `--ignore-eof`: at the end of its input, neither answers what it holds
//!   nor exits (as a buggy Tool, or one stuck in a handler), until killed or
//!   two minutes have passed;
//! - `--answer-held-at-eof`: at the end of its input, writes the replies it
//!   holds, then exits (a Tool finishing its calls when asked to stop).

#[path = "../weather.rs"]
mod weather;

use std::io::{BufRead, Write};
use std::os::fd::FromRawFd;
use std::path::PathBuf;
use std::time::Duration;

use flow_core::fingerprint::describe_entry;
use flow_core::json::Json;
use flow_core::types::identity_name;
use flow_protocol::message::{write_reply, CallKey};
use flow_protocol::{Event, Outcome, ServedEntry, ServerCore};

#[derive(Default)]
struct Flags {
    data: Option<String>,
    bad_fingerprint: Vec<String>,
    state: Option<PathBuf>,
    drop_after_restart: Vec<String>,
    close_stdin_on_first_start: bool,
    ignore_eof: bool,
    answer_held_at_eof: bool,
}

fn flags() -> Flags {
    let mut flags = Flags::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} takes a value"));
        match arg.as_str() {
            "--data" => flags.data = Some(value()),
            "--bad-fingerprint" => flags.bad_fingerprint.push(value()),
            "--state" => flags.state = Some(PathBuf::from(value())),
            "--drop-after-restart" => flags.drop_after_restart.push(value()),
            "--close-stdin-on-first-start" => flags.close_stdin_on_first_start = true,
            "--ignore-eof" => flags.ignore_eof = true,
            "--answer-held-at-eof" => flags.answer_held_at_eof = true,
            other => panic!("unknown flag {other}"),
        }
    }
    flags
}

/// This process's start number (1 for the first), counted in the state dir.
fn start_number(flags: &Flags) -> u64 {
    let Some(dir) = &flags.state else { return 1 };
    let file = dir.join("starts");
    let n = std::fs::read_to_string(&file).ok().and_then(|t| t.trim().parse::<u64>().ok()).unwrap_or(0) + 1;
    std::fs::write(&file, n.to_string()).expect("state dir is writable");
    std::fs::write(dir.join(format!("pid-{n}")), std::process::id().to_string()).expect("state dir is writable");
    n
}

fn main() {
    let flags = flags();
    let start = start_number(&flags);
    let listing = weather::listing();
    let mut entries = Vec::new();
    for tool in &listing.tools {
        let name = identity_name(&tool.tool);
        if start > 1 && flags.drop_after_restart.iter().any(|n| n == name) {
            continue;
        }
        let entry = describe_entry(tool, &listing.declarations).expect("describable");
        let member = |k: &str| entry.as_object().and_then(|o| o.get(k)).cloned().expect("entry member");
        let mut fingerprint = member("fingerprint").as_str().expect("text").to_owned();
        if flags.bad_fingerprint.iter().any(|n| n == name) {
            fingerprint = format!("sha256:{}", "0".repeat(64));
        }
        entries.push(ServedEntry { tool: tool.tool.clone(), fingerprint, signature: member("signature") });
    }
    let mut core = ServerCore::new(&listing, entries).expect("served");
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    let mut write = |line: &str| {
        let _ = out.write_all(line.as_bytes()).and_then(|()| out.flush());
    };
    let mut held: Vec<(String, String)> = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        for event in core.receive(&line) {
            match event {
                Event::Write(text) => {
                    let describe = text.contains("\"result\":");
                    let text = match (&flags.data, describe) {
                        (Some(data), true) => text.replace(
                            "\"data\":\"0.1\"",
                            &format!("\"data\":{}", Json::str(data.as_str()).to_canonical()),
                        ),
                        _ => text,
                    };
                    if describe && start == 1 && flags.close_stdin_on_first_start {
                        // Closed before describe is answered, so that the host
                        // cannot write a call before the pipe has no reader.
                        // SAFETY: fd 0 is ours; nothing reads it after this.
                        drop(unsafe { std::fs::File::from_raw_fd(0) });
                        write(&text);
                        std::thread::sleep(Duration::from_secs(30));
                        std::process::exit(0);
                    }
                    write(&text);
                }
                Event::Log(text) => eprintln!("flow-fake-tool: {text}"),
                Event::Cancel(_) => {}
                Event::Start(call) => {
                    let key = call.key.clone();
                    let id = key.call.clone();
                    if id.starts_with("crash-after-read") {
                        std::process::exit(3);
                    }
                    let result = weather::handle(*call);
                    let mut replies = core.finish(&key, result);
                    if id.starts_with("twice") {
                        replies.push(replies[0].clone());
                    } else if id.starts_with("stray") {
                        replies.insert(
                            0,
                            write_reply(
                                &CallKey::new(key.run.clone(), "stray-unknown"),
                                &Outcome::NotRun("nobody asked".into()),
                            ),
                        );
                    } else if id.starts_with("oversized") {
                        let big = "x".repeat(16 * 1024 * 1024 + 1024);
                        replies = vec![write_reply(&key, &Outcome::Ok(Json::str(big).to_canonical()))];
                    } else if id.starts_with("garbage") {
                        replies.insert(0, "this is not json {\n".to_owned());
                    } else if id.starts_with("badvalue") {
                        replies = vec![write_reply(&key, &Outcome::Ok("42".into()))];
                    } else if id.starts_with("envelope-id-null") {
                        replies = replies.iter().map(|r| r.replacen('{', "{\"id\":null,", 1)).collect();
                    } else if id.starts_with("envelope-extra") {
                        replies = replies.iter().map(|r| r.replacen('{', "{\"extra\":true,", 1)).collect();
                    } else if id.starts_with("envelope-1.0") {
                        replies = replies
                            .iter()
                            .map(|r| r.replacen("\"jsonrpc\":\"2.0\"", "\"jsonrpc\":\"1.0\"", 1))
                            .collect();
                    } else if id.starts_with("malformed") {
                        replies =
                            vec![write_reply(&key, &Outcome::Ok("0".into())).replace("{\"Ok\":0}", "{\"Maybe\":1}")];
                    }
                    if let Some(awaited) = id.strip_prefix("hold-until=") {
                        held.push((awaited.to_owned(), replies.concat()));
                        continue;
                    }
                    for reply in &replies {
                        write(reply);
                    }
                    // Release what waited for this call, in turn.
                    let mut answered = vec![id];
                    while let Some(done) = answered.pop() {
                        let (ready, rest): (Vec<_>, Vec<_>) = held.drain(..).partition(|(awaited, _)| *awaited == done);
                        held = rest;
                        for (_, text) in ready {
                            write(&text);
                            if let Some(call) = text.split("\"call\":\"").nth(1).and_then(|t| t.split('"').next()) {
                                answered.push(call.to_owned());
                            }
                        }
                    }
                }
            }
        }
    }
    if flags.ignore_eof {
        // Bounded, so that a host that fails to kill it leaves no process
        // behind for long.
        std::thread::sleep(Duration::from_secs(120));
    } else if flags.answer_held_at_eof {
        for (_, text) in held {
            write(&text);
        }
    }
}
