"""Parse speed, ours against the reference's, in one run: the differential corpus of replies.

The reference is another project's code, run only as a black box: both sides
are `toolform serve` processes on 127.0.0.1 answering POST /api/v1/parse, sent
the same requests by the same client, in turns (ours, the reference, ours...).
Two workloads:

* corpus: the ~1,400 replies of toolform/tests/support/parse_corpus.py, one request each;
  the HTTP round trip is part of both figures, so the ratio understates the
  parsers' own difference;
* long replies: each protocol's several-calls reply repeated until it holds
  about 200 calls, one request per protocol, where parsing dominates.

Each batch is timed twice: wall time, and the CPU time the server's process
spent on it (versus.py), which leaves out the client's time and the time other
jobs held the core; the ratio of the rounds' medians of server CPU is the
figure (rows tf.parse of benches/table.py). Our SDK in process (no HTTP) is
printed beside them for scale. Not a test and not part of `make test`; the
machine's load is printed with the figures.

    .venv/bin/python benches/toolform/parse.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "toolform" / "tests"))

from versus import cpu_seconds, load  # noqa: E402

from support.parse_corpus import GOOD, PROTOCOLS, TOOLS, corpus, write  # noqa: E402
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server  # noqa: E402

# isort: split
from timing import record  # benches/python, which importing versus put on the path  # noqa: E402

REPEAT = 100  # two calls per repeat: about 200 calls per long reply


def _long_bodies() -> list[dict[str, Any]]:
    second = ("send_email", {"to": "a@b.c", "subject": "Hi"})
    bodies = []
    for protocol in PROTOCOLS:
        if protocol == "nl_intent":
            continue  # one tool named in words: no long form
        text = write(protocol, [GOOD, second] * REPEAT)
        bodies.append({"tools": {"source": "openai", "payload": TOOLS}, "text": text, "protocol": protocol})
    return bodies


def _time(server: Server, bodies: list[dict[str, Any]]) -> tuple[float, float]:
    """(wall seconds, server CPU seconds) for the batch."""
    cpu = cpu_seconds(server.process.pid)
    start = time.perf_counter()
    for body in bodies:
        reply = server.post("/api/v1/parse", body)
        if reply.status != 200:
            raise RuntimeError(f"{reply.status}: {reply.body[:200]!r}")
    return time.perf_counter() - start, cpu_seconds(server.process.pid) - cpu


def _sdk_time(bodies: list[dict[str, Any]]) -> float:
    from toolform.loaders import load
    from toolform.parse import parse_reply

    tools = load("openai", TOOLS).toolset
    start = time.perf_counter()
    for body in bodies:
        options = {k: body[k] for k in ("rule", "validate", "lenient_fallback") if k in body}
        parse_reply(tools, body["text"], body["protocol"], **options)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    workloads = {
        "corpus": ("corpus (one request per reply)", [case.body() for case in corpus()]),
        "long": ("long replies (~200 calls each)", _long_bodies()),
    }
    print(f"{load()} at the start", flush=True)
    with Server(OUR_TOOLFORM) as ours, Server(REFERENCE_TOOLFORM) as reference:
        for key, (name, bodies) in workloads.items():
            _time(ours, bodies[:20])
            _time(reference, bodies[:20])  # warm both
            mine, theirs = [], []
            for _ in range(arguments.rounds):
                mine.append(_time(ours, bodies))
                theirs.append(_time(reference, bodies))
            sdk = min(_sdk_time(bodies) for _ in range(arguments.rounds))
            cpu = [t[1] / m[1] for m, t in zip(mine, theirs, strict=True)]
            ours_cpu, theirs_cpu = statistics.median(c for _, c in mine), statistics.median(c for _, c in theirs)
            ours_wall, theirs_wall = statistics.median(w for w, _ in mine), statistics.median(w for w, _ in theirs)
            print(
                f"{name}: {len(bodies)} requests, {arguments.rounds} rounds in turns, medians: server CPU ours "
                f"{ours_cpu * 1000:.0f} ms, the reference {theirs_cpu * 1000:.0f} ms: {theirs_cpu / ours_cpu:.2f}x "
                f"(rounds {min(cpu):.2f} to {max(cpu):.2f}); wall ours {ours_wall * 1000:.0f} ms, the reference "
                f"{theirs_wall * 1000:.0f} ms: {theirs_wall / ours_wall:.2f}x; our SDK in process {sdk * 1000:.0f} ms",
                flush=True,
            )
            for side, (c, w) in {"toolform": (ours_cpu, ours_wall), "reference": (theirs_cpu, theirs_wall)}.items():
                label = "ToolForm" if side == "toolform" else "reference toolform 0.0.1"
                record(f"tf.parse.{key}", side, f"{label}, POST /api/v1/parse, {name}", "ms", c * 1000,
                       wall_ms=w * 1000)
    print(f"{load()} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
