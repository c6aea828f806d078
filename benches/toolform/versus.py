"""Ours against the reference, one request body, one run: what benches/toolform/guard.py and render.py share.

Both servers are started on free loopback ports (ours from this venv, the
reference from .venv-toolform-ref, run as a black box) and sent the same body,
in turns, after one warm-up each. Each request is timed twice: wall time, and
the CPU time the server's process spent on it (from /proc, so the time other
jobs on the shared machine held the core is left out). The ratio is the
reference's median over ours. Figures go to stdout and, for benches/table.py,
to the file FLOW_BENCH_JSON names.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "toolform" / "tests"))
sys.path.insert(0, str(REPO / "benches" / "python"))

from timing import QUICK, record  # noqa: E402

from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server  # noqa: E402

#: Requests per server: fewer in a quick run.
RUNS = 3 if QUICK else 7
_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def timed(server: Server, path: str, body: dict[str, Any]) -> tuple[float, float]:
    """One request: (wall seconds, server CPU seconds)."""
    cpu = cpu_seconds(server.process.pid)
    started = time.perf_counter()
    reply = server.post(path, body, timeout=900)
    wall = time.perf_counter() - started
    if reply.status != 200:
        raise SystemExit(f"{server.base_url}{path} answered {reply.status}: {reply.body[:300]!r}")
    return wall, cpu_seconds(server.process.pid) - cpu


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def versus(bench: str, what: str, path: str, body: dict[str, Any], runs: int = RUNS) -> float:
    """Runs the comparison, prints and records it; returns the ratio of CPU medians (reference / ours)."""
    times: dict[str, list[tuple[float, float]]] = {"toolform": [], "reference": []}
    print(f"{what}: {runs} requests each, in turns; {load()} at the start", flush=True)
    with Server(OUR_TOOLFORM) as ours, Server(REFERENCE_TOOLFORM) as reference:
        servers = {"toolform": ours, "reference": reference}
        for server in servers.values():
            timed(server, path, body)  # warm-up: imports, the evidence, caches of the process
        for _ in range(runs):
            for name, server in servers.items():
                times[name].append(timed(server, path, body))
    medians = {
        name: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t)) for name, t in times.items()
    }
    labels = {"toolform": f"ToolForm, POST {path}", "reference": f"reference toolform 0.0.1, POST {path}"}
    for name, (wall, cpu) in medians.items():
        print(f"  {labels[name]:<50} {cpu * 1000:8.0f} ms CPU  {wall * 1000:8.0f} ms wall", flush=True)
        record(bench, name, labels[name], "ms", cpu * 1000, wall_ms=wall * 1000)
    cpu_ratio = medians["reference"][1] / medians["toolform"][1]
    wall_ratio = medians["reference"][0] / medians["toolform"][0]
    print(
        f"  ours is {cpu_ratio:.2f}x the reference's speed in CPU time ({wall_ratio:.2f}x in wall time); "
        f"{load()} at the end",
        flush=True,
    )
    return cpu_ratio
