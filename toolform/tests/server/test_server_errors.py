"""The error shape and statuses that apply before or around every route: 400, 404, 405, 413, 421, 422, 500."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from fastapi import FastAPI
from toolform.server import Settings, create_app
from toolform.server.errors import INTERNAL_DETAIL
from toolform.server.http_protocol import JsonErrorHttpToolsProtocol

from support.serving import OUR_TOOLFORM, Reply, Server, free_port, raw_exchange


def _error(reply: Reply, code: str, status: int) -> dict[str, object]:
    assert reply.status == status, reply.body
    assert reply.headers["content-type"] == "application/json"
    body: dict[str, object] = reply.json()
    assert body["error"] == code and body["status"] == status
    assert isinstance(body["detail"], (str, list)) and body["detail"]
    return body


# -- the Host check ---------------------------------------------------------------------------------

@pytest.mark.parametrize("host", ["localhost", "LOCALHOST:1", "127.0.0.1", "[::1]:8765", "::1"])
def test_loopback_names_are_answered(ours: Server, host: str) -> None:
    assert ours.get("/api/v1/health", headers={"Host": host}).status == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "localhost.", "127.0.0.2", "[::2]"])
def test_any_other_host_is_421_before_any_route(ours: Server, host: str) -> None:
    for path in ("/api/v1/health", "/api/v1/formats/nope", "/no/such/route", "/openapi.json", "/docs"):
        body = _error(ours.get(path, headers={"Host": host}), "misdirected_request", 421)
        assert f"'{host}'" in str(body["detail"]) and "--allowed-host" in str(body["detail"])


def test_421_comes_before_the_size_limit(ours: Server) -> None:
    head = b"POST /api/v1/tools/load HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 999999999\r\n\r\n"
    assert raw_exchange(ours.port, head).startswith(b"HTTP/1.1 421 ")


def test_a_missing_host_header_is_421_and_a_second_one_is_refused(ours: Server) -> None:
    assert raw_exchange(ours.port, b"GET /api/v1/health HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 421 ")
    # Two Host headers are not HTTP/1.1: the parser refuses them (400) before the Host check could.
    smuggled = b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"
    head, _, body = raw_exchange(ours.port, smuggled).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and json.loads(body)["error"] == "bad_request"


def test_allowed_hosts_come_from_the_flag_and_the_environment() -> None:
    with Server(
        OUR_TOOLFORM, ["--allowed-host", "flag.example"], env={"TOOLFORM_ALLOWED_HOSTS": "env.example, two.example"}
    ) as server:
        for host in ("flag.example", "env.example:443", "two.example", "localhost"):
            assert server.get("/api/v1/health", headers={"Host": host}).status == 200, host
        assert server.get("/api/v1/health", headers={"Host": "three.example"}).status == 421


def test_a_star_turns_the_check_off() -> None:
    with Server(OUR_TOOLFORM, ["--allowed-host", "*"]) as server:
        assert server.get("/api/v1/health", headers={"Host": "anything.example"}).status == 200


def test_serve_json_prints_the_settings_with_the_allowed_hosts() -> None:
    flags = ["--json", "--allowed-host", "b.example"]
    with Server(OUR_TOOLFORM, flags, env={"TOOLFORM_ALLOWED_HOSTS": "a.example"}) as s:
        deadline = time.monotonic() + 10
        while "}\n}" not in s.output() and time.monotonic() < deadline:
            time.sleep(0.1)
        printed = json.loads(s.output()[: s.output().index("}\n}") + 3])
    assert printed["settings"]["allowed_hosts"] == ["a.example", "b.example"]
    assert printed["settings"]["max_tools"] == 2000
    assert printed["settings"]["max_body_bytes"] == 8_000_000
    assert printed["evidence"]["status"] == "ok"
    assert printed["url"].startswith("http://127.0.0.1:")


# -- Content-Length and the size limit ----------------------------------------------------------------

def test_a_content_length_that_is_not_a_number_is_400_in_the_error_shape(ours: Server) -> None:
    answer = raw_exchange(
        ours.port, b"POST /api/v1/tools/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n{}"
    )
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert b"content-type: application/json" in head.lower()
    error = json.loads(body)
    assert error["error"] == "bad_request" and error["status"] == 400
    assert "Content-Length" in error["detail"]


def test_a_declared_body_over_the_limit_is_413_before_it_is_read(ours: Server) -> None:
    head = b"POST /api/v1/tools/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    answer = raw_exchange(ours.port, head + b"Content-Length: 8000001\r\n\r\n", timeout=5)
    status, _, body = answer.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 413 ")
    assert json.loads(body) == {
        "error": "payload_too_large",
        "detail": "the request body is 8,000,001 bytes; the limit is 8,000,000",
        "status": 413,
    }


def test_a_chunked_body_over_the_limit_is_413_as_it_arrives(ours: Server) -> None:
    chunk = b"x" * 1_000_000
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(9)) + b"0\r\n\r\n"
    head = (
        b"POST /api/v1/tools/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    answer = raw_exchange(ours.port, head + chunked, timeout=20)
    status, _, body = answer.partition(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 413 ")
    error = json.loads(body)
    assert error["error"] == "payload_too_large"
    assert "counted as it arrived" in error["detail"]


def test_a_body_at_the_limit_is_read(ours: Server) -> None:
    padding = " " * (8_000_000 - len(b'{"tools": 1}'))
    reply = ours.post("/api/v1/tools/load", raw=('{"tools": 1}' + padding).encode(),
                      headers={"Content-Type": "application/json"})
    # Read and validated: the body is within the limit, the value is wrong.
    _error(reply, "validation_error", 422)


# -- unknown routes, methods, bodies --------------------------------------------------------------------

def test_an_unknown_route_is_404_not_found(ours: Server) -> None:
    assert _error(ours.get("/api/v1/nothing"), "not_found", 404)["detail"] == "Not Found"


def test_a_wrong_method_is_405(ours: Server) -> None:
    _error(ours.request("DELETE", "/api/v1/health"), "method_not_allowed", 405)


def test_a_body_that_is_not_json_keeps_fastapis_detail(ours: Server) -> None:
    reply = ours.post("/api/v1/tools/load", raw=b"not json", headers={"Content-Type": "application/json"})
    detail = _error(reply, "validation_error", 422)["detail"]
    assert isinstance(detail, list) and detail[0]["type"] == "json_invalid"


@pytest.mark.parametrize(
    ("body", "kind", "loc"),
    [
        ({"tools": 1}, "model_attributes_type", ["body", "tools"]),
        ({"tools": {"payload": []}, "extra": 1}, "extra_forbidden", ["body", "extra"]),
        ({"tools": {"payload": [], "x": 1}}, "extra_forbidden", ["body", "tools", "x"]),
        ({"tools": {"source": 5, "payload": []}}, "string_type", ["body", "tools", "source"]),
        ({}, "missing", ["body", "tools"]),
    ],
)
def test_a_body_off_the_schema_is_422_validation_error(ours: Server, body: object, kind: str, loc: list[str]) -> None:
    detail = _error(ours.post("/api/v1/tools/load", body), "validation_error", 422)["detail"]
    assert isinstance(detail, list)
    assert (detail[0]["type"], detail[0]["loc"]) == (kind, loc)


def test_export_to_an_unknown_shape_is_422(ours: Server) -> None:
    body = {"tools": {"source": "openai", "payload": []}, "to": "xml"}
    detail = _error(ours.post("/api/v1/tools/export", body), "validation_error", 422)["detail"]
    assert isinstance(detail, list) and detail[0]["loc"] == ["body", "to"]


# -- 500: a bug answers internal_error, its detail hidden unless TOOLFORM_DEBUG -------------------------

def _serve_in_thread(app: FastAPI) -> Iterator[Server]:
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http=JsonErrorHttpToolsProtocol,
                                           log_level="critical"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    handle = Server.__new__(Server)
    handle.port = port
    try:
        yield handle
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _buggy_app(debug: bool) -> FastAPI:
    app = create_app(Settings(debug=debug))

    @app.get("/api/v1/bug")
    def bug() -> None:
        raise ZeroDivisionError("the secret detail")

    return app


@pytest.fixture
def buggy() -> Iterator[Server]:
    yield from _serve_in_thread(_buggy_app(debug=False))


@pytest.fixture
def buggy_debug() -> Iterator[Server]:
    yield from _serve_in_thread(_buggy_app(debug=True))


def test_a_bug_is_500_internal_error_without_its_detail(buggy: Server) -> None:
    body = _error(buggy.get("/api/v1/bug"), "internal_error", 500)
    assert body["detail"] == INTERNAL_DETAIL
    assert "secret" not in buggy.get("/api/v1/bug").body.decode()


def test_with_debug_the_500_shows_the_traceback(buggy_debug: Server) -> None:
    body = _error(buggy_debug.get("/api/v1/bug"), "internal_error", 500)
    assert "ZeroDivisionError: the secret detail" in str(body["detail"])
