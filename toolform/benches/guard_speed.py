"""The guard over 1,000 tools: ours against the reference, in one run, over the same transport.

    .venv/bin/python toolform/benches/guard_speed.py [--tools 1000] [--runs 5]

Both servers are started on free loopback ports (ours from this venv, the
reference from .venv-toolform-ref) and sent the same POST /api/v1/guard body,
alternately, ``--runs`` times each after one warm-up; the median wall time of
each is reported with the ratio, and our SDK's in-process time beside it. Not
part of `make test`. Say the machine's load (printed) beside any figure.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

import guard_generated  # noqa: E402
from serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server  # noqa: E402
from toolform.guard import guard  # noqa: E402


def catalogue(count: int) -> list[dict[str, Any]]:
    """``count`` OpenAI tools, prose from the differential pool (plants and documentation mixed)."""
    pool = guard_generated.pool()
    tools: list[dict[str, Any]] = []
    seed = 0
    while len(tools) < count:
        for tool in guard_generated.openai_tools(seed, pool):
            tool["function"]["name"] = f"tool_{len(tools):04d}"
            tools.append(tool)
        seed += 1
    random.Random(0).shuffle(tools)
    return tools[:count]


def timed(server: Server, body: dict[str, Any]) -> float:
    started = time.perf_counter()
    reply = server.post("/api/v1/guard", body, timeout=600)
    elapsed = time.perf_counter() - started
    if reply.status != 200:
        raise SystemExit(f"{server} answered {reply.status}: {reply.body[:200]!r}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    tools = catalogue(arguments.tools)
    body = {"tools": {"source": "openai", "payload": tools}, "strictness": "strict", "action": "strip"}
    ours_times: list[float] = []
    theirs_times: list[float] = []
    with Server(OUR_TOOLFORM) as ours, Server(REFERENCE_TOOLFORM) as reference:
        timed(ours, body), timed(reference, body)
        for _ in range(arguments.runs):
            ours_times.append(timed(ours, body))
            theirs_times.append(timed(reference, body))
    sdk_times = []
    for _ in range(arguments.runs):
        started = time.perf_counter()
        guard(body["tools"], strictness="strict", action="strip")
        sdk_times.append(time.perf_counter() - started)
    ours_median, theirs_median = statistics.median(ours_times), statistics.median(theirs_times)
    one, five, fifteen = os.getloadavg()
    print(f"load average {one:.2f} {five:.2f} {fifteen:.2f}, {os.cpu_count()} cores")
    print(f"guard over {len(tools)} tools, strict, strip; median of {arguments.runs} runs each, alternating")
    print(f"  reference, POST /api/v1/guard: {theirs_median * 1000:.0f} ms")
    ratio = theirs_median / ours_median
    print(f"  ours,      POST /api/v1/guard: {ours_median * 1000:.0f} ms  ({ratio:.2f}x the reference)")
    print(f"  ours, SDK in process:          {statistics.median(sdk_times) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
