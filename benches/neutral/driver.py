"""The neutral driver: one client for every server, ours and the floors, so no
server is measured under a client of its own.

Python standard library only. It starts the server, writes each call as its own
line with its own os.write (no batching on our side), reads replies on its own
reader thread, keeps OUTSTANDING calls open, and makes N calls. Each figure is
the median of RUNS fresh processes. Server CPU per call comes from
/proc/PID/stat (user + system, every thread), read before and after the timed
calls, so start-up and warm-up are not counted.

    python3 benches/neutral/driver.py --protocol flow --tool ID --args '{"x":1}' -- CMD ARGS...
    python3 benches/neutral/driver.py --all [--calls N] [--runs R]   # every server, one table
    make bench-table                                                 # also runs --all, one run per round

Protocols: `flow` (a `call` notification, matched to its `reply` by the call
id) and `mcp` (initialize, then `tools/call` requests, matched by id).
A benchmark, never a test: it asserts only that every call was answered.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Run:
    calls_per_s: float
    cpu_us_per_call: float
    p50_us: float
    # This driver's own CPU (every thread), to set a client beside it.
    client_cpu_us_per_call: float = 0.0


def cpu_seconds(pid: int) -> float:
    """User plus system time of every thread of `pid`, in seconds."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()
    # After the name: state is field 3; utime and stime are fields 14 and 15.
    return (int(fields[11]) + int(fields[12])) / TICKS


class Server:
    """A server process and a reader thread that completes calls by number.

    Cheap on purpose, so the driver is not what is measured: the reader finds
    a reply's call number by a byte search (no JSON tree), and hands the writer
    one token per reply through a SimpleQueue (C, no Python-level lock)."""

    def __init__(self, command: list[str], protocol: str, total: int, cwd: Path | None = None) -> None:
        self.protocol = protocol
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=1 << 16,
            cwd=cwd,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.fd = self.proc.stdin.fileno()
        self.out = self.proc.stdout
        self.sent = [0.0] * total
        self.latency = [0.0] * total
        self.tokens: queue.SimpleQueue[int] = queue.SimpleQueue()
        self.answered = 0
        self.marker = b'"call":"c' if protocol == "flow" else b'"id":'
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def send(self, line: bytes) -> None:
        view = memoryview(line)
        while view:
            view = view[os.write(self.fd, view) :]

    def number(self, raw: bytes) -> int:
        """The call number of a reply; -1 for anything else (initialize's answer)."""
        at = raw.find(self.marker)
        if at < 0:
            return -1
        at += len(self.marker)
        while at < len(raw) and raw[at] == 32:  # `"id": 5`, as json.dumps writes
            at += 1
        end = at
        while end < len(raw) and 48 <= raw[end] <= 57:
            end += 1
        return int(raw[at:end]) if end > at else -1

    def read(self) -> None:
        clock, sent, latency, tokens = time.perf_counter, self.sent, self.latency, self.tokens
        for raw in self.out:
            now = clock()
            n = self.number(raw)
            self.answered += 1
            if n >= 0:
                latency[n] = now - sent[n]
            tokens.put(n)

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def call_line(protocol: str, tool: str, args: str, n: int) -> bytes:
    name = json.dumps(tool)
    if protocol == "flow":
        params = f'{{"args":{args},"call":"c{n}","run":"r","tool":{name}}}'
        return f'{{"jsonrpc":"2.0","method":"call","params":{params}}}\n'.encode()
    params = f'{{"name":{name},"arguments":{args}}}'
    return f'{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{params}}}\n'.encode()


def one_run(
    command: list[str], protocol: str, tool: str, args: str, calls: int, outstanding: int, cwd: Path | None = None
) -> Run:
    warmup = min(1000, calls // 10)
    total = warmup + calls
    server = Server(command, protocol, total, cwd)
    try:
        if protocol == "mcp":
            client = {"name": "driver", "version": "0"}
            hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}
            init = {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": hello}
            server.send(json.dumps(init).encode() + b"\n")
            if server.tokens.get(timeout=30) != -1:
                raise RuntimeError("initialize was not answered first")
            server.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        lines = [call_line(protocol, tool, args, n) for n in range(total)]
        get, clock, sent = server.tokens.get, time.perf_counter, server.sent
        open_calls = 0
        cpu0 = t0 = own0 = 0.0
        for n in range(total):
            if n == warmup:
                # Every warm-up call answered before the clock and CPU start.
                while open_calls:
                    get(timeout=30)
                    open_calls -= 1
                cpu0, t0 = cpu_seconds(server.proc.pid), clock()
                own0 = sum(os.times()[:2])
            if open_calls == outstanding:
                get(timeout=30)
                open_calls -= 1
            sent[n] = clock()
            server.send(lines[n])
            open_calls += 1
        while open_calls:
            get(timeout=30)
            open_calls -= 1
        elapsed = clock() - t0
        cpu = cpu_seconds(server.proc.pid) - cpu0
        own = sum(os.times()[:2]) - own0
        expected = total + (1 if protocol == "mcp" else 0)
        if server.answered != expected:
            raise RuntimeError(f"{server.answered} answers to {expected} requests")
        p50 = statistics.median(server.latency[warmup:]) * 1e6
        return Run(calls / elapsed, cpu / calls * 1e6, p50, own / calls * 1e6)
    finally:
        server.close()


def measure(command: list[str], protocol: str, tool: str, args: str, calls: int, outstanding: int, runs: int) -> Run:
    done = [one_run(command, protocol, tool, args, calls, outstanding) for _ in range(runs)]
    return Run(
        statistics.median(r.calls_per_s for r in done),
        statistics.median(r.cpu_us_per_call for r in done),
        statistics.median(r.p50_us for r in done),
        statistics.median(r.client_cpu_us_per_call for r in done),
    )


@dataclass(frozen=True)
class Target:
    id: str
    label: str
    protocol: str
    tool: str
    args: str
    command: list[str]
    # The floor this server's goal is set against, and the goal.
    floor: str | None = None
    goal: float | None = None
    # Where the server starts (a Python package run with `-m`).
    cwd: Path | None = None


RELEASE = REPO / "target" / "release"
WEATHER = "github.com/acme/weather@1.2.0/weather.flow.get_forecast"
FORECAST_ARGS = '{"city":"Oslo","days":2,"units":"None"}'
ECHO_ARGS = '{"value":"hello"}'
NODE_WEATHER = REPO / "examples" / "typescript" / "weather-tools" / "dist" / "main.js"
NODE_SDK_ECHO = REPO / "benches" / "node" / "sdk_echo.mjs"


def targets() -> list[Target]:
    rust_weather = [str(RELEASE / "flow-bench-rust-weather")]
    found = [
        Target(
            "floor.rust.mcp",
            "trivial Rust MCP echo, serde_json (floor)",
            "mcp",
            "echo",
            ECHO_ARGS,
            [str(RELEASE / "flow-floor-mcp-echo")],
        ),
        Target(
            "floor.rust.flow",
            "trivial Rust Flow `call`/`reply` echo, serde_json (floor)",
            "flow",
            WEATHER,
            FORECAST_ARGS,
            [str(RELEASE / "flow-floor-flow-echo")],
        ),
        Target(
            "rust.weather.mcp",
            "generated Rust weather Tool, `--mcp`, echo",
            "mcp",
            "echo",
            ECHO_ARGS,
            [*rust_weather, "--mcp"],
            "floor.rust.mcp",
            0.8,
        ),
        Target(
            "rust.weather.flow",
            "generated Rust weather Tool, Flow protocol, get_forecast",
            "flow",
            WEATHER,
            FORECAST_ARGS,
            rust_weather,
            "floor.rust.flow",
            0.8,
        ),
        Target(
            "floor.python",
            "trivial Python MCP echo (json, floor)",
            "mcp",
            "echo",
            ECHO_ARGS,
            [sys.executable, str(Path(__file__).with_name("floor_echo.py"))],
        ),
        Target(
            "python.weather.mcp",
            "generated Python weather Tool, `--mcp`, echo",
            "mcp",
            "echo",
            ECHO_ARGS,
            [sys.executable, "-m", "weather_tools", "--mcp"],
            "floor.python",
            0.8,
            REPO / "examples" / "python",
        ),
        Target(
            "floor.node",
            "trivial Node MCP echo (readline, JSON, floor)",
            "mcp",
            "echo",
            ECHO_ARGS,
            ["node", str(Path(__file__).with_name("floor_echo.js"))],
        ),
        Target(
            "node.sdk.mcp",
            "MCP TypeScript SDK `McpServer`, echo",
            "mcp",
            "echo",
            ECHO_ARGS,
            ["node", str(NODE_SDK_ECHO)],
        ),
        Target(
            "node.weather.mcp",
            "generated TypeScript weather Tool, `--mcp`, echo",
            "mcp",
            "echo",
            ECHO_ARGS,
            ["node", str(NODE_WEATHER), "--mcp"],
            "floor.node",
            0.6,
        ),
    ]
    # A Node server is run when its script is there (the TypeScript Tool
    # after `tsc`, the SDK after `npm ci` in benches/node); the Python Tool
    # when flow_toolkit is in this interpreter (the project's venv).
    needed = {
        "node.sdk.mcp": NODE_SDK_ECHO.parent / "node_modules" / "@modelcontextprotocol",
        "node.weather.mcp": NODE_WEATHER,
    }
    python_tool = importlib.util.find_spec("flow_toolkit") is not None
    return [
        t
        for t in found
        if (Path(t.command[0]).exists() or t.command[0] in ("node",))
        and needed.get(t.id, REPO).exists()
        and (python_tool or t.id != "python.weather.mcp")
    ]


def run_all(calls: int, runs: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    # Round-robin: each round runs every server once, so a spell of load on
    # the shared machine falls on one run of each.
    chosen = targets()
    results: dict[tuple[str, int], list[Run]] = {}
    for _ in range(runs):
        for t in chosen:
            for outstanding in (64, 1):
                n = calls if outstanding == 64 else max(calls // 10, 1000)
                results.setdefault((t.id, outstanding), []).append(
                    one_run(t.command, t.protocol, t.tool, t.args, n, outstanding, t.cwd)
                )
    for t in chosen:
        for outstanding in (64, 1):
            done = results[(t.id, outstanding)]
            rows.append(
                {
                    "bench": "neutral",
                    "id": t.id,
                    "label": t.label,
                    "outstanding": outstanding,
                    "calls_per_s": statistics.median(r.calls_per_s for r in done),
                    "cpu_us_per_call": statistics.median(r.cpu_us_per_call for r in done),
                    "p50_us": statistics.median(r.p50_us for r in done),
                    "floor": t.floor,
                    "goal": t.goal,
                }
            )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    by = {(r["id"], r["outstanding"]): r for r in rows}
    lines = [
        "| server | calls/s (64 out) | server CPU per call | p50 at 1 out | vs floor (64 out) | p50 vs floor |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        if r["outstanding"] != 64:
            continue
        one = by.get((r["id"], 1))
        ratio = p50 = ""
        if r["floor"] and (r["floor"], 64) in by:
            floor64, floor1 = by[(r["floor"], 64)], by.get((r["floor"], 1))
            x = r["calls_per_s"] / floor64["calls_per_s"]
            ratio = f"{x:.2f}x (goal >= {r['goal']}x: {'met' if x >= r['goal'] else 'not met'})"
            if one and floor1:
                y = one["p50_us"] / floor1["p50_us"]
                p50 = f"{y:.2f}x (goal <= 1.5x: {'met' if y <= 1.5 else 'not met'})"
        p50_text = f"{one['p50_us']:.0f} us" if one else ""
        lines.append(
            f"| {r['label']} | {r['calls_per_s']:,.0f} | {r['cpu_us_per_call']:.1f} us | {p50_text} | {ratio} | {p50} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--all", action="store_true", help="every server found, one table")
    parser.add_argument("--protocol", choices=["flow", "mcp"], default="flow")
    parser.add_argument("--tool", default=WEATHER)
    parser.add_argument("--args", default=FORECAST_ARGS)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--outstanding", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("command", nargs="*")
    a = parser.parse_args()
    if a.all:
        rows = run_all(a.calls, a.runs)
        sink = os.environ.get("FLOW_BENCH_JSON")
        if sink:
            # One figure per server and outstanding count, as benches/table.py reads them.
            with open(sink, "a") as f:
                for r in rows:
                    keep = ("bench", "id", "label", "outstanding", "p50_us", "cpu_us_per_call")
                    f.write(json.dumps({k: r[k] for k in keep} | {"unit": "calls/s", "value": r["calls_per_s"]}) + "\n")
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"load: {load}; {a.calls} calls, median of {a.runs} fresh processes")
        print(table(rows))
        return
    if not a.command:
        parser.error("a server command after --, or --all")
    result = measure(a.command, a.protocol, a.tool, a.args, a.calls, a.outstanding, a.runs)
    figures = f"{result.calls_per_s:,.0f} calls/s, server CPU {result.cpu_us_per_call:.1f} us/call"
    figures += f", driver CPU {result.client_cpu_us_per_call:.1f} us/call"
    print(f"{figures}, p50 {result.p50_us:.0f} us ({a.outstanding} outstanding, load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
