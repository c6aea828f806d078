"""`toolform serve` under hostile requests, each through a real server on loopback.

No request holds the server (replies that parsed in quadratic time, schemas that
expand exponentially, TypeScript that explodes), the operator's key reaches only the
operator's endpoint, secrets and paths never appear in an answer, jobs end on their
deadlines and on DELETE, and bad input is 400 on every route. Outcomes and bounds are
asserted, never durations: the deadlines are configured short so the tests stay fast,
and benches/toolform/hostile.py times /health beside the hostile corpus.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.hostile import ROUTES_WITH_TOOLS, assert_error, body_for, fan_out, tool
from support.measure_cases import EXAMPLES, TOOLS, TOOLS_INPUT
from support.scripted_endpoint import Answer, Fault, Prompt, ScriptedEndpoint
from support.serving import OUR_TOOLFORM, Server

SECRET = "sk-operator-0123456789abcdef"
#: The module server's --max-rendered-chars: well above any prompt of the other tests' small tools.
MAX_RENDERED = 50_000


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    arguments = ["--cors", "http://allowed.example", "--request-read-timeout", "1", "--max-schema-nodes", "20000",
                 "--max-rendered-chars", str(MAX_RENDERED), "--endpoint", "http://127.0.0.1:9/v1",
                 "--endpoint-model", "m1"]  # fmt: skip
    with Server(OUR_TOOLFORM, arguments) as served:
        yield served


# -- no request holds the server -----------------------------------------------------------------


#: Each run beside a protocol whose reading it once made quadratic (a strict parser that finds nothing also runs
#: the lenient fallback, so every protocol's parser reads each of them).
HOSTILE_REPLIES = [("{", "xml_call"), ('{"', "json_object"), ("(f ", "python_call"), ("<function=", "function_tags"),
                   ("mutation {", "graphql_call"), ("Action: x\n", "react"), ("\n", "yaml_call")]  # fmt: skip


@pytest.mark.parametrize(("unit", "protocol"), HOSTILE_REPLIES)
def test_a_reply_of_a_million_hostile_characters_is_parsed_and_health_answers(
    server: Server, protocol: str, unit: str
) -> None:
    text = (unit * (1_000_000 // len(unit) + 1))[:1_000_000]
    reply = server.post("/api/v1/parse", {"tools": {"source": "openai", "payload": [tool()]}, "text": text,
                                          "protocol": protocol}, timeout=120)  # fmt: skip
    assert reply.status == 200, reply.body[:300]
    assert reply.json()["protocol_id"] == protocol
    assert server.get("/api/v1/health").status == 200


@pytest.mark.parametrize("route", ["/api/v1/tools/load", "/api/v1/parse", "/api/v1/render", "/api/v1/guard",
                                   "/api/v1/catalogue/retrieve"])  # fmt: skip
def test_schemas_that_fan_out_are_413_naming_the_bound(server: Server, route: str) -> None:
    tools = {"source": "openai", "payload": [tool(parameters=fan_out(5, 10))]}
    shape = assert_error(server.post(route, body_for(route, tools)), 413, "payload_too_large")
    assert "20,000 schema nodes" in shape["detail"] and "max_schema_nodes" in shape["detail"]
    # A schema within the bound still loads.
    small = {"source": "openai", "payload": [tool(parameters=fan_out(2, 4))]}
    assert server.post("/api/v1/tools/load", {"tools": small}).status == 200


RENDERING_ROUTES = ["/api/v1/render", "/api/v1/render/compare", "/api/v1/catalogue/two-stage/prompt",
                    "/api/v1/catalogue/plan", "/api/v1/ab-test"]  # fmt: skip


@pytest.mark.parametrize("route", RENDERING_ROUTES)
def test_every_route_that_renders_refuses_a_prompt_beyond_the_rendered_bound(server: Server, route: str) -> None:
    # Within the text limit, but one description is longer than the rendered bound on its own.
    long = "Forecast for a city and more words " * 2_000
    long_tools = [{**TOOLS[0], "function": {**TOOLS[0]["function"], "description": long}}, *TOOLS[1:]]
    body = body_for(route, {"source": "openai", "payload": long_tools})
    shape = assert_error(server.post(route, body), 413, "payload_too_large")
    assert f"the limit is {MAX_RENDERED:,} (max_rendered_chars)" in shape["detail"], shape
    # The same route renders the ordinary tools.
    assert server.post(route, body_for(route, TOOLS_INPUT)).status in (200, 202)


def test_typescript_aliases_that_fan_out_are_413(server: Server) -> None:
    lines = ["type T0 = string;"]
    lines += [f"type T{i} = {{ a: T{i - 1}; b: T{i - 1}; c: T{i - 1}; d: T{i - 1} }};" for i in range(1, 12)]
    lines.append("declare function f(x: T11): void;")
    reply = server.post("/api/v1/tools/load", {"tools": {"source": "typescript", "payload": "\n".join(lines)}})
    assert "schema nodes" in assert_error(reply, 413, "payload_too_large")["detail"]


def test_a_thousand_deep_alias_chain_answers_without_a_path_or_a_stack(server: Server) -> None:
    lines = ["type T0 = string;", *(f"type T{i} = T{i - 1}[];" for i in range(1, 3000))]
    lines.append("declare function f(x: T2999): void;")
    reply = server.post("/api/v1/tools/load", {"tools": {"source": "typescript", "payload": "\n".join(lines)}})
    assert reply.status in (200, 413, 422), reply.body[:300]
    text = reply.body.decode()
    assert "/work/" not in text and "node_modules" not in text and "    at " not in text and ".js:" not in text


# -- bad input is 400 everywhere -------------------------------------------------------------------


@pytest.mark.parametrize("route", ROUTES_WITH_TOOLS)
def test_a_lone_surrogate_is_400_on_every_route(server: Server, route: str) -> None:
    body = json.dumps(body_for(route, {"source": "openai", "payload": [tool("Forecast \\ud800 here")]}))
    escaped = server.post(route, raw=body.replace("\\\\ud800", "\\ud800").encode(),
                          headers={"Content-Type": "application/json"})  # fmt: skip
    assert "lone surrogate" in assert_error(escaped, 400, "bad_request")["detail"]
    raw = server.post(route, raw=body.replace("\\\\ud800", "\ud800").encode("utf-8", "surrogatepass"),
                      headers={"Content-Type": "application/json"})  # fmt: skip
    assert raw.status == 400 and raw.json()["error"] == "bad_request", raw.body[:300]


@pytest.mark.parametrize("route", ["/api/v1/render", "/api/v1/render/compare", "/api/v1/recommend"])
@pytest.mark.parametrize("number", ["1e400", "NaN", "-Infinity"])
def test_a_number_no_float_holds_is_400_on_the_routes_that_skipped_the_exact_reader(
    server: Server, route: str, number: str
) -> None:
    schema = '{"type": "object", "properties": {"n": {"type": "integer", "maximum": NUMBER}}}'.replace("NUMBER", number)
    body = json.dumps(body_for(route, {"source": "openai", "payload": [tool(parameters={"placeholder": 1})]}))
    body = body.replace('{"placeholder": 1}', schema)
    shape = assert_error(server.post(route, raw=body.encode(), headers={"Content-Type": "application/json"}),
                         400, "bad_request")  # fmt: skip
    assert "maximum" in shape["detail"]


def test_nan_tier_on_recommend_is_400(server: Server) -> None:
    reply = server.post("/api/v1/recommend", raw=b'{"situation": {"tier": NaN}}',
                        headers={"Content-Type": "application/json"})  # fmt: skip
    assert_error(reply, 400, "bad_request")


def test_render_request_and_model_name_have_limits(server: Server) -> None:
    body = {"tools": {"source": "openai", "payload": [tool()]}, "format": "xml_schema", "request": "x" * 1_000_001}
    assert "request" in assert_error(server.post("/api/v1/render", body), 413, "payload_too_large")["detail"]
    ab = {"model": "m" * 999_000, "tools": TOOLS_INPUT, "examples": EXAMPLES, "formats": ["json_schema_openai"]}
    assert "model" in assert_error(server.post("/api/v1/ab-test", ab), 400, "bad_request")["detail"]


def test_a_disallowed_cors_preflight_is_in_the_error_shape(server: Server) -> None:
    reply = server.request("OPTIONS", "/api/v1/parse", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})  # fmt: skip
    assert "CORS" in assert_error(reply, 400, "bad_request")["detail"]
    allowed = server.request("OPTIONS", "/api/v1/parse", headers={
        "Origin": "http://allowed.example", "Access-Control-Request-Method": "POST"})  # fmt: skip
    assert allowed.status == 200


def test_a_slow_client_is_answered_400_and_cut_off(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(b"POST /api/v1/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{")
        received = b""
        while chunk := connection.recv(65536):  # the server closes the connection
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), received
    assert json.loads(body)["error"] == "bad_request"
    assert server.get("/api/v1/health").status == 200


# -- the key and the jobs ---------------------------------------------------------------------------


def answer_json(prompt: Prompt) -> Answer:
    return Answer('{"name": "get_forecast", "arguments": {"city": "Denver"}}')


def ab_body(**extra: Any) -> dict[str, Any]:
    return {"tools": TOOLS_INPUT, "examples": EXAMPLES, "formats": ["json_schema_openai"], "concurrency": 1, **extra}


def wait_for(server: Server, job_id: str, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        job: dict[str, Any] = server.get(f"/api/v1/ab-test/{job_id}").json()
        if job["status"] not in ("queued", "running") or time.monotonic() > deadline:
            return job
        time.sleep(0.05)


def test_the_operators_key_never_goes_to_a_clients_base_url() -> None:
    with ScriptedEndpoint(answer_json, ("m1",)) as operator, ScriptedEndpoint(answer_json, ("m1",)) as client:
        arguments = ["--endpoint", operator.base_url, "--endpoint-model", "m1", "--allow-client-endpoints",
                     "--endpoint-key-env", "TF_TEST_KEY", "--client-key-env", "TF_CLIENT_KEY"]  # fmt: skip
        env = {"TF_TEST_KEY": SECRET, "TF_CLIENT_KEY": "sk-client-key"}
        with Server(OUR_TOOLFORM, arguments, env=env) as server:
            own = server.post("/api/v1/ab-test", ab_body()).json()["job_id"]
            assert wait_for(server, own)["status"] == "done"
            theirs = server.post("/api/v1/ab-test", ab_body(base_url=client.base_url)).json()["job_id"]
            assert wait_for(server, theirs)["status"] == "done"
            named = server.post("/api/v1/ab-test", ab_body(base_url=client.base_url, api_key_env="TF_CLIENT_KEY"))
            assert wait_for(server, named.json()["job_id"])["status"] == "done"
            other = server.post("/api/v1/ab-test", ab_body(base_url=client.base_url, api_key_env="TF_TEST_KEY"))
            assert "--client-key-env" in assert_error(other, 400, "bad_request")["detail"]
        assert operator.requests and all(r.headers.get("authorization") == f"Bearer {SECRET}"
                                         for r in operator.requests)  # fmt: skip
        sent = [r.headers.get("authorization") for r in client.requests]
        assert sent and SECRET not in json.dumps(sent)
        assert set(sent) == {None, "Bearer sk-client-key"}


def test_credentials_in_the_endpoint_and_echoed_by_it_never_reach_an_answer() -> None:
    with ScriptedEndpoint(lambda _p: Answer("", fault=Fault("echo_headers", status=401)), ("m1",)) as echo:
        url = echo.base_url.replace("http://", "http://user:hunter2pass@") + "?api_key=query-secret-42"
        arguments = ["--endpoint", url, "--endpoint-model", "m1", "--endpoint-key-env", "TF_TEST_KEY"]
        with Server(OUR_TOOLFORM, arguments, env={"TF_TEST_KEY": SECRET}) as server:
            job_id = server.post("/api/v1/ab-test", ab_body()).json()["job_id"]
            job = wait_for(server, job_id)
            answered = server.get(f"/api/v1/ab-test/{job_id}?records=true").body.decode()
            log = server.output()
            assert server._store is not None
            stored = [path.read_text(errors="replace") for path in Path(server._store).rglob("*") if path.is_file()]
        assert job["status"] == "failed" and "401" in job["error"]
        assert any(job_id in text for text in stored), "the failed job is kept in the job store"
        for secret in (SECRET, "hunter2pass", "query-secret-42"):
            assert secret not in answered and secret not in log
            assert not any(secret in text for text in stored), secret


def test_a_failing_check_names_the_endpoint_without_its_credentials() -> None:
    url = "http://user:hunter2pass@127.0.0.1:9/v1?token=query-secret-42"
    with Server(OUR_TOOLFORM, ["--endpoint", url, "--endpoint-model", "m1"]) as server:
        job = wait_for(server, server.post("/api/v1/ab-test", ab_body()).json()["job_id"])
        assert job["status"] == "failed" and "127.0.0.1:9" in job["error"]
        assert "hunter2pass" not in job["error"] and "query-secret-42" not in job["error"]


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        (Fault("trickle", size=1000, interval_s=0.2), "no whole answer within 1 s (after 3 retries)"),
        (Fault("huge"), "over 10,000 bytes"),
    ],
)
def test_an_attempt_ends_on_its_deadline_and_a_completion_at_its_size(fault: Fault, expected: str) -> None:
    with ScriptedEndpoint(lambda _p: Answer("", fault=fault), ("m1",)) as endpoint:
        arguments = ["--endpoint", endpoint.base_url, "--endpoint-model", "m1", "--endpoint-attempt-timeout", "1",
                     "--endpoint-request-deadline", "30", "--endpoint-max-reply-bytes", "10000"]  # fmt: skip
        with Server(OUR_TOOLFORM, arguments) as server:
            body = ab_body(examples=EXAMPLES[:1])
            job = wait_for(server, server.post("/api/v1/ab-test", body).json()["job_id"])
            records = server.get(f"/api/v1/ab-test/{job['id']}?records=true")
        assert job["status"] == "failed" and expected in job["error"], job
        assert len(records.body) < 100_000


def test_a_silent_endpoint_ends_at_the_request_deadline() -> None:
    with ScriptedEndpoint(lambda _p: Answer("{}", delay_s=30), ("m1",)) as endpoint:
        arguments = ["--endpoint", endpoint.base_url, "--endpoint-model", "m1", "--endpoint-attempt-timeout", "1",
                     "--endpoint-request-deadline", "2"]  # fmt: skip
        with Server(OUR_TOOLFORM, arguments) as server:
            job = wait_for(server, server.post("/api/v1/ab-test", ab_body(examples=EXAMPLES[:1])).json()["job_id"])
        assert job["status"] == "failed" and "deadline of 2 s" in job["error"], job


def test_delete_stops_a_running_job_and_frees_its_slot() -> None:
    with ScriptedEndpoint(lambda _p: Answer("{}", delay_s=30), ("m1",)) as endpoint:
        arguments = ["--endpoint", endpoint.base_url, "--endpoint-model", "m1"]
        with Server(OUR_TOOLFORM, arguments) as server:
            ids = [server.post("/api/v1/ab-test", ab_body()).json()["job_id"] for _ in range(4)]
            assert_error(server.post("/api/v1/ab-test", ab_body()), 429, "too_many_jobs")
            while server.get(f"/api/v1/ab-test/{ids[0]}").json()["status"] != "running":
                time.sleep(0.05)
            stopped = server.request("DELETE", f"/api/v1/ab-test/{ids[0]}").json()
            assert stopped["status"] == "cancelled"
            # Its slot is free at once, and the next job starts although the endpoint still holds the request.
            assert server.post("/api/v1/ab-test", ab_body()).status == 202
            while server.get(f"/api/v1/ab-test/{ids[1]}").json()["status"] == "queued":
                time.sleep(0.05)
            assert server.get(f"/api/v1/ab-test/{ids[1]}").json()["status"] == "running"
            assert server.get(f"/api/v1/ab-test/{ids[0]}").json()["status"] == "cancelled"


def test_finished_jobs_beyond_the_memory_bound_are_answered_from_the_job_store() -> None:
    with ScriptedEndpoint(answer_json, ("m1",)) as endpoint:
        arguments = ["--endpoint", endpoint.base_url, "--endpoint-model", "m1", "--max-finished-jobs", "1"]
        with Server(OUR_TOOLFORM, arguments) as server:
            ids = []
            for _ in range(3):
                ids.append(server.post("/api/v1/ab-test", ab_body(examples=EXAMPLES[:1])).json()["job_id"])
                assert wait_for(server, ids[-1])["status"] == "done"
            # Only the newest is kept in memory; the older ones come back from the job store, whole.
            answers = [server.get(f"/api/v1/ab-test/{i}?records=true") for i in ids]
            assert [a.status for a in answers] == [200, 200, 200]
            assert all(a.json()["status"] == "done" and a.json()["result"]["records"] for a in answers)


def test_a_large_body_parsed_in_a_worker_answers_its_errors_in_the_shape(server: Server) -> None:
    body = {"tools": {"source": "openai", "payload": [tool()]}, "text": "x" * 100_000, "protocol": "xml_cal"}
    assert "xml_call" in assert_error(server.post("/api/v1/parse", body), 404, "unknown_protocol")["detail"]
    fanned = {"source": "openai", "payload": [tool(parameters=fan_out(5, 10))]}
    body = {"tools": fanned, "text": "x" * 100_000, "protocol": "xml_call"}
    assert "max_schema_nodes" in assert_error(server.post("/api/v1/parse", body), 413, "payload_too_large")["detail"]
