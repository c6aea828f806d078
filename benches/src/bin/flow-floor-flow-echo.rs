//! The Flow-protocol floor of the neutral driver's table: a trivial Rust
//! process that answers each `call` with a `reply` whose outcome is `{"Ok":`
//! the call's args `}`, with serde_json and one thread. No checking, no
//! types: what any Tool of the protocol costs at least.
//!
//! `--describe FILE`: answers `describe` with the JSON in FILE instead of no
//! tools, so that the host client can bind to it (the host_client bench).
//! It changes nothing per call.

use std::io::{BufRead, BufReader, BufWriter, Write};

use serde_json::{json, Value};

fn main() -> std::io::Result<()> {
    let mut described = json!({"data": "0.1", "tools": []});
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, file] = args.as_slice() {
        if flag == "--describe" {
            described = serde_json::from_slice(&std::fs::read(file)?)?;
        }
    }
    let mut input = BufReader::with_capacity(64 << 10, std::io::stdin().lock());
    let mut out = BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return out.flush();
        }
        let Ok(message) = serde_json::from_slice::<Value>(&line) else { continue };
        let params = &message["params"];
        let answer = match message["method"].as_str() {
            Some("call") => json!({"jsonrpc": "2.0", "method": "reply", "params": {
                "call": params["call"], "outcome": {"Ok": params["args"]}, "run": params["run"]}}),
            Some("describe") => json!({"jsonrpc": "2.0", "id": message["id"], "result": described.clone()}),
            _ => continue,
        };
        serde_json::to_writer(&mut out, &answer)?;
        out.write_all(b"\n")?;
        // Flush only when no more input waits: replies to lines read together
        // go out together.
        if input.buffer().is_empty() {
            out.flush()?;
        }
    }
}
