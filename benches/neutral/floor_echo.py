"""The Python floor of the neutral driver's table: a trivial MCP echo server,
standard library only (json, one thread), answering initialize, tools/list
and tools/call of one `echo` tool. What any Python MCP server costs at least."""

import json
import sys
from typing import Any

TOOLS: dict[str, Any] = {
    "tools": [{"name": "echo", "inputSchema": {"type": "object", "properties": {"value": {}}, "required": ["value"]}}]
}


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        method = message.get("method")
        result: dict[str, Any]
        if method == "initialize":
            result = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "floor", "version": "0"},
            }
        elif method == "tools/list":
            result = TOOLS
        elif method == "tools/call":
            value = message["params"]["arguments"]["value"]
            result = {
                "content": [{"type": "text", "text": json.dumps(value)}],
                "structuredContent": {"result": value},
                "isError": False,
            }
        else:
            continue
        out.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
