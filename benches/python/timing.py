"""The best of repeated runs, in CPU time of this process: what the decode
and encode benchmarks print. The machine is shared with other work, which
only ever adds time; CPU time leaves out the time another process held the
core, and the fastest run is the least disturbed (caches, frequency)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_ms(run: Callable[[], object], repeat: int = 15) -> float:
    run()  # warm up
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times) * 1000


def row(what: str, ms: float, size: int | None = None) -> None:
    throughput = f"{size / ms / 1000:8.1f} MB/s" if size else ""
    print(f"| {what:<62} | {ms:8.1f} ms | {throughput} |", flush=True)
