//! flow-fake-mcp: a hostile MCP server for the adapter's fault tests
//! (`host/tests/mcp_faults.rs`). It reads one line at a time and, before each
//! response, writes junk a server should not: bytes that are not JSON, an
//! array, an unknown notification, a response to an id nobody sent, a log
//! message. Its tools (all with no arguments) answer:
//!
//! - `ok`: structured `{"n": 1}`;
//! - `ping-first`: sends a `ping` request, waits for the client's answer,
//!   then structured `{"n": 2}` (or `{"n": 0}` if the answer was not a result);
//! - `big`: a response line of `--big BYTES` bytes;
//! - `dupe`: a response with a duplicate key;
//! - `error`: a JSON-RPC error response;
//! - `needs-input`: a modern `resultType` of `input_required`;
//! - `silent`: no answer ever (to be cancelled);
//! - `exit`: the process exits without answering;
//! - `held`: answered `{"n": 3}` at the end of its input;
//! - `close-stdin`: closes its stdin (so the client's next write fails),
//!   writes `stdin-closed` into the `--state` dir, waits for a file `answer`
//!   there, answers `{"n": 4}`, and then is at the end of its input.
//!
//! Flags: `--modern` answers `server/discover` (else -32601),
//! `--silent-probe` leaves it unanswered, `--pages N` splits `tools/list`,
//! `--fail-list` answers `tools/list` with an error, `--state DIR` counts its
//! starts in DIR/starts and writes its pid to DIR/pid-N (N its start number),
//! `--ignore-eof`: at the end of its input, neither answers what it holds nor
//! exits (as a server busy with a call), until killed or two minutes have
//! passed.

use std::io::{self, BufRead, Write};
use std::os::fd::FromRawFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use flow_core::json::{Json, Object};
use flow_core::Limits;
use flow_mcp::jsonrpc::{self, Message, RpcError};

const TOOLS: [&str; 10] =
    ["ok", "ping-first", "big", "dupe", "error", "needs-input", "silent", "exit", "held", "close-stdin"];
/// How long it waits, at most, for what a test should do: bounded, so that
/// a client that fails to kill it leaves no process behind for long.
const PATIENCE: Duration = Duration::from_secs(120);

struct Flags {
    modern: bool,
    silent_probe: bool,
    pages: usize,
    fail_list: bool,
    big: usize,
    state: Option<PathBuf>,
    ignore_eof: bool,
}

fn flags() -> Flags {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value =
        |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok());
    Flags {
        modern: args.iter().any(|a| a == "--modern"),
        silent_probe: args.iter().any(|a| a == "--silent-probe"),
        pages: value("--pages").unwrap_or(1).max(1),
        fail_list: args.iter().any(|a| a == "--fail-list"),
        big: value("--big").unwrap_or(1 << 20),
        state: args.iter().position(|a| a == "--state").and_then(|i| args.get(i + 1)).map(PathBuf::from),
        ignore_eof: args.iter().any(|a| a == "--ignore-eof"),
    }
}

fn record_start(dir: &Path) {
    let file = dir.join("starts");
    let n = std::fs::read_to_string(&file).ok().and_then(|t| t.trim().parse::<u64>().ok()).unwrap_or(0) + 1;
    std::fs::write(&file, n.to_string()).expect("state dir is writable");
    std::fs::write(dir.join(format!("pid-{n}")), std::process::id().to_string()).expect("state dir is writable");
}

/// Its input has ended (or it closed it): answers what it holds and exits,
/// or with `--ignore-eof` does neither.
fn at_end_of_input(flags: &Flags, held: &[Json]) -> ! {
    if flags.ignore_eof {
        std::thread::sleep(PATIENCE);
    } else {
        for id in held {
            out(&jsonrpc::write_result(id, structured(3)));
        }
    }
    std::process::exit(0)
}

fn out(line: &str) {
    let mut stdout = io::stdout().lock();
    // The client may be gone; a fake has nobody to tell.
    let _ = stdout.write_all(line.as_bytes()).and_then(|()| stdout.flush());
}

fn junk() {
    out("\u{1}not json at all\n");
    out("[1,2,3]\n");
    out("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\",\"params\":{}}\n");
    out("{\"jsonrpc\":\"2.0\",\"id\":\"nobody-asked\",\"result\":{}}\n");
    out("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"warning\",\"data\":\"fake log line\"}}\n");
}

fn structured(n: i64) -> Json {
    let value = Json::object([("n", Json::Number(flow_core::Number::from_i64(n)))]);
    Json::object([
        (
            "content",
            Json::Array(vec![Json::object([("type", Json::str("text")), ("text", Json::str(value.to_canonical()))])]),
        ),
        ("structuredContent", value),
    ])
}

fn tools_page(page: usize, pages: usize) -> Json {
    let per = TOOLS.len().div_ceil(pages);
    let tools = TOOLS
        .iter()
        .skip(page * per)
        .take(per)
        .map(|name| {
            Json::object([("name", Json::str(*name)), ("inputSchema", Json::object([("type", Json::str("object"))]))])
        })
        .collect();
    let mut o = Object::new();
    o.insert("tools", Json::Array(tools));
    if page + 1 < pages {
        o.insert("nextCursor", Json::str(format!("page-{}", page + 1)));
    }
    Json::Object(o)
}

fn main() {
    let flags = flags();
    if let Some(dir) = &flags.state {
        record_start(dir);
    }
    eprintln!("flow-fake-mcp: started");
    let limits = Limits { max_bytes: usize::MAX, ..Limits::default() };
    let mut lines = io::stdin().lock().lines();
    let mut held = Vec::new();
    while let Some(Ok(line)) = lines.next() {
        let Message::Request { id, method, params } = jsonrpc::read(line.as_bytes(), &limits) else { continue };
        junk();
        let param = |name: &str| {
            params
                .as_ref()
                .and_then(Json::as_object)
                .and_then(|o| o.get(name))
                .and_then(Json::as_str)
                .map(str::to_owned)
        };
        match method.as_str() {
            "server/discover" if flags.silent_probe => {}
            "server/discover" if flags.modern => out(&jsonrpc::write_result(
                &id,
                Json::object([("supportedVersions", Json::Array(vec![Json::str("2026-07-28")])), ("capabilities", Json::object([("tools", Json::Object(Object::new()))]))]),
            )),
            "initialize" => out(&jsonrpc::write_result(
                &id,
                Json::object([("protocolVersion", Json::str("2025-06-18")), ("capabilities", Json::object([("tools", Json::Object(Object::new()))]))]),
            )),
            "tools/list" if flags.fail_list => out(&jsonrpc::write_error(&id, &RpcError::new(-32000, "no tools today"))),
            "tools/list" => {
                let page = param("cursor").and_then(|c| c.strip_prefix("page-").and_then(|n| n.parse().ok())).unwrap_or(0);
                out(&jsonrpc::write_result(&id, tools_page(page, flags.pages)));
            }
            "tools/call" => match param("name").as_deref() {
                Some("ok") => out(&jsonrpc::write_result(&id, structured(1))),
                Some("ping-first") => {
                    out(&jsonrpc::write_request(&Json::str("server-ping"), "ping", Json::Object(Object::new())));
                    let answered = lines.next().and_then(Result::ok).map(|l| jsonrpc::read(l.as_bytes(), &limits));
                    let n = match answered {
                        Some(Message::Response { id: Json::String(s), result: Ok(_) }) if s == "server-ping" => 2,
                        _ => 0,
                    };
                    out(&jsonrpc::write_result(&id, structured(n)));
                }
                Some("big") => {
                    let padding = "x".repeat(flags.big);
                    out(&jsonrpc::write_result(&id, Json::object([("content", Json::Array(vec![])), ("structuredContent", Json::str(padding))])));
                }
                Some("dupe") => out(&format!("{{\"id\":{},\"jsonrpc\":\"2.0\",\"result\":{{\"structuredContent\":{{\"n\":1,\"n\":2}},\"content\":[]}}}}\n", id.to_canonical())),
                Some("error") => out(&jsonrpc::write_error(&id, &RpcError::new(-32603, "the fake broke"))),
                Some("needs-input") => out(&jsonrpc::write_result(&id, Json::object([("content", Json::Array(vec![])), ("resultType", Json::str("input_required"))]))),
                Some("silent") => {}
                Some("exit") => std::process::exit(0),
                Some("held") => held.push(id),
                Some("close-stdin") => {
                    let dir = flags.state.as_deref().expect("close-stdin needs --state");
                    // SAFETY: fd 0 is ours, and nothing reads it after this:
                    // this call ends its input.
                    drop(unsafe { std::fs::File::from_raw_fd(0) });
                    std::fs::write(dir.join("stdin-closed"), "").expect("state dir is writable");
                    let waited = Instant::now();
                    while !dir.join("answer").exists() && waited.elapsed() < PATIENCE {
                        std::thread::sleep(Duration::from_millis(10));
                    }
                    out(&jsonrpc::write_result(&id, structured(4)));
                    at_end_of_input(&flags, &held);
                }
                _ => out(&jsonrpc::write_result(&id, Json::object([("content", Json::Array(vec![])), ("isError", Json::Bool(true))]))),
            },
            _ => out(&jsonrpc::write_error(&id, &RpcError::new(-32601, "Method not found"))),
        }
    }
    at_end_of_input(&flags, &held);
}
