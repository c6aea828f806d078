"""Peak memory of one typed decode of the 20,000-record corpus, as a multiple
of the input's size: flow_toolkit's TypeCodec.decode beside pydantic's
TypeAdapter(list[Model]).validate_json.

Each measurement is a fresh process (`--child NAME FILE`) that reads the
corpus from a file, imports and compiles everything, and then decodes once.
Its peak is the process's high-water resident size after the decode
(`ru_maxrss`) minus its resident size just before it: every allocation the
decode made, Python's objects and the Rust allocator's trees alike, the
result included. `retained` is what is still resident after it (mostly the
result). Fresh processes, because a high-water mark cannot be reset."""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

from timing import record, scaled

PAGE = os.sysconf("SC_PAGE_SIZE")
GOAL = 2.0  # peak at most twice the input's size
DECODERS = {
    "flow": "flow_toolkit TypeCodec.decode (List<Reading> -> dataclasses)",
    "pydantic": "pydantic TypeAdapter(list[Model]).validate_json",
}


def resident() -> int:
    """This process's resident size now, in bytes."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * PAGE


def child(name: str, path: str, traced: bool) -> None:
    data = Path(path).read_bytes()
    if name == "flow":
        from corpus import READINGS

        decode = READINGS.decode
    else:
        import pydantic
        from decode import Model

        decode = pydantic.TypeAdapter(list[Model]).validate_json
    # A small decode first, so that first-call work (lazy imports, caches)
    # is not counted against the corpus.
    decode(b"[]")
    if traced:
        # Python's allocations alone (the result, and whatever Python made and
        # freed on the way); tracemalloc's own records would swell the
        # resident size, so this is a process of its own.
        tracemalloc.start()
        result = decode(data)
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert len(result) == 20_000
        print(json.dumps({"result": current, "python_peak": peak}))
        return
    before = resident()
    result = decode(data)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert len(result) == 20_000
    print(json.dumps({"peak": peak - before}))


def measure(name: str, path: str) -> dict[str, int]:
    """One decode's figures, from two fresh processes (resident, traced)."""
    here = Path(__file__).resolve().parent
    figures: dict[str, int] = {}
    for mode in ("resident", "traced"):
        done = subprocess.run([sys.executable, __file__, "--child", name, path, mode], cwd=here, check=True,
                              capture_output=True, text=True)
        figures |= json.loads(done.stdout)
    return figures


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], sys.argv[3], sys.argv[4] == "traced")
        return
    from corpus import corpus

    data = corpus(20_000).encode()
    runs = scaled(3, 1)
    print(f"corpus: 20,000 records, {len(data):,} bytes; median of {runs} fresh processes each, in turns")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "corpus.json")
        Path(path).write_bytes(data)
        done: dict[str, list[dict[str, int]]] = {name: [] for name in DECODERS}
        for _ in range(runs):
            for name in DECODERS:
                done[name].append(measure(name, path))
    mib = 2**20
    print("| decoder | peak | result (Python objects) | peak beyond the result | of which outside Python's allocator |")
    print("|---|---|---|---|---|")
    for name, label in DECODERS.items():
        peak, result, python_peak = (statistics.median(r[k] for r in done[name])
                                     for k in ("peak", "result", "python_peak"))
        beyond = peak - result
        times = beyond / len(data)
        verdict = "met" if times <= GOAL else "not met"
        print(f"| {label} | {peak / mib:.1f} MiB ({peak / len(data):.2f}x input) | {result / mib:.1f} MiB | "
              f"{beyond / mib:.1f} MiB ({times:.2f}x input; goal <= {GOAL:g}x: {verdict}) | "
              f"{max(peak - python_peak, 0) / mib:.1f} MiB |", flush=True)
        record("py.memory", name, label, "x input", times, bytes=len(data), peak_bytes=peak, result_bytes=result,
               python_peak_bytes=python_peak)


if __name__ == "__main__":
    main()
