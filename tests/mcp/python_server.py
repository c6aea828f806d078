"""An MCP server written with the official Python SDK (`mcp` 2.x, `MCPServer`),
started over stdio by the MCP adapter's tests (host/tests/mcp_python.rs).

The SDK serves both eras; a client that probes `server/discover` gets the
2026-07-28 era. Its tools cover what the adapter maps:

- add, greet: structured results (a pydantic return type); greet's
  `greeting` has a default, for Option parameters left out;
- divide: a declared error as an `isError` result with structured content,
  and a ToolError, which the SDK answers with an `isError` text that is
  not JSON;
- note: structured content holding null where the declaration has an
  Option<Text> field (pydantic writes None as null);
- slow, slow_started, was_cancelled: a call to cancel, a way to know it
  runs, and a way to see the cancel arrived;
- pid, crash: which process answers, and a tool that ends it.
"""

import asyncio
import os
import sys

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

mcp = MCPServer("flow-adapter-test", version="0.1.0")


class Sum(BaseModel):
    total: int
    terms: list[int]


class Greeting(BaseModel):
    text: str


class Note(BaseModel):
    text: str | None = None


class Pid(BaseModel):
    pid: int


class Cancelled(BaseModel):
    cancelled: bool


class Started(BaseModel):
    started: bool


@mcp.tool()
def add(a: int, b: int) -> Sum:
    """Adds two integers."""
    return Sum(total=a + b, terms=[a, b])


@mcp.tool()
def greet(name: str, greeting: str = "Hello") -> Greeting:
    """Greets someone; the greeting is optional."""
    return Greeting(text=f"{greeting}, {name}!")


def structured(value: dict, is_error: bool) -> CallToolResult:
    import json

    text = json.dumps(value)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=value, is_error=is_error)


@mcp.tool()
def divide(a: int, b: int) -> CallToolResult:
    """Integer division; dividing by zero is the declared error."""
    if b < 0:
        raise ToolError("negative divisors are not supported")
    if b == 0:
        return structured({"DivisionByZero": {"dividend": a}}, is_error=True)
    return structured({"quotient": a // b, "remainder": a % b}, is_error=False)


@mcp.tool()
def note() -> Note:
    """A note without text: pydantic writes the None as null."""
    return Note()


started = asyncio.Event()
cancelled = asyncio.Event()


@mcp.tool()
async def slow() -> Greeting:
    """Waits until cancelled."""
    started.set()
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        cancelled.set()
        raise
    return Greeting(text="finished")


@mcp.tool()
async def slow_started() -> Started:
    """Whether a slow call is running (waiting a while for one)."""
    try:
        await asyncio.wait_for(started.wait(), timeout=60)
    except TimeoutError:
        pass
    return Started(started=started.is_set())


@mcp.tool()
async def was_cancelled() -> Cancelled:
    """Whether a slow call was cancelled (waiting a while for it)."""
    try:
        await asyncio.wait_for(cancelled.wait(), timeout=60)
    except TimeoutError:
        pass
    return Cancelled(cancelled=cancelled.is_set())


@mcp.tool()
def pid() -> Pid:
    """The server's process id."""
    return Pid(pid=os.getpid())


@mcp.tool()
def crash() -> Greeting:
    """Ends the server process mid-call."""
    os._exit(3)


if __name__ == "__main__":
    print("flow-adapter-test: serving on stdio", file=sys.stderr, flush=True)
    mcp.run()
