"""`toolform serve` when the work itself goes wrong: a parse past its time limit, a worker out of memory, a bug.

One real server is started with a ``sitecustomize`` module on its PYTHONPATH (the
interpreter imports it at start, in the server and in each parse worker it spawns):
it bounds each parse worker's address space (RLIMIT_AS), so that a schema fanning
out to millions of nodes raises a real MemoryError there, and it wraps the SDK's
``parse_reply`` so that a reply naming a marker sleeps (past the time limit) or
raises a bug whose message holds the operator's key. Each case must answer in the
error shape, keep the server serving, and keep every secret out of the log.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.hostile import assert_error, fan_out, tool
from support.serving import OUR_TOOLFORM, Server

SECRET = "sk-operator-0123456789abcdef"
PASSWORD = "hunter2-password"
ECHOED = "sk-echoed-by-a-proxy-42"
#: Markers the wrapped parse_reply reacts to.
SLEEP, BUG = "PLEASE-SLEEP-PAST-THE-LIMIT", "PLEASE-RAISE-A-BUG"
#: Address space a parse worker may grow by once its imports are done: an ordinary parse fits, an expansion to
#: millions of schema nodes does not.
WORKER_GROWTH_BYTES = 60_000_000

SITECUSTOMIZE = textwrap.dedent(f'''
    import os
    import sys

    import time

    if "--multiprocessing-fork" in sys.argv:  # a parse worker, spawned by the server
        import resource

        import toolform.loaders
        import toolform.server.fast_route
        import toolform.server.routes.parse
        import toolform.server.work_pool

        serve = toolform.server.work_pool._serve

        def bounded_serve(*arguments):
            with open("/proc/self/statm") as statm:
                pages = int(statm.read().split()[0])
            growth = int(os.environ.get("WORKER_GROWTH_BYTES", {WORKER_GROWTH_BYTES}))
            limit = pages * os.sysconf("SC_PAGE_SIZE") + growth
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            serve(*arguments)

        toolform.server.work_pool._serve = bounded_serve

    import toolform.parse

    original = toolform.parse.parse_reply

    def parse_reply(toolset, text, *arguments, **options):
        if {SLEEP!r} in text:
            time.sleep(600)
        if {BUG!r} in text:
            raise RuntimeError("a bug holding " + os.environ["OPENAI_API_KEY"] + " and Bearer {ECHOED}")
        return original(toolset, text, *arguments, **options)

    toolform.parse.parse_reply = parse_reply
''')  # fmt: skip

#: The time limit of the server that tests it; the other's is the default, longer than running out of memory takes.
TIMEOUT_S = 2


@pytest.fixture(scope="module")
def sitecustomize(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder: Path = tmp_path_factory.mktemp("sitecustomize")
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return folder


def serve(folder: Path, *arguments: str) -> Server:
    arguments += ("--max-schema-nodes", "100000000", "--endpoint", f"http://operator:{PASSWORD}@127.0.0.1:9/v1",
                  "--endpoint-model", "m1")  # fmt: skip
    return Server(OUR_TOOLFORM, list(arguments), env={"PYTHONPATH": str(folder), "OPENAI_API_KEY": SECRET})


@pytest.fixture(scope="module")
def server(sitecustomize: Path) -> Iterator[Server]:
    with serve(sitecustomize) as served:
        yield served


def parse_body(text: str, tools: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"tools": {"source": "openai", "payload": tools or [tool()]}, "text": text, "protocol": "python_call"}


def large(marker: str = "") -> str:
    """A reply over the 32 KB a body may have to be parsed on the event loop: it goes to a worker process."""
    return marker + " get_forecast(city='Denver')" + " " * 40_000


def assert_still_serving(server: Server) -> None:
    assert server.get("/api/v1/health").status == 200
    for text in ("get_forecast(city='Denver')", large()):  # on the event loop, and in a (new) worker
        reply = server.post("/api/v1/parse", parse_body(text), timeout=120)
        assert reply.status == 200 and reply.json()["calls"][0]["arguments"] == {"city": "Denver"}, reply.body[:300]


def test_a_parse_past_its_time_limit_is_413_naming_the_bound_and_its_worker_is_replaced(sitecustomize: Path) -> None:
    with serve(sitecustomize, "--parse-timeout", str(TIMEOUT_S)) as server:
        for _ in range(3):  # more times than there are workers: each one killed is replaced
            reply = server.post("/api/v1/parse", parse_body(large(SLEEP)), timeout=120)
            shape = assert_error(reply, 413, "payload_too_large")
            assert f"longer than {TIMEOUT_S} s" in shape["detail"] and "--parse-timeout" in shape["detail"], shape
        assert_still_serving(server)


def test_a_real_memory_error_in_a_worker_is_answered_in_the_shape_and_the_server_keeps_serving(
    server: Server,
) -> None:
    # Five ways ten deep: about ten million schema nodes, far past what the worker's address space holds.
    body = parse_body(large(), [tool(parameters=fan_out(5, 10))])
    reply = server.post("/api/v1/parse", body, timeout=300)
    # Where the allocation fails decides which: a MemoryError the worker catches is 413 naming it; one the
    # interpreter cannot even raise ends the worker, which is a 500 (the log says it ended).
    if reply.status == 413:
        shape = assert_error(reply, 413, "payload_too_large")
        assert "more memory than its worker could get" in shape["detail"], shape
    else:
        assert_error(reply, 500, "internal_error")
        assert "MemoryError" in server.output() and "ended without answering" in server.output()
    assert_still_serving(server)


def test_a_request_larger_than_its_worker_can_hold_is_413_naming_memory(sitecustomize: Path) -> None:
    # The worker's address space may grow by 4 MB (as under an operator's `ulimit -v`); the reply, 6 MB of an
    # 8 MB body, is refused by the worker as it receives it, before the text's own limit is looked at.
    with Server(OUR_TOOLFORM, [], env={"PYTHONPATH": str(sitecustomize), "WORKER_GROWTH_BYTES": "4000000"}) as server:
        for _ in range(3):  # more times than there are workers: each one that ran out is replaced
            reply = server.post("/api/v1/parse", parse_body(large() + " " * 6_000_000), timeout=120)
            shape = assert_error(reply, 413, "payload_too_large")
            assert "more memory than its worker could get" in shape["detail"], shape
        assert_still_serving(server)


@pytest.mark.parametrize("text", [BUG, large(BUG)], ids=["on the event loop", "in a worker"])
def test_a_bugs_traceback_is_logged_without_the_secrets(server: Server, text: str) -> None:
    assert server.post("/api/v1/parse", parse_body("get_forecast(city='Denver')")).status == 200  # tools recent
    assert_error(server.post("/api/v1/parse", parse_body(text), timeout=120), 500, "internal_error")
    log = server.output()
    assert "RuntimeError: a bug holding [redacted] and Bearer [redacted]" in log, log[-3000:]
    assert SECRET not in log and ECHOED not in log and PASSWORD not in log
    assert_still_serving(server)


def test_tools_that_expand_far_are_read_in_a_worker_with_the_answer_read_in_process(server: Server) -> None:
    from toolform.conversion import load_tools
    from toolform.limits import DEFAULT_MAX_SCHEMA_NODES, set_schema_node_limit
    from toolform.server.far_loads import reads_far

    payload = [tool(parameters=fan_out(3, 9))]  # about 30,000 nodes once inlined: past the estimate's bound
    assert reads_far("openai", payload)
    reply = server.post("/api/v1/tools/load", {"tools": {"source": "openai", "payload": payload}}, timeout=300)
    assert reply.status == 200, reply.body[:300]
    set_schema_node_limit(100_000_000)  # the server's --max-schema-nodes
    try:
        assert reply.json() == json.loads(json.dumps(load_tools("openai", payload).to_dict()))
    finally:
        set_schema_node_limit(DEFAULT_MAX_SCHEMA_NODES)
