"""One benchmark table: runs every benchmark of the Rust core, the Python and
Node bindings and the runtimes several times in one run, each beside its peers
as it always runs, and writes a markdown table of medians, ratios against each
peer with the goal beside each, and the facts of the machine.

    make bench-table                 # release builds, 5 rounds: benches/RESULTS.md and its copy in docs/benchmarks.md
    make bench-table RUNS=9
    make bench-table QUICK=1         # 1 round of shortened benchmarks, to target/bench-table/RESULTS.md

Run through make: it builds what the benchmarks measure (release builds of
the Python extension and the Node module, the benches' npm packages). Each
round runs every benchmark once, in turn, so a spell of load on the shared
machine falls on one round of each rather than on all runs of one. Each
benchmark writes its figures as JSON lines to the file FLOW_BENCH_JSON names;
its printed output goes to target/bench-table/logs/.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "target" / "bench-table"
# One figure as a benchmark writes it: bench, id, label, unit, value, and
# maybe outstanding, bytes, p50_us, p99_us; the runner adds its round.
Figure = dict[str, Any]
BEGIN = "<!-- bench-table: begin (written by benches/table.py) -->"
END = "<!-- bench-table: end -->"


@dataclass(frozen=True)
class Bench:
    name: str
    command: Callable[[argparse.Namespace, dict[str, Path]], list[str]]
    cwd: Path


BENCHES = [
    Bench("rust.canonical", lambda a, exe: [str(exe["canonical"]), "--bench"], REPO / "benches"),
    Bench("rust.protocol", lambda a, exe: [str(exe["protocol"]), "--bench"], REPO / "benches"),
    Bench("rust.tool", lambda a, exe: [str(exe["rust_tool"]), "--bench"], REPO / "benches"),
    # The pipelined host client beside the neutral driver, one run (benches/benches/host_client.rs).
    Bench("rust.host", lambda a, exe: [str(exe["host_client"]), "--bench"], REPO / "benches"),
    Bench("rust.memory", lambda a, exe: [str(exe["memory"]), "--bench"], REPO / "benches"),
    Bench("py.decode", lambda a, exe: [a.python, "benches/python/decode.py"], REPO),
    Bench("py.encode", lambda a, exe: [a.python, "benches/python/encode.py"], REPO),
    Bench("py.calls", lambda a, exe: [a.python, "benches/python/calls.py"], REPO),
    Bench("py.memory", lambda a, exe: [a.python, "benches/python/memory.py"], REPO),
    Bench("node.parse", lambda a, exe: [a.node, "benches/node/parse.js"], REPO),
    Bench("node.canonical", lambda a, exe: [a.node, "benches/node/canonical.js"], REPO),
    Bench("node.calls", lambda a, exe: [a.node, "benches/node/calls.js"], REPO),
    Bench("node.memory", lambda a, exe: [a.node, "benches/node/memory.js"], REPO),
    # Every server under one standard-library driver, against trivial floors
    # (docs/runtime-performance.md); the rounds give the medians.
    Bench("neutral", lambda a, exe: [a.python, "benches/neutral/driver.py", "--all", "--runs", "1",
                                     "--calls", "3000" if a.quick else "20000"], REPO),
    # ToolForm's servers against the reference's (benches/toolform/versus.py), server CPU time.
    Bench("tf.guard", lambda a, exe: [a.python, "benches/toolform/guard.py"], REPO),
    Bench("tf.render", lambda a, exe: [a.python, "benches/toolform/render.py"], REPO),
    # One round per run: the table's runs give the medians.
    Bench("tf.parse", lambda a, exe: [a.python, "benches/toolform/parse.py", "--rounds", "1"], REPO),
    # Retrieval at the reference's limit over HTTP, and against bm25s in process (its peer's
    # requirements: benches/toolform/requirements.txt); one round per run, as tf.parse.
    # ab-test against a stand-in endpoint of fixed latency: ToolForm's cost per request beyond it.
    Bench("tf.overhead", lambda a, exe: [a.python, "benches/toolform/overhead.py", "--rounds", "1"], REPO),
    Bench("tf.catalogue", lambda a, exe: [a.python, "benches/toolform/catalogue.py", "--rounds", "1",
                                          "--no-prose"], REPO),
]


@dataclass(frozen=True)
class Versus:
    """One row of the main table: ours against one peer, and the goal.
    `faster` rows give how many times faster ours is (peer's time / ours, or
    our calls/s / the peer's); the others give ours as a multiple of the
    peer's time, as the goals "within N x of its time" are worded."""
    area: str
    what: str
    bench: str
    ours: str
    peer: str
    peer_name: str
    faster: bool
    goal: float | None = None
    strict: bool = False  # "faster than": the ratio must exceed the goal
    outstanding: int | None = None
    # A goal on our figure itself (at most this), not on the ratio to the peer.
    bound: float | None = None
    # Why the goal may not be met, and what a user can choose; printed under
    # the table when a run finds it not met.
    why: str = ""
    # The figure's field compared: "value" (its unit's), or "p50_us" (latency).
    field: str = "value"


# Why a goal may not be met (Versus.why), with where it is written up.
WHY_OVERHEAD_CPU = (
    "most of it is the HTTP client's, which the bare client beside it spends too; the rest (render, parse, grade, "
    "record) is the difference of the two, printed in the benchmark's log (docs/toolform-running.md)"
)
WHY_OVERHEAD_WALL = (
    "wall time beyond the endpoint's latency is the scheduler's on a loaded machine: the bare client loses as "
    "much; ToolForm's own cost is the CPU row above (docs/toolform-running.md, \"What a measurement costs\")"
)
WHY_NODE_PARSE_MEMORY = (
    "V8's young generation holds what a scavenge has not freed yet, beside the tape; `node --max-semi-"
    'space-size=N` bounds it (docs/codec-performance.md, "Peak memory of a decode")'
)
WHY_NODE_DECODE_MEMORY = (
    'the whole typed value is built in Rust before the JavaScript values, so both are alive at the peak; '
    'decoding a list item by item, as the Python binding does, is the cut not yet made (docs/codec-'
    'performance.md, "Peak memory of a decode")'
)
WHY_TOOL_UNDER_HOST = (
    'the client costs about the same CPU per call against the Tool as against the floor, so what is left is the '
    'Tool\'s own work: for `get_forecast` 1.10x the floor\'s instructions under callgrind (28,000 against 25,400) '
    'and a bigger reply for the client to decode; `echo<T>` is a generic Tool, whose calls keep the value path '
    '(args decoded and the result resolved and checked at the call\'s concrete types) (docs/runtime-performance.md, '
    '"The Tool\'s work per call")'
)
WHY_HOST_CLIENT = (
    'the client writes each 16 queued call lines itself, so the floor is no longer idle between 64-call windows, '
    'and its CPU per call is below the driver\'s; the floor then runs about 90% of the wall time behind either '
    'client, so which is faster is how the scheduler shares 2 cores among three processes '
    '(docs/runtime-performance.md, "Writing while the Tool is busy")'
)
WHY_RUST_TOOL = (
    'the generated Rust Tool now costs 1.10x the floor\'s instructions per `get_forecast` call under callgrind '
    '(28,000 against 25,400), so on 2 shared cores the ratio of calls/s moves with how the driver, the Tool and '
    'the floor are scheduled; what is left is mostly allocation: the args\' JSON tree, the example\'s own '
    '`day()` and the pair maps (docs/runtime-performance.md, "The Tool\'s work per call")'
)
WHY_RUST_MCP = (
    'the MCP front serves `echo<T>` with T bound to json.Value, so its calls take the value path (args decoded '
    'and the result resolved and checked); its server CPU per call is about 1.5x the floor\'s (4.5 to 5.0 us '
    'against 3.0 on a loaded machine, 3.5 against 2.0 in a quiet run), and on 2 shared '
    'cores the ratio of calls/s moves with how the driver, the Tool and the floor are scheduled '
    '(docs/runtime-performance.md, "Figures")'
)
WHY_RUST_P50 = (
    'at 1 outstanding a call is one read and one write on each side, as the floor\'s; what is left is the '
    'Tool\'s own work per call (see the calls/s rows), and a wake of the thread that reads '
    '(docs/runtime-performance.md, "The Rust Tool runtime: a call runs where it was read")'
)
WHY_PY_TOOL = (
    "the Tool costs about the floor's server CPU per call (8 to 16.5 us against 9 to 12); what moves"
    " calls/s is the machine: on 2 shared cores one round may run the floor at twice another's rate, and"
    " the Tool's reader-to-worker hop waits for a core the floor does not need"
    ' (docs/runtime-performance.md, "A pool built for the GIL")'
)
WHY_TS_TOOL = (
    "the Tool's CPU per call has two regimes on 2 shared cores: 5.4 to 6.0 us in most runs, 10 to 16 us in about "
    "a third, when the JS thread is woken every ~19 calls instead of ~60; the single-threaded floor stays at 4.2 to "
    "5.2 us, and the Tool's instructions per call are the same in both regimes (docs/runtime-performance.md, "
    '"The TypeScript Tool runtime")'
)
WHY_GUARD = (
    "the large patterns now sit behind a literal screen and repeated texts are read once; what is left is "
    "the Python work per sentence and per finding, reading the tools, strip and the report "
    '(docs/toolform-performance.md, "Guard")'
)
WHY_PARSE = (
    'each request costs both servers the same HTTP server on a new connection (0.2 to 0.3 ms with its '
    'access log) beside about 0.15 ms of our application, so the ratio moves with the load '
    '(docs/toolform-performance.md, "The HTTP layer")'
)
WHY_PARSE_LONG = (
    'what is left is the YAML and TOML readers (PyYAML\'s constructor, tomllib: 4 to 6 ms a reply), the '
    'literal reader of SQL, GraphQL and s-expressions, and per call about 3 µs of grading and 2 µs of its '
    'dict (docs/toolform-performance.md, "Parse")'
)
WHY_PY_DECODE = (
    'what is left is a heap BigInt per int and a Decimal built from its text through a Python call '
    '(docs/codec-performance.md, "Typed decode")'
)
WHY_PY_ENCODE = (
    "most of the rest is building the str: orjson returns bytes, the API a str, and the corpus's emoji "
    'make it four bytes a character (docs/codec-performance.md, "Canonical encode")'
)
WHY_NODE_PARSE = (
    "V8's young generation: a parse's garbage outgrows the 16 MiB semi-spaces and scavenges copy the "
    'document; `node --max-semi-space-size=N` is the user\'s choice (docs/codec-performance.md, "Node '
    'exact parse")'
)
WHY_RUST_CANONICAL = (
    'checking each string\'s UTF-8 is the largest share left (docs/codec-performance.md, "Rust '
    'canonicalize")'
)

WHY_CATALOGUE_NEW = (
    "a new catalogue is read whole before it is ranked, so the margin over 3x is thin: the loader (the IR "
    "and its checks, about a third of the request), the body's JSON, the recent tool sets' key and the web "
    'stack, each a Python step per tool (docs/toolform-performance.md, "Catalogue")'
)


VERSUS = [
    Versus("Rust", "canonical text of the corpus", "rust.canonical", "flow.canonicalize", "serde_json",
           "serde_json parse + serialize (arbitrary_precision, not canonical)", faster=False, goal=0.6,
           why=WHY_RUST_CANONICAL),
    Versus("Rust", "typed decode's peak heap beyond its result, x input size", "rust.memory", "flow.decode",
           "serde_json", "serde_json `from_slice::<Value>` (arbitrary_precision)", faster=False, bound=2.0),
    Versus("Rust", "canonicalize's peak heap beyond its result, x input size", "rust.memory", "flow.canonicalize",
           "serde_json", "serde_json `from_slice::<Value>` (arbitrary_precision)", faster=False, bound=2.0),
    Versus("Python", "typed decode into dataclasses", "py.decode", "flow", "pydantic",
           "pydantic `TypeAdapter(list[Model]).validate_json` (lossy decimals)", faster=True, goal=1.5,
           why=WHY_PY_DECODE),
    Versus("Python", "canonical encode", "py.encode", "flow", "pure",
           "pure-Python canonical encoder", faster=True, goal=10.0),
    Versus("Python", "canonical encode", "py.encode", "flow", "orjson",
           "orjson `dumps(OPT_SORT_KEYS)` (lossy, not canonical)", faster=False, goal=1.0,
           why=WHY_PY_ENCODE),
    Versus("Python", "typed decode's peak memory beyond its result, x input size", "py.memory", "flow", "pydantic",
           "pydantic `TypeAdapter(list[Model]).validate_json`", faster=False, bound=2.0),
    Versus("Python", "calls/s at 64 outstanding, `def`", "py.calls", "flow.def", "mcp",
           "MCP Python SDK `MCPServer`", faster=True, goal=10.0, outstanding=64),
    Versus("Python", "calls/s at 64 outstanding, `async def`", "py.calls", "flow.async", "mcp",
           "MCP Python SDK `MCPServer`", faster=True, goal=10.0, outstanding=64),
    Versus("Python", "calls/s at 1 outstanding, `def`", "py.calls", "flow.def", "mcp",
           "MCP Python SDK `MCPServer`", faster=True, outstanding=1),
    Versus("Python", "calls/s at 1 outstanding, `async def`", "py.calls", "flow.async", "mcp",
           "MCP Python SDK `MCPServer`", faster=True, outstanding=1),
    Versus("Node", "exact parse", "node.parse", "flow.bytes", "lossless",
           "lossless-json `parse`", faster=True, goal=5.0,
           why=WHY_NODE_PARSE),
    Versus("Node", "exact parse", "node.parse", "flow.bytes", "json",
           "`JSON.parse` (lossy)", faster=False, goal=1.0,
           why=WHY_NODE_PARSE),
    Versus("Node", "exact parse's peak memory beyond its result, x input size", "node.memory", "flow.bytes", "json",
           "`JSON.parse` (lossy)", faster=False, bound=2.0,
           why=WHY_NODE_PARSE_MEMORY),
    Versus("Node", "typed decode's peak memory beyond its result, x input size", "node.memory", "flow.decode",
           "lossless", "lossless-json `parse`", faster=False, bound=2.0,
           why=WHY_NODE_DECODE_MEMORY),
    Versus("Node", "canonical text from text", "node.canonical", "flow.text", "jcs.text",
           "`canonicalize(JSON.parse(text))` (RFC 8785, lossy)", faster=True, goal=1.0, strict=True),
    Versus("Node", "canonical text from a parsed value", "node.canonical", "flow.value", "jcs.value",
           "`canonicalize(value)` (RFC 8785, lossy)", faster=True, goal=1.0, strict=True),
    Versus("Node", "calls/s at 1 outstanding", "node.calls", "flow", "mcp",
           "MCP TypeScript SDK `McpServer`", faster=True, goal=1.0, outstanding=1),
    Versus("Node", "calls/s at 64 outstanding", "node.calls", "flow", "mcp",
           "MCP TypeScript SDK `McpServer`", faster=True, goal=2.5, outstanding=64),
    Versus("Rust host", "calls/s at 64 outstanding from one thread, against the trivial Rust Flow floor", "rust.host",
           "floor.handles", "floor.neutral", "standard-library Python neutral driver, same floor", faster=True,
           goal=1.0, outstanding=64, why=WHY_HOST_CLIENT),
    Versus("Rust host", "calls/s at 64 outstanding from one thread, generated Rust Tool `get_forecast`",
           "rust.host", "weather.handles", "floor.handles", "the same host client against the trivial Rust Flow floor",
           faster=True, goal=0.8, outstanding=64,
           why=WHY_TOOL_UNDER_HOST),
    # The like-for-like form of the row above: the same generic `echo` (T = json.Value, `{"value":"hello"}`)
    # answered by the Tool and by the floor, so the Tool's own cost is apart from the forecast's size.
    Versus("Rust host", "calls/s at 64 outstanding from one thread, generated Rust Tool `echo` (like for like: "
           "the floor answers the same `echo`)", "rust.host", "echo.weather.handles", "echo.floor.handles",
           "the same host client against the trivial Rust Flow floor's `echo`", faster=True, goal=0.8,
           outstanding=64, why=WHY_TOOL_UNDER_HOST),
    Versus("runtimes", "neutral driver, calls/s at 64 outstanding, Flow `get_forecast`", "neutral", "rust.weather.flow",
           "floor.rust.flow", "trivial Rust Flow echo (serde_json)", faster=True, goal=0.8, outstanding=64,
           why=WHY_RUST_TOOL),
    Versus("runtimes", "neutral driver, calls/s at 64 outstanding, `--mcp` echo", "neutral", "rust.weather.mcp",
           "floor.rust.mcp", "trivial Rust MCP echo (serde_json)", faster=True, goal=0.8, outstanding=64,
           why=WHY_RUST_MCP),
    Versus("runtimes", "neutral driver, p50 at 1 outstanding, Flow `get_forecast`", "neutral", "rust.weather.flow",
           "floor.rust.flow", "trivial Rust Flow echo (serde_json)", faster=False, goal=1.5, outstanding=1,
           field="p50_us", why=WHY_RUST_P50),
    Versus("runtimes", "neutral driver, p50 at 1 outstanding, `--mcp` echo", "neutral", "rust.weather.mcp",
           "floor.rust.mcp", "trivial Rust MCP echo (serde_json)", faster=False, goal=1.5, outstanding=1,
           field="p50_us", why=WHY_RUST_P50),
    Versus("runtimes", "neutral driver, calls/s at 64 outstanding, Python `--mcp` echo", "neutral",
           "python.weather.mcp", "floor.python", "trivial Python MCP echo (json)", faster=True, goal=0.8,
           outstanding=64, why=WHY_PY_TOOL),
    Versus("runtimes", "neutral driver, calls/s at 64 outstanding, TypeScript `--mcp` echo", "neutral",
           "node.weather.mcp", "node.sdk.mcp", "MCP TypeScript SDK `McpServer`", faster=True, goal=2.5, outstanding=64),
    Versus("runtimes", "neutral driver, calls/s at 64 outstanding, TypeScript `--mcp` echo", "neutral",
           "node.weather.mcp", "floor.node", "trivial Node MCP echo (readline, JSON)", faster=True, goal=0.6,
           outstanding=64, why=WHY_TS_TOOL),
    Versus("ToolForm", "ToolForm guard over 1,000 tools, strict, strip (server CPU time)", "tf.guard", "toolform",
           "reference", "reference toolform 0.0.1, `POST /api/v1/guard`", faster=True, goal=3.0,
           why=WHY_GUARD),
    Versus("ToolForm", "ToolForm render/compare, 200 tools, 133 formats (server CPU time)", "tf.render", "toolform",
           "reference", "reference toolform 0.0.1, `POST /api/v1/render/compare`", faster=True, goal=3.0),
    Versus("ToolForm", "ToolForm parse, the differential corpus, a request per reply (server CPU time)",
           "tf.parse.corpus", "toolform", "reference", "reference toolform 0.0.1, `POST /api/v1/parse`",
           faster=True, goal=3.0,
           why=WHY_PARSE),
    Versus("ToolForm", "ToolForm parse, long replies of ~200 calls (server CPU time)", "tf.parse.long", "toolform",
           "reference", "reference toolform 0.0.1, `POST /api/v1/parse`", faster=True, goal=3.0,
           why=WHY_PARSE_LONG),
    Versus("ToolForm", "ToolForm catalogue retrieval, a new 2,000-tool catalogue per request (server CPU time)",
           "tf.catalogue.new", "toolform", "reference", "reference toolform 0.0.1, `POST /api/v1/catalogue/retrieve`",
           faster=True, goal=3.0, why=WHY_CATALOGUE_NEW),
    Versus("ToolForm", "ToolForm catalogue retrieval, the same 2,000 tools, a new query per request (server CPU time)",
           "tf.catalogue.same", "toolform", "reference",
           "reference toolform 0.0.1, `POST /api/v1/catalogue/retrieve`", faster=True, goal=3.0),
    Versus("ToolForm", "ab-test, ToolForm's CPU per request, its HTTP client included (50 ms endpoint, 4 at a time)",
           "tf.overhead", "toolform.cpu", "floor.cpu", "the same requests from a bare httpx2 client",
           faster=False, bound=1000.0, why=WHY_OVERHEAD_CPU),
    Versus("ToolForm", "ab-test, wall time per request beyond the 50 ms endpoint's (4 at a time)", "tf.overhead",
           "toolform.wall", "floor.wall", "the same requests from the bare httpx2 client", faster=False,
           bound=1000.0, why=WHY_OVERHEAD_WALL),
    Versus("ToolForm", "BM25 index build, 10,000 tools, in process", "tf.catalogue.bm25s.build", "toolform",
           "bm25s", "bm25s 0.3.16 (numpy, method lucene)", faster=True),
    Versus("ToolForm", "BM25 top-8 queries/s, 10,000 tools, in process", "tf.catalogue.bm25s.top8", "toolform",
           "bm25s", "bm25s 0.3.16 (numpy, method lucene)", faster=True),
]

# The calls/s table: every server, whichever language, beside the others
# (the generated Rust Tool beside the Python and TypeScript ones).
RUST_CLIENT = "Rust host client, a thread per slot"
RUST_HANDLES = "Rust host client, handles from one thread"
CALLS = [
    ("rust.protocol", "flow.echo", "Rust stdio server, echo handler", RUST_CLIENT),
    ("rust.tool", "get_forecast", "generated Rust Tool, `get_forecast`", RUST_CLIENT),
    ("rust.tool", "echo_text", "generated Rust Tool, generic `echo<Text>`", RUST_CLIENT),
    ("rust.host", "floor.handles", "trivial Rust Flow echo (floor)", RUST_HANDLES),
    ("rust.host", "floor.threads", "trivial Rust Flow echo (floor)", RUST_CLIENT),
    ("rust.host", "floor.neutral", "trivial Rust Flow echo (floor)", "standard-library Python neutral driver"),
    ("rust.host", "weather.handles", "generated Rust Tool, `get_forecast`", RUST_HANDLES),
    ("rust.host", "weather.threads", "generated Rust Tool, `get_forecast`", RUST_CLIENT),
    ("rust.host", "echo.floor.handles", "trivial Rust Flow echo (floor), generic `echo`", RUST_HANDLES),
    ("rust.host", "echo.weather.handles", "generated Rust Tool, generic `echo<json.Value>`", RUST_HANDLES),
    ("py.calls", "flow.def", "generated Python Tool, `def` handler", "Python pipelining client"),
    ("py.calls", "flow.async", "generated Python Tool, `async def` handler", "Python pipelining client"),
    ("py.calls", "mcp", "MCP Python SDK `MCPServer`", "Python pipelining client"),
    ("node.calls", "flow", "generated TypeScript Tool", "Node pipelining client"),
    ("node.calls", "mcp", "MCP TypeScript SDK `McpServer`", "Node pipelining client"),
    ("node.calls", "cat", "`cat` (a line echo: the bound of any line protocol)", "Node pipelining client"),
]


def sh(*command: str, cwd: Path = REPO) -> str:
    """A command's output, or "?" when it cannot be run (a fact left unknown
    rather than a run lost)."""
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def machine_facts(args: argparse.Namespace) -> dict[str, str]:
    cpu = "?"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    ram = "?"
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        match = re.search(r"MemTotal:\s+(\d+) kB", meminfo.read_text())
        if match:
            ram = f"{int(match.group(1)) / 2**20:.1f} GiB"
    os_name = platform.platform()
    release = Path("/etc/os-release")
    if release.exists():
        match = re.search(r'^PRETTY_NAME="?([^"\n]*)', release.read_text(), re.M)
        if match:
            os_name = f"{match.group(1)}, Linux {platform.release()}"
    commit = sh("git", "rev-parse", "--short=12", "HEAD")
    # The table itself and its copy in the benchmarks chapter change with every run.
    dirty = [line for line in sh("git", "status", "--porcelain").splitlines()
             if not line.endswith(("benches/RESULTS.md", "docs/benchmarks.md"))]
    # The native module's build beside the versions: a table of a debug or an abi3 build says so.
    py_versions = sh(args.python, "-c", "import importlib.metadata as m, platform; "
                     "from flow_toolkit import _native as n; print(platform.python_version(), "
                     "f'flow_toolkit {n.BUILD_PROFILE} build' + (' (abi3)' if n.STABLE_ABI else ''), "
                     "*(f'{p} {m.version(p)}' for p in ('pydantic', 'orjson', 'mcp')), sep=', ')")
    node_versions = [sh(args.node, "--version")]
    for package in ("lossless-json", "canonicalize", "@modelcontextprotocol/sdk"):
        manifest = REPO / "benches" / "node" / "node_modules" / package / "package.json"
        version = json.loads(manifest.read_text())["version"] if manifest.exists() else "?"
        node_versions.append(f"{package} {version}")
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit + (" (with uncommitted changes)" if dirty else ""),
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "RAM": ram,
        "OS": os_name,
        "Rust": sh("rustc", "--version"),
        "Python": py_versions,
        "Node": ", ".join(node_versions),
    }


def build_rust() -> dict[str, Path]:
    """Builds the Rust benches as `cargo bench` does and returns each one's
    executable, which the rounds then run directly (no cargo between runs)."""
    out = subprocess.run(
        ["cargo", "bench", "--no-run", "--locked", "-p", "flow-benches", "--message-format=json-render-diagnostics"],
        cwd=REPO, stdout=subprocess.PIPE, text=True, check=True,
    ).stdout
    exe = {}
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message["target"]["kind"] == ["bench"]:
            exe[message["target"]["name"]] = Path(message["executable"])
    return exe


def selected(args: argparse.Namespace) -> list[Bench]:
    """The benchmarks ``--only`` names (all without it)."""
    return [b for b in BENCHES if not args.only or any(b.name.startswith(o) for o in args.only)]


def run_rounds(args: argparse.Namespace, exe: dict[str, Path]) -> tuple[list[Figure], list[str], list[float]]:
    """Runs every benchmark once per round; returns the figures (each with its
    round), the failures, and the 1-minute load average before each run."""
    logs = WORK / "logs"
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    figures: list[Figure] = []
    failures: list[str] = []
    loads: list[float] = []
    env = dict(os.environ)
    if args.quick:
        env["FLOW_BENCH_QUICK"] = "1"
    for round in range(1, args.runs + 1):
        for bench in selected(args):
            out = WORK / f"{bench.name}.{round}.jsonl"
            out.unlink(missing_ok=True)
            env["FLOW_BENCH_JSON"] = str(out)
            loads.append(os.getloadavg()[0])
            print(f"round {round}/{args.runs}  {bench.name:<15} load {load()}", end="  ", file=sys.stderr, flush=True)
            start = time.monotonic()
            with open(logs / f"{bench.name}.{round}.log", "w") as log:
                done = subprocess.run(bench.command(args, exe), cwd=bench.cwd, env=env, stdout=log,
                                      stderr=subprocess.STDOUT)
            print(f"{time.monotonic() - start:6.1f} s", file=sys.stderr, flush=True)
            if done.returncode != 0:
                failures.append(f"{bench.name} (round {round}): exit {done.returncode}, see {log.name}")
                continue
            for line in out.read_text().splitlines() if out.exists() else []:
                figures.append(json.loads(line) | {"round": round})
    return figures, failures, loads


def key(f: Figure) -> tuple[str, str, int | None]:
    outstanding = f.get("outstanding")
    return f["bench"], f["id"], None if outstanding is None else int(outstanding)


def by_round(figures: list[Figure], bench: str, id: str, outstanding: int | None) -> dict[int, Figure]:
    return {f["round"]: f for f in figures if key(f) == (bench, id, outstanding)}


def median_of(runs: dict[int, Figure], field: str = "value") -> float | None:
    values = [f[field] for f in runs.values() if field in f]
    return statistics.median(values) if values else None


def ratio(ours: float, peer: float, unit: str, faster: bool) -> float:
    """Ours against the peer as the row words it (see Versus)."""
    if unit in ("ms", "µs", "x input"):  # lower is better
        return peer / ours if faster else ours / peer
    return ours / peer if faster else peer / ours


def figure(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "ms":
        return f"{value:,.1f} ms" if value < 100 else f"{value:,.0f} ms"
    if unit == "x input":
        return f"{value:.2f}x input"
    if unit == "µs":
        return f"{value:,.0f} µs"
    return f"{value:,.0f}"


def versus_rows(figures: list[Figure]) -> list[str]:
    rows = [
        "| area | what | flow-toolkit | peer | peer's figure | ratio (range over rounds) | goal | met |",
        "|---|---|---|---|---|---|---|---|",
    ]
    notes: list[str] = []
    for v in VERSUS:
        ours = by_round(figures, v.bench, v.ours, v.outstanding)
        peer = by_round(figures, v.bench, v.peer, v.outstanding)
        rounds = sorted(set(ours) & set(peer))
        if not rounds:
            rows.append(f"| {v.area} | {v.what} | n/a | {v.peer_name} | n/a | n/a | | |")
            continue
        unit = "µs" if v.field == "p50_us" else ours[rounds[0]]["unit"]
        # Only rounds where both ran: a round one side missed would tilt its median.
        ours_median = median_of({n: ours[n] for n in rounds}, v.field)
        peer_median = median_of({n: peer[n] for n in rounds}, v.field)
        assert ours_median is not None and peer_median is not None
        r = ratio(ours_median, peer_median, unit, v.faster)
        each = [ratio(ours[n][v.field], peer[n][v.field], unit, v.faster) for n in rounds]
        spread = f" ({min(each):.2f} to {max(each):.2f})" if len(each) > 1 else ""
        words = "as fast" if v.faster else "its time"
        if v.bound is not None:
            goal = f"<= {v.bound:g}x input" if unit == "x input" else f"<= {figure(v.bound, unit)}"
            met = "yes" if ours_median <= v.bound else "**no**"
        elif v.goal is None:
            goal, met = "none set", ""
        elif v.faster:
            goal = "faster (> 1x)" if v.strict else f">= {v.goal:g}x as fast"
            met = "yes" if (r > v.goal if v.strict else r >= v.goal) else "**no**"
        else:
            goal = f"<= {v.goal:g}x its time"
            met = "yes" if r <= v.goal else "**no**"
        shown = f"{r:.2f}"
        if v.goal is not None and float(shown) == v.goal:
            # 2.996 must not read "3.00x" beside "no": a digit more.
            shown = f"{r:.3f}"
        if met == "**no**" and v.why:
            notes.append(v.why)
            met += f" ({len(notes)})"
        # A bound is on our figure alone: a ratio to a peer near zero says nothing.
        compared = "n/a (the goal bounds ours)" if v.bound is not None else f"{shown}x {words}{spread}"
        rows.append(f"| {v.area} | {v.what} | {figure(ours_median, unit)} | {v.peer_name} | "
                    f"{figure(peer_median, unit)} | {compared} | {goal} | {met} |")
    if notes:
        rows += ["", "Where a goal is not met, why:", ""]
        rows += [f"{n}. {why}" for n, why in enumerate(notes, 1)]
    return rows


def calls_rows(figures: list[Figure]) -> list[str]:
    rows = ["| server | client | 1 outstanding | 64 outstanding |", "|---|---|---|---|"]
    for bench, id, what, client in CALLS:
        cells = [figure(median_of(by_round(figures, bench, id, n)), "calls/s") for n in (1, 64)]
        rows.append(f"| {what} | {client} | {cells[0]} | {cells[1]} |")
    return rows


def neutral_rows(figures: list[Figure]) -> list[str]:
    """Every server under the neutral driver: calls/s, the server's CPU per
    call (from /proc), and p50 latency at 1 outstanding."""
    rows = ["| server | calls/s at 64 outstanding | server CPU per call | p50 at 1 outstanding |", "|---|---|---|---|"]
    ids: list[str] = []
    for f in figures:
        if f["bench"] == "neutral" and f["id"] not in ids:
            ids.append(f["id"])
    for id in ids:
        at64, at1 = by_round(figures, "neutral", id, 64), by_round(figures, "neutral", id, 1)
        label = next(iter((at64 or at1).values()))["label"]
        cpu, p50 = median_of(at64, "cpu_us_per_call"), median_of(at1, "p50_us")
        rows.append(f"| {label} | {figure(median_of(at64), 'calls/s')} | "
                    f"{'n/a' if cpu is None else f'{cpu:.1f} µs'} | {'n/a' if p50 is None else f'{p50:.0f} µs'} |")
    return rows


def all_rows(figures: list[Figure]) -> list[str]:
    rows = ["| benchmark | contender | outstanding | median | min | max | p50 / p99 latency | rounds |",
            "|---|---|---|---|---|---|---|---|"]
    seen: list[tuple[str, str, int | None]] = []
    for f in figures:
        if key(f) not in seen:
            seen.append(key(f))
    for k in seen:
        runs = by_round(figures, *k)
        first = next(iter(runs.values()))
        unit, values = first["unit"], [f["value"] for f in runs.values()]
        median = statistics.median(values)
        unit_text = "" if unit in ("ms", "µs", "x input") else f" {unit}"
        if "bytes" in first and unit == "ms":
            unit_text = f" ({first['bytes'] / 1e3 / median:,.0f} MB/s)"
        latency = ""
        p50, p99 = median_of(runs, "p50_us"), median_of(runs, "p99_us")
        if p50 is not None and p99 is not None:
            latency = f"{p50:,.0f} µs / {p99:,.0f} µs"
        rows.append(f"| `{k[0]}` | {first['label']} | {k[2] or ''} | {figure(median, unit)}{unit_text} | "
                    f"{figure(min(values), unit)} | {figure(max(values), unit)} | {latency} | {len(values)} |")
    return rows


def write(args: argparse.Namespace, facts: dict[str, str], figures: list[Figure], failures: list[str],
          loads: list[float], minutes: float) -> None:
    command = "make bench-table" + (" QUICK=1" if args.quick else "")
    if args.runs != (1 if args.quick else 5):
        command += f" RUNS={args.runs}"
    if args.only:
        command = f"benches/table.py --only {' --only '.join(args.only)}, as {command}"
    load_line = (f"{facts.pop('load at start')} at the start, {facts.pop('load at end')} at the end (1, 5, 15 min); "
                 f"1-min load before each benchmark run: {min(loads, default=0):.1f} to {max(loads, default=0):.1f}")
    summary = [
        f"`{command}`, {facts['date']}, commit {facts['commit']}: {args.runs} round(s)"
        + (" of the shortened (quick) benchmarks" if args.quick else "")
        + f", {minutes:.1f} min. {facts['CPU']}, {facts['cores']} cores, {facts['RAM']}; load average {load_line}.",
        "",
        "Each figure is the median over the rounds of what the benchmark reports for one round: in ms,"
        " the median (Rust, Node) or the best (Python) of its repeated runs in one process, in wall time"
        " (Rust) or the process's CPU time (Python, Node); calls/s over one stretch of calls, wall time."
        " A ratio is of the two medians; the range is the same ratio in each round, where both contenders"
        " ran in the same process, one after the other or in turns.",
        "",
        *versus_rows(figures),
        "",
        "Calls per second (median over the rounds), one echo call of a short text unless named;"
        " each language's client is its own, so compare servers within a language's rows:",
        "",
        *calls_rows(figures),
        "",
        "Every server under one neutral driver (standard-library Python, one line per write, its own reader"
        " thread; benches/neutral/driver.py), so no server runs under a client of its own:",
        "",
        *neutral_rows(figures),
    ]
    if failures:
        summary += ["", "Failed runs (their figures are missing above):", "", *(f"- {f}" for f in failures)]
    lines = [
        "# Benchmark table",
        "",
        "Written by `benches/table.py` (`make bench-table`; see docs/benchmarks.md). Not tests:"
        " the machine is shared, so read the ratios and the load beside them.",
        "",
        *summary,
        "",
        "## Machine",
        "",
        "| fact | value |",
        "|---|---|",
        *(f"| {name} | {value} |" for name, value in facts.items()),
        f"| load average | {load_line} |",
        "",
        "## Every figure",
        "",
        "Medians, minima and maxima over the rounds; throughput is of the corpus's bytes.",
        "",
        *all_rows(figures),
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines))
    print(f"wrote {args.out}", file=sys.stderr)
    if args.copy:
        page = args.copy.read_text()
        start, end = page.find(BEGIN), page.find(END)
        if start < 0 or end < start:
            sys.exit(f"{args.copy}: no '{BEGIN}' ... '{END}' block to write the table into")
        block = "\n".join([BEGIN, "", *summary, "", END])
        args.copy.write_text(page[:start] + block + page[end + len(END):])
        print(f"wrote the table into {args.copy}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, help="rounds: each benchmark runs once per round (default 5; quick 1)")
    parser.add_argument("--quick", action="store_true", help="shortened benchmarks (FLOW_BENCH_QUICK), 1 round")
    parser.add_argument("--out", type=Path, help="the table (default benches/RESULTS.md; quick: under target/)")
    parser.add_argument("--copy", type=Path, help="also write the summary between the markers of this page"
                        " (make bench-table: docs/benchmarks.md)")
    parser.add_argument("--only", action="append", help="benchmarks whose name starts with this (repeatable)")
    parser.add_argument("--python", default=str(REPO / ".venv" / "bin" / "python"))
    parser.add_argument("--node", default="node")
    args = parser.parse_args()
    args.runs = args.runs or (1 if args.quick else 5)
    args.out = args.out or (WORK / "RESULTS.md" if args.quick else REPO / "benches" / "RESULTS.md")
    WORK.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    # The Rust benches are built only when one of them runs.
    exe = build_rust() if any(b.name.startswith("rust.") for b in selected(args)) else {}
    facts = machine_facts(args)
    facts["load at start"] = load()
    figures, failures, loads = run_rounds(args, exe)
    facts["load at end"] = load()
    (WORK / "figures.jsonl").write_text("".join(json.dumps(f) + "\n" for f in figures))
    write(args, facts, figures, failures, loads, (time.monotonic() - started) / 60)
    if failures:
        sys.exit("\n".join(["some benchmark runs failed:", *failures]))


if __name__ == "__main__":
    main()
