"""BM25 speed: ours against the reference's at its limit (2,000 tools), and against bm25s at 10,000.

The reference is another project's code, run only as a black box: both sides are
`toolform serve` processes on 127.0.0.1 answering POST /api/v1/catalogue/retrieve,
sent the same requests by the same client, in turns (ours, the reference, ...).
Two workloads at 2,000 tools, each request loading the catalogue from JSON:

* index build: every request a catalogue neither server has seen (a fresh seed),
  so each builds its index;
* queries: one catalogue, a different query each request; ours keeps the index
  built on the first request, the reference builds one per request.

Then in process, at 10,000 tools: our index (build, and queries ranking every
tool) against bm25s (method "lucene", k1 1.5, b 0.75, the same words, so the same
ranking; top 8 on both sides, and ours ranking every tool as the route does). Not a test and not
part of `make test`; the machine's load is printed with the figures. The figures also go to the file
FLOW_BENCH_JSON names, for benches/table.py (row tf.catalogue, run with --no-prose).

    .venv/bin/pip install -r benches/toolform/requirements.txt
    .venv/bin/python benches/toolform/catalogue.py [--rounds 3] [--no-prose]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "toolform" / "tests"))
sys.path.insert(0, str(REPO / "benches" / "python"))

from timing import record  # noqa: E402
from versus import cpu_seconds  # noqa: E402

from support import catalogues  # noqa: E402
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server  # noqa: E402

LIMIT = 2_000
LARGE = 10_000
QUERIES = 200


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


#: The server CPU seconds of the last _post_all per server port: the HTTP rows print them beside wall time.
_server_cpu: dict[int, list[float]] = {}


def _post_all(server: Server, bodies: list[dict[str, Any]], path: str = "/api/v1/catalogue/retrieve") -> float:
    cpu = cpu_seconds(server.process.pid)
    start = time.perf_counter()
    for body in bodies:
        reply = server.post(path, body)
        if reply.status != 200:
            raise RuntimeError(f"{reply.status}: {reply.body[:200]!r}")
    wall = time.perf_counter() - start
    _server_cpu.setdefault(server.port, []).append(cpu_seconds(server.process.pid) - cpu)
    return wall


def _turns(rounds: int, ours: Callable[[], float], reference: Callable[[], float]) -> tuple[float, float]:
    """Median seconds of each, measured in turns so that load changes hit both."""
    mine, theirs = [], []
    for _ in range(rounds):
        mine.append(ours())
        theirs.append(reference())
    return statistics.median(mine), statistics.median(theirs)


def _cpu_ratio(ours: Server, reference: Server, rounds: int) -> str:
    """The last ``rounds`` batches' median server CPU, the reference's over ours."""
    mine = statistics.median(_server_cpu[ours.port][-rounds:])
    theirs = statistics.median(_server_cpu[reference.port][-rounds:])
    return f"server CPU ours {mine * 1000:.0f} ms, reference {theirs * 1000:.0f} ms a batch, ratio {theirs / mine:.2f}x"


def _record_http(key: str, what: str, ours: Server, reference: Server, rounds: int, walls: tuple[float, float]) -> None:
    """The last ``rounds`` batches' median server CPU and wall time of each side, for benches/table.py."""
    for side, server, wall in (("toolform", ours, walls[0]), ("reference", reference, walls[1])):
        label = "ToolForm" if side == "toolform" else "reference toolform 0.0.1"
        cpu = statistics.median(_server_cpu[server.port][-rounds:])
        record(f"tf.catalogue.{key}", side, f"{label}, POST /api/v1/catalogue/retrieve, {what}", "ms", cpu * 1000,
               wall_ms=wall * 1000)


def _servers(rounds: int, prose: bool) -> None:
    print(f"\n== HTTP, {LIMIT:,} tools, POST /api/v1/catalogue/retrieve (load {_load()}) ==")
    with Server(OUR_TOOLFORM) as ours, Server(REFERENCE_TOOLFORM) as reference:
        fixed = {"source": "openai", "payload": catalogues.catalogue(1, LIMIT)}
        # Warm both (imports, evidence), and give ours its index of the fixed catalogue.
        for server in (ours, reference):
            _post_all(server, [{"tools": fixed, "query": "warm up"}])
        builds = 5
        seeds = iter(range(100, 100 + 2 * builds * rounds))

        def fresh() -> list[dict[str, Any]]:
            batch = [catalogues.catalogue(next(seeds), LIMIT) for _ in range(builds)]
            return [{"tools": {"source": "openai", "payload": tools}, "query": "get weather"} for tools in batch]

        ours_s, reference_s = _turns(rounds, lambda: _post_all(ours, fresh()), lambda: _post_all(reference, fresh()))
        print(f"index build (new catalogue per request): ours {builds / ours_s:6.1f} req/s, "
              f"reference {builds / reference_s:6.1f} req/s, ratio {reference_s / ours_s:.2f}x; "
              f"{_cpu_ratio(ours, reference, rounds)}")
        _record_http("new", f"a new {LIMIT:,}-tool catalogue per request ({builds} requests)", ours, reference, rounds,
                     (ours_s, reference_s))
        queries = [{"tools": fixed, "query": catalogues.query(seed), "k": 8} for seed in range(20)]
        ours_s, reference_s = _turns(rounds, lambda: _post_all(ours, queries), lambda: _post_all(reference, queries))
        print(f"queries (same catalogue):                ours {len(queries) / ours_s:6.1f} req/s, "
              f"reference {len(queries) / reference_s:6.1f} req/s, ratio {reference_s / ours_s:.2f}x; "
              f"{_cpu_ratio(ours, reference, rounds)}")
        _record_http("same", f"the same catalogue, a new query per request ({len(queries)} requests)", ours,
                     reference, rounds, (ours_s, reference_s))
        if not prose:
            return
        # Reading the tools' schemas dominates both above. Tools with prose and no parameters are cheap
        # to read, so here tokenizing and indexing dominate: the retrievers' own difference shows more.
        prose = [_prose_catalogue(seed) for seed in range(500, 500 + 2 * builds * rounds)]
        bodies = iter({"tools": {"source": "openai", "payload": tools}, "query": "get weather"} for tools in prose)
        ours_s, reference_s = _turns(
            rounds,
            lambda: _post_all(ours, [next(bodies) for _ in range(builds)]),
            lambda: _post_all(reference, [next(bodies) for _ in range(builds)]),
        )
        print(f"index build, prose tools (~120 words, no parameters): ours {builds / ours_s:6.1f} req/s, "
              f"reference {builds / reference_s:6.1f} req/s, ratio {reference_s / ours_s:.2f}x; "
              f"{_cpu_ratio(ours, reference, rounds)}")
        fixed_prose = {"source": "openai", "payload": prose[0]}
        long_queries = [
            {"tools": fixed_prose, "query": " ".join(catalogues.query(seed) for seed in range(s, s + 10))}
            for s in range(0, 200, 10)
        ]
        ours_s, reference_s = _turns(
            rounds, lambda: _post_all(ours, long_queries), lambda: _post_all(reference, long_queries)
        )
        print(f"queries, prose tools, ~40-word requests:              ours {len(long_queries) / ours_s:6.1f} req/s, "
              f"reference {len(long_queries) / reference_s:6.1f} req/s, ratio {reference_s / ours_s:.2f}x; "
              f"{_cpu_ratio(ours, reference, rounds)}")


def _prose_catalogue(seed: int) -> list[dict[str, Any]]:
    tools = catalogues.catalogue(seed, LIMIT)
    for i, tool in enumerate(tools):
        words = " ".join(catalogues.query(seed * LIMIT + i + j) for j in range(30))
        tool["function"]["description"] = words
        tool["function"]["parameters"] = {"type": "object", "properties": {}}
    return tools


def _in_process(rounds: int) -> None:
    import bm25s  # the peer: benches/toolform/requirements.txt
    import numpy as np
    from toolform.catalogue import BM25Index, tool_document, words
    from toolform.loaders import load

    print(f"\n== in process, {LARGE:,} tools (load {_load()}) ==")
    toolset = load("openai", catalogues.catalogue(2, LARGE)).toolset
    start = time.perf_counter()
    documents = [words(tool_document(tool)) for tool in toolset]
    tokenize_s = time.perf_counter() - start
    print(f"tokenizing the catalogue (shared by both): {tokenize_s * 1000:.0f} ms")
    queries = [words(catalogues.query(seed)) for seed in range(QUERIES)]

    def ours_build() -> float:
        start = time.perf_counter()
        BM25Index(documents)
        return time.perf_counter() - start

    def peer_build() -> float:
        start = time.perf_counter()
        retriever = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
        retriever.index(documents, show_progress=False)
        return time.perf_counter() - start

    ours_s, peer_s = _turns(rounds, ours_build, peer_build)
    print(f"index build:    ours {ours_s * 1000:7.1f} ms, bm25s {peer_s * 1000:7.1f} ms, ratio {peer_s / ours_s:.2f}x")
    for side, seconds in (("toolform", ours_s), ("bm25s", peer_s)):
        record("tf.catalogue.bm25s.build", side, f"{side}, index build, {LARGE:,} tools (in process, wall)", "ms",
               seconds * 1000)

    index = BM25Index(documents)
    retriever = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    retriever.index(documents, show_progress=False)
    # The same ranking, or the comparison means nothing. bm25s's lucene scores leave out the
    # constant factor (k1 + 1) that ours (and the reference's) keep: the same order.
    for query in queries[:20]:
        peer_scores = retriever.get_scores(query) * 2.5
        if not np.allclose(peer_scores, index.scores(query), rtol=1e-5, atol=1e-5):
            raise RuntimeError(f"bm25s and ours disagree on {query}")

    def ours_queries() -> float:
        start = time.perf_counter()
        for query in queries:
            index.ranking(query, 8)
        return time.perf_counter() - start

    def ours_full() -> float:
        start = time.perf_counter()
        for query in queries:
            index.ranking(query)
        return time.perf_counter() - start

    def peer_queries() -> float:
        start = time.perf_counter()
        for query in queries:
            retriever.retrieve([query], k=8, show_progress=False, n_threads=1)
        return time.perf_counter() - start

    ours_s, peer_s = _turns(rounds, ours_queries, peer_queries)
    print(f"queries, top 8: ours {QUERIES / ours_s:7.0f} q/s, bm25s {QUERIES / peer_s:7.0f} q/s, "
          f"ratio {peer_s / ours_s:.2f}x")
    for side, seconds in (("toolform", ours_s), ("bm25s", peer_s)):
        record("tf.catalogue.bm25s.top8", side, f"{side}, top 8 of {LARGE:,} tools (in process, wall)", "queries/s",
               QUERIES / seconds)
    full_s = statistics.median(ours_full() for _ in range(rounds))
    print(f"queries, every tool ranked (what the route answers): ours {QUERIES / full_s:7.0f} q/s")

    def ours_scores() -> float:
        start = time.perf_counter()
        for query in queries:
            index.score_vector(query)
        return time.perf_counter() - start

    def peer_scores() -> float:
        start = time.perf_counter()
        for query in queries:
            retriever.get_scores(query)
        return time.perf_counter() - start

    ours_s, peer_s = _turns(rounds, ours_scores, peer_scores)
    print(f"scores only:    ours {QUERIES / ours_s:7.0f} q/s, bm25s {QUERIES / peer_s:7.0f} q/s, "
          f"ratio {peer_s / ours_s:.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-http", action="store_true", help="only the in-process comparison with bm25s")
    parser.add_argument("--no-prose", action="store_true", help="leave out the two prose-catalogue workloads")
    arguments = parser.parse_args()
    print(f"load average at the start: {_load()} (1, 5, 15 min), {os.cpu_count()} CPUs")
    if not arguments.skip_http:
        _servers(arguments.rounds, not arguments.no_prose)
    _in_process(arguments.rounds)
    print(f"\nload average at the end: {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
