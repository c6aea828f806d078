//! The MCP floor of the neutral driver's table: a trivial Rust MCP server
//! with serde_json and one thread, answering `initialize`, `tools/list` and
//! `tools/call` of one `echo` tool (its `value` back as text and as structured
//! content). No checking: what any MCP server costs at least.

use std::io::{BufRead, BufReader, BufWriter, Write};

use serde_json::{json, Value};

fn main() -> std::io::Result<()> {
    let mut input = BufReader::with_capacity(64 << 10, std::io::stdin().lock());
    let mut out = BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return out.flush();
        }
        let Ok(message) = serde_json::from_slice::<Value>(&line) else { continue };
        let id = &message["id"];
        let result = match message["method"].as_str() {
            _ if id.is_null() => continue,
            Some("initialize") => json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                "serverInfo": {"name": "floor", "version": "0"}}),
            Some("tools/list") => json!({"tools": [{"name": "echo", "inputSchema": {"type": "object",
                "properties": {"value": {}}, "required": ["value"]}}]}),
            Some("tools/call") => {
                let value = &message["params"]["arguments"]["value"];
                json!({"content": [{"type": "text", "text": value.to_string()}], "structuredContent": {"result": value}, "isError": false})
            }
            _ => continue,
        };
        serde_json::to_writer(&mut out, &json!({"jsonrpc": "2.0", "id": id, "result": result}))?;
        out.write_all(b"\n")?;
        if input.buffer().is_empty() {
            out.flush()?;
        }
    }
}
