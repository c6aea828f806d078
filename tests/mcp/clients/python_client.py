"""A Flow Tool served over MCP, driven by the official Python SDK client.

    python_client.py MODE PLAN -- CMD ARGS...

MODE is the SDK's connect mode: `auto` probes `server/discover` (the
2026-07-28 era when the server answers it), `legacy` does the `initialize`
handshake. PLAN is JSON:

    {"calls":  [{"name": ..., "arguments": {...}}, ...],
     "cancel": {"name": ..., "arguments": {...}},   a call that waits for its cancel
     "then":   {"name": ..., "arguments": {...}}}   a call after the cancel

It lists every page of tools, makes each call, gives up on the cancel call
after half a second (the SDK then sends `notifications/cancelled`; the call
waits for that cancel, so the timeout always fires and nothing is timed),
makes the last call, and prints one JSON report on stdout: the tools and each
result as the SDK parsed and checked them (a result whose structured content
does not match the output schema raises here), or what was raised.
"""

import json
import sys

import anyio
from mcp import Client, StdioServerParameters


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def call(client, step, timeout=None):
    try:
        result = await client.call_tool(step["name"], step["arguments"], read_timeout_seconds=timeout)
    except Exception as e:  # noqa: BLE001 - the report says what the SDK raised
        return {"raised": f"{type(e).__name__}: {e}"}
    return dump(result)


async def main():
    mode, plan, dash, command, *args = sys.argv[1:]
    assert dash == "--", __doc__
    plan = json.loads(plan)
    server = StdioServerParameters(command=command, args=args)
    report = {}
    async with Client(server, mode=mode) as client:
        report["protocolVersion"] = client.protocol_version
        tools, cursor = [], None
        while True:
            page = await client.list_tools(cursor=cursor)
            tools.extend(dump(tool) for tool in page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
        report["tools"] = tools
        report["calls"] = [await call(client, step) for step in plan["calls"]]
        report["cancel"] = await call(client, plan["cancel"], timeout=0.5)
        report["then"] = await call(client, plan["then"])
    print(json.dumps(report))


anyio.run(main)
