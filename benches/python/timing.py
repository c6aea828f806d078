"""The best of repeated runs, in CPU time of this process: what the decode
and encode benchmarks print. The machine is shared with other work, which
only ever adds time; CPU time leaves out the time another process held the
core, and the fastest run is the least disturbed (caches, frequency). What
is compared side by side is run in turns, so that a spell of
load falls on every contender alike rather than on whichever ran then."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable

from flow_toolkit import _native

# A debug build of the native module runs several times slower than the
# release build users get: measuring it would say nothing, and say it without
# a warning. `make python-bench` and `make bench-table` build release first.
if _native.BUILD_PROFILE != "release":
    sys.exit(
        f"benchmark refused: flow_toolkit's native module in {_native.__file__} is a "
        f"{_native.BUILD_PROFILE} build; build release first (`make python-bench` does, or "
        "`.venv/bin/maturin develop --release -m bindings-python/Cargo.toml`)"
    )
#: What was measured, for the output: the profile, and the stable ABI or one version's.
BUILD = f"{_native.BUILD_PROFILE} build, {'stable ABI (abi3)' if _native.STABLE_ABI else 'version-specific'}"
print(f"flow_toolkit: {BUILD}", file=sys.stderr)

# benches/table.py runs every benchmark several times and writes one table:
# FLOW_BENCH_JSON names a file each figure is appended to as a JSON line (the
# printed output stays as it is), and FLOW_BENCH_QUICK asks for a short run.
QUICK = os.environ.get("FLOW_BENCH_QUICK", "") not in ("", "0")
REPEAT = 3 if QUICK else 15


def scaled(full: int, quick: int) -> int:
    """`full` normally, `quick` in a quick run."""
    return quick if QUICK else full


def record(bench: str, id: str, label: str, unit: str, value: float, **extra: float) -> None:
    """Appends one figure for benches/table.py; `unit` is "ms" (lower is
    better) or "calls/s" (higher is better)."""
    path = os.environ.get("FLOW_BENCH_JSON")
    if not path:
        return
    line = {"bench": bench, "id": id, "label": label, "unit": unit, "value": value, **extra}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def best_ms_each(runs: dict[str, Callable[[], object]], repeat: int = REPEAT) -> dict[str, float]:
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
