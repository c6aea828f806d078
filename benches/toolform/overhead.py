"""ToolForm's own cost in an ab-test: per request, beyond what the model endpoint takes.

    .venv/bin/python benches/toolform/overhead.py [--requests 400] [--latency-ms 50] [--concurrency 4]

The endpoint is a stand-in in a process of its own (this file with ``--serve``):
it answers every chat completion after a fixed latency with the same call, so
all the time beyond that latency is the client's. Two clients send the same
requests at the same concurrency, in turns:

- ``toolform``: ``measure`` itself (toolform.measure), eight formats rendered,
  every request sent, every reply parsed and graded, every record kept;
- ``floor``: the same requests posted by the same HTTP client (httpx2, as the
  measurement's endpoint uses it) with nothing else done.

For each, two figures per request: the client process's CPU time, and the wall
time per request beyond the endpoint's latency (each of ``concurrency`` slots
waits the latency once per request it carries, so wall × concurrency / requests
− latency), each the best of the rounds. ToolForm's own cost is its CPU per
request less the floor's: the goal is under 1 ms. The wall figures hold only on
an idle machine: under load they are the scheduler's. Figures go to stdout and,
for benches/table.py, to the file FLOW_BENCH_JSON names.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benches" / "python"))

from timing import QUICK, record  # noqa: E402

REPLY = json.dumps({"name": "get_forecast", "arguments": {"city": "Oslo", "days": 2}})
TOOLS = [
    {"type": "function", "function": {
        "name": "get_forecast", "description": "Forecast for a city.",
        "parameters": {"type": "object", "required": ["city", "days"], "properties": {
            "city": {"type": "string"}, "days": {"type": "integer", "minimum": 1, "maximum": 7}}}}},
    {"type": "function", "function": {
        "name": "get_time", "description": "The time in a city.",
        "parameters": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}}},
]


def serve(latency_s: float) -> None:
    """The stand-in endpoint: prints its port, then answers until killed."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: object) -> None:
            pass

        def _send(self, body: dict[str, object]) -> None:
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._send({"object": "list", "data": [{"id": "stand-in", "object": "model"}]})

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length", "0")))
            time.sleep(latency_s)
            self._send({"choices": [{"index": 0, "message": {"role": "assistant", "content": REPLY},
                                     "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 300, "completion_tokens": 20, "total_tokens": 320}})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


def toolform_run(base_url: str, requests: int, concurrency: int) -> None:
    from toolform.loaders import load
    from toolform.measure import MeasureSpec, Progress, measure
    from toolform.measure.run import CORE_FORMATS
    from toolform.measure.tasks import generated_tasks_for

    per_format = requests // len(CORE_FORMATS)
    toolset = load("openai", TOOLS).toolset
    task_set = generated_tasks_for(toolset, per_format, seed=0)
    spec = MeasureSpec(model="stand-in", base_url=base_url, task_set=task_set, formats=CORE_FORMATS,
                       concurrency=concurrency, thinking=None)
    report = asyncio.run(measure(spec, Progress(spec.total)))
    if report.errors or len(report.records) != per_format * len(CORE_FORMATS):
        raise SystemExit(f"the measurement failed: {report.errors} errors of {len(report.records)}")


def floor_run(base_url: str, requests: int, concurrency: int) -> None:
    import httpx2

    body = {"model": "stand-in", "messages": [{"role": "system", "content": "x" * 1200},
                                              {"role": "user", "content": "Forecast for Oslo"}],
            "max_tokens": 512, "temperature": 0.0}

    async def run() -> None:
        gate = asyncio.Semaphore(concurrency)
        async with httpx2.AsyncClient(timeout=60) as client:
            async def one() -> None:
                async with gate:
                    answer = await client.post(f"{base_url}/chat/completions", json=body)
                    answer.raise_for_status()
                    answer.json()
            await asyncio.gather(*(one() for _ in range(requests)))

    asyncio.run(run())


def timed(run: str, base_url: str, requests: int, concurrency: int) -> tuple[float, float]:
    """One client's run in this process: (wall seconds, CPU seconds)."""
    cpu, wall = time.process_time(), time.perf_counter()
    (toolform_run if run == "toolform" else floor_run)(base_url, requests, concurrency)
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=160 if QUICK else 400,
                        help="requests per run (a multiple of the 8 formats)")
    parser.add_argument("--latency-ms", type=float, default=50.0)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    latency_s = arguments.latency_ms / 1000
    if arguments.serve:
        serve(latency_s)
        return 0
    endpoint = subprocess.Popen([sys.executable, __file__, "--serve", "--latency-ms", str(arguments.latency_ms)],
                                stdout=subprocess.PIPE, text=True)
    try:
        assert endpoint.stdout is not None
        base_url = f"http://127.0.0.1:{int(endpoint.stdout.readline())}/v1"
        n, slots = arguments.requests, arguments.concurrency
        print(f"ab-test against a {arguments.latency_ms:g} ms endpoint, {n} requests at concurrency {slots}, "
              f"{arguments.rounds} rounds in turns; load {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores",
              flush=True)
        timed("toolform", base_url, 16, slots)  # warm-up: imports, the evidence, the first render
        timed("floor", base_url, 16, slots)
        results: dict[str, list[tuple[float, float]]] = {"toolform": [], "floor": []}
        for _ in range(arguments.rounds):
            for run in results:
                results[run].append(timed(run, base_url, n, slots))
    finally:
        endpoint.kill()
        endpoint.wait()
    labels = {"toolform": "ToolForm ab-test (measure: render, send, parse, grade, record)",
              "floor": "the same requests, bare httpx2 client"}
    for run, rounds in results.items():
        cpu_us = min(c for _, c in rounds) / n * 1e6
        beyond_us = max(min(w for w, _ in rounds) * slots / n - latency_s, 0.0) * 1e6
        print(f"  {labels[run]:<64} {cpu_us:8.0f} µs CPU per request, {beyond_us:8.0f} µs wall per request "
              f"beyond the endpoint's {arguments.latency_ms:g} ms", flush=True)
        record("tf.overhead", f"{run}.cpu", f"{labels[run]}, CPU per request", "µs", cpu_us)
        record("tf.overhead", f"{run}.wall", f"{labels[run]}, wall per request beyond the endpoint", "µs",
               beyond_us)
    extra_us = (min(c for _, c in results["toolform"]) - min(c for _, c in results["floor"])) / n * 1e6
    print(f"  ToolForm's own CPU per request beyond the bare client's: {extra_us:.0f} µs (goal: under 1,000 µs); "
          f"load {os.getloadavg()[0]:.2f} at the end", flush=True)
    record("tf.overhead", "toolform.extra.cpu", "ToolForm's CPU per request beyond the bare client's", "µs", extra_us)
    return 0


if __name__ == "__main__":
    sys.exit(main())
