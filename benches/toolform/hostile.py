"""The hostile corpus against `toolform serve`, with /health timed beside it, and parse time on adversarial replies.

One server on 127.0.0.1 is sent, from a few client threads, the requests that
once held it: 1,000,000-character replies of "{", '{"', "(f ", "<function=",
"mutation {", blank lines and "Action:" lines under several protocols, schemas
whose $ref fan out 5 ways 10 deep, a TypeScript alias fan-out, lone surrogates and
NaN on every route. Meanwhile another thread asks GET /api/v1/health every 20 ms
and keeps the longest answer: the goal is under 50 ms. Then the parse SDK is timed
in process on each adversarial reply at 10,000, 100,000 and 1,000,000 characters:
linear reading shows as ten times the time for ten times the text.

Not a test and not part of `make test`; the machine's load is printed with the figures.

    .venv/bin/python benches/toolform/hostile.py [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "toolform" / "tests"))

from versus import load  # noqa: E402

from support.serving import OUR_TOOLFORM, Server  # noqa: E402

# isort: split
from toolform.loaders import load as load_tools  # noqa: E402
from toolform.parse import parse_reply  # noqa: E402

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
FUNCTION: dict[str, Any] = {"name": "get_forecast", "description": "Forecast for a city.", "parameters": SCHEMA}
TOOL = {"type": "function", "function": FUNCTION}
#: Each run beside a protocol whose reading it once made quadratic (a strict parser that finds nothing runs the
#: lenient fallback too, so every protocol's parser reads each of them).
PAIRS = [("{", "xml_call"), ('{"', "json_object"), ("(f ", "python_call"), ("<function=", "function_tags"),
         ("mutation {", "graphql_call"), ("Action: x\n", "react"), ("\n", "yaml_call"), ("<think>", "xml_call"),
         ('"\\"{', "json_object"), ("SELECT f(", "sql_call"), ("(f ", "sexpr_call"), ("a-", "python_call"),
         ("Action: x" + " " * 10_000 + "y\n", "react"),
         ("Use f with a" + " " * 10_000 + "b\n", "nl_intent_structured"),
         ("get_forecast with city a" + " " * 10_000 + "b\n", "nl_intent"),
         ("get_forecast " + "with city x " * 1_000 + "\n", "nl_intent"), ("[x]\n", "json_object"),
         ("\\", "cli_call")]  # fmt: skip


#: Seconds /health is polled before the hostile requests, with none of them running.
CONTROL_SECONDS = 30


def run_of(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def fan_out(ways: int, depth: int) -> dict[str, Any]:
    defs: dict[str, Any] = {f"d{depth}": {"type": "string"}}
    for level in range(depth - 1, -1, -1):
        properties = {f"p{i}": {"$ref": f"#/$defs/d{level + 1}"} for i in range(ways)}
        defs[f"d{level}"] = {"type": "object", "properties": properties}
    return {"type": "object", "properties": {"root": {"$ref": "#/$defs/d0"}}, "$defs": defs}


def hostile_requests() -> list[tuple[str, bytes]]:
    tools = {"source": "openai", "payload": [TOOL]}
    requests: list[tuple[str, bytes]] = []
    for unit, protocol in PAIRS:
        body = {"tools": tools, "text": run_of(unit, 1_000_000), "protocol": protocol}
        requests.append(("/api/v1/parse", json.dumps(body).encode()))
    fanned_tool = {"type": "function", "function": {**FUNCTION, "parameters": fan_out(5, 10)}}
    fanned = {"source": "openai", "payload": [fanned_tool]}
    for route in ("/api/v1/tools/load", "/api/v1/parse", "/api/v1/guard", "/api/v1/render"):
        body = {"tools": fanned, "text": "x", "protocol": "xml_call"} if route == "/api/v1/parse" else {"tools": fanned}
        if route == "/api/v1/render":
            body["format"] = "xml_schema"
        requests.append((route, json.dumps(body).encode()))
    aliases = "type T0 = string;\n" + "\n".join(
        f"type T{i} = {{ a: T{i - 1}; b: T{i - 1}; c: T{i - 1}; d: T{i - 1} }};" for i in range(1, 12)
    ) + "\ndeclare function f(x: T11): void;"
    typescript = {"tools": {"source": "typescript", "payload": aliases}}
    requests.append(("/api/v1/tools/load", json.dumps(typescript).encode()))
    surrogate = json.dumps({"tools": tools, "format": "xml_schema"}).replace("Forecast", "Fore\\ud800cast").encode()
    for route in ("/api/v1/render", "/api/v1/guard", "/api/v1/tools/load"):
        requests.append((route, surrogate))
    return requests


def send(server: Server, path: str, body: bytes) -> int:
    status: int = server.post(path, raw=body, headers={"Content-Type": "application/json"}, timeout=600).status
    return status


def _poll(port: int, stop: Any, out: Any) -> None:
    """In a process of its own (so that the clients' work never delays it): GET /api/v1/health every 20 ms, on
    a new connection each time, until ``stop`` is set; the seconds each took are sent on ``out``."""
    import http.client

    times: list[float] = []
    while not stop.is_set():
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", "/api/v1/health")
        answer = connection.getresponse()
        answer.read()
        connection.close()
        assert answer.status == 200, answer.status
        times.append(time.perf_counter() - started)
        time.sleep(0.02)
    out.send(times)


def polled(port: int) -> tuple[Any, Any, Any]:
    context = multiprocessing.get_context("spawn")
    stop, (receiving, sending) = context.Event(), context.Pipe(duplex=False)
    poller = context.Process(target=_poll, args=(port, stop, sending))
    poller.start()
    return poller, stop, receiving


def poll_result(poller: Any, stop: Any, receiving: Any) -> list[float]:
    stop.set()
    times: list[float] = receiving.recv()
    poller.join()
    return sorted(times)


def summary(times: list[float]) -> str:
    return (f"{len(times)} asked: median {statistics.median(times) * 1000:.1f} ms, p99 "
            f"{times[int(len(times) * 0.99)] * 1000:.1f} ms, longest {times[-1] * 1000:.1f} ms")


def hostile_run(rounds: int) -> None:
    requests = hostile_requests()
    with Server(OUR_TOOLFORM) as server:
        send(server, "/api/v1/tools/load", json.dumps({"tools": {"source": "openai", "payload": [TOOL]}}).encode())
        # The control: the same poller for a while with no hostile request, so that what the machine's other
        # load alone costs /health is measured beside what the hostile requests add.
        control = polled(server.port)
        time.sleep(CONTROL_SECONDS)
        quiet = poll_result(*control)
        during = polled(server.port)
        statuses: dict[int, int] = {}
        started = time.perf_counter()
        for _ in range(rounds):
            workers = []
            for part in range(3):
                def post_part(part: int = part) -> None:
                    for path, body in requests[part::3]:
                        status = send(server, path, body)
                        statuses[status] = statuses.get(status, 0) + 1
                workers.append(threading.Thread(target=post_part))
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join()
        elapsed = time.perf_counter() - started
        health = poll_result(*during)
    print(f"hostile corpus: {len(requests)} requests x {rounds} rounds from 3 clients in {elapsed:.1f} s; statuses "
          f"{dict(sorted(statuses.items()))}")
    print(f"/health (a poller process of its own) with no hostile request, {CONTROL_SECONDS} s: {summary(quiet)}")
    print(f"/health during the run: {summary(health)}: the goal (longest < 50 ms) is "
          f"{'met' if health[-1] < 0.050 else 'not met'}")


def parse_times() -> None:
    tools = load_tools("openai", [TOOL]).toolset
    print("parse SDK in process, seconds (10k / 100k / 1M characters; linear is x10 a step):")
    for unit, protocol in PAIRS:
        times = []
        for size in (10_000, 100_000, 1_000_000):
            text = run_of(unit, size)
            started = time.perf_counter()
            parse_reply(tools, text, protocol)
            times.append(time.perf_counter() - started)
        label = repr(unit if len(unit) <= 12 else unit[:9] + "...")
        print(f"  {label:14} {protocol:20} " + " ".join(f"{t:8.3f}" for t in times), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--skip-parse", action="store_true", help="only the hostile run against the server")
    arguments = parser.parse_args()
    print(load(), flush=True)
    hostile_run(arguments.rounds)
    if not arguments.skip_parse:
        parse_times()
    print(load())


if __name__ == "__main__":
    main()
