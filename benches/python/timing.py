"""The best of repeated runs, in CPU time of this process: what the decode
and encode benchmarks print. The machine is shared with other work, which
only ever adds time; CPU time leaves out the time another process held the
core, and the fastest run is the least disturbed (caches, frequency). What
is compared side by side is run in turns, so that a spell of
load falls on every contender alike rather than on whichever ran then."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_ms_each(runs: dict[str, Callable[[], object]], repeat: int = 15) -> dict[str, float]:
    """The fastest of `repeat` runs of each, in ms of CPU time, measured in
    turns: one run of each per round, after one warm-up run of each."""
    for run in runs.values():
        run()  # warm up
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            start = time.process_time()
            run()
            times[name].append(time.process_time() - start)
    return {name: min(t) * 1000 for name, t in times.items()}


def row(what: str, ms: float, size: int | None = None) -> None:
    throughput = f"{size / ms / 1000:8.1f} MB/s" if size else ""
    print(f"| {what:<62} | {ms:8.1f} ms | {throughput} |", flush=True)
