"""The fast path of /parse and /guard answers exactly as FastAPI's handler does: the same status, headers and
bytes, for every body.

Each request goes, in process, to the application with its fast routes and to one
without them (FastAPI's handler answering everything). A body the fast route
accepts must be answered by it (FastAPI's handler, and so the tools dependency,
never runs); any other must reach FastAPI's handler.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.types import Message, Scope
from toolform.server import Settings, create_app, request_tools
from toolform.server.schemas import GUARD_EXAMPLE

from support.parse_corpus import GOOD, TOOLS, corpus, write

Answer = tuple[int, list[tuple[bytes, bytes]], bytes]

SETTINGS = Settings()
WITH_FAST = create_app(SETTINGS)
WITHOUT_FAST = create_app(SETTINGS, fast_routes=False)
TOOLS_INPUT = {"source": "openai", "payload": TOOLS}


def _call(
    app: Any, path: str, body: bytes, content_type: bytes | None = b"application/json", chunk: int = 0
) -> Answer:
    """One request; with ``chunk``, the body is sent without a length, in pieces of that many bytes."""
    headers = [(b"host", b"127.0.0.1")]
    if not chunk:
        headers.append((b"content-length", str(len(body)).encode()))
    if content_type is not None:
        headers.append((b"content-type", content_type))
    scope: Scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": headers,
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
    }
    messages: list[Message] = []
    pieces = [body[i : i + chunk] for i in range(0, len(body), chunk)] if chunk else [body]

    async def receive() -> Message:
        if pieces:
            piece = pieces.pop(0)
            return {"type": "http.request", "body": piece, "more_body": bool(pieces)}
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        messages.append(message)

    asyncio.run(app(scope, receive, send))
    start, *bodies = messages
    return start["status"], list(start["headers"]), b"".join(m.get("body", b"") for m in bodies)


def _both(path: str, body: bytes, content_type: bytes | None = b"application/json") -> tuple[Answer, Answer]:
    return _call(WITH_FAST, path, body, content_type), _call(WITHOUT_FAST, path, body, content_type)


def _fast_only(
    path: str, body: bytes, monkeypatch: pytest.MonkeyPatch, content_type: bytes | None = b"application/json"
) -> tuple[Answer, int]:
    """The fast application's answer, and how many times FastAPI's handler solved the tools dependency."""
    solved = 0
    reading = request_tools.read_request_tools

    def counted(*arguments: Any, **options: Any) -> Any:
        nonlocal solved
        solved += 1
        return reading(*arguments, **options)

    # The fast path calls read_request_tools through its route's module; the dependency through this one.
    monkeypatch.setattr(request_tools, "read_request_tools", counted)
    try:
        return _call(WITH_FAST, path, body, content_type), solved
    finally:
        monkeypatch.undo()


PARSE_BODIES: list[dict[str, Any]] = [case.body() for case in list(corpus())[::25]] + [
    {"tools": TOOLS_INPUT, "text": '{"name": "send_email", "arguments": {"to": "a", "subject": "b", '
     '"priority": 0.1000000000000000000001}}', "protocol": "json_object"},
    {"tools": TOOLS_INPUT, "text": write("json_object", [GOOD]), "protocol": "json_object", "validate": False},
    {"tools": {"source": "openai", "payload": json.dumps(TOOLS)}, "text": "x", "protocol": "xml_call"},
]
# Bodies the model accepts but the route refuses: the SDK's errors, answered on the fast path.
PARSE_REFUSED: list[dict[str, Any]] = [
    {"tools": TOOLS_INPUT, "text": "x", "protocol": "nope"},
    {"tools": TOOLS_INPUT, "text": "x", "protocol": "xml_call", "rule": "as_written", "lenient_fallback": True},
    {"tools": {"source": "openai", "payload": []}, "text": "x", "protocol": "xml_call"},
    {"tools": {"source": "python", "payload": "def f(): pass"}, "text": "x", "protocol": "xml_call"},
    {"tools": {"source": "openai", "payload": [{"type": "function"}]}, "text": "x", "protocol": "xml_call"},
    {"tools": TOOLS_INPUT, "text": "x" * (SETTINGS.limits.max_text_chars + 1), "protocol": "xml_call"},
]
GUARD_BODIES: list[dict[str, Any]] = [
    GUARD_EXAMPLE,
    {**GUARD_EXAMPLE, "strictness": "strict", "action": "drop-descriptions", "scope": "all"},
    {"tools": TOOLS_INPUT, "strictness": "strict", "action": "strip", "strip_at": "low"},
    {"tools": {"source": "nope", "payload": []}},
]


@pytest.mark.parametrize("body", PARSE_BODIES + PARSE_REFUSED, ids=range(len(PARSE_BODIES + PARSE_REFUSED)))
def test_parse_bodies_are_answered_on_the_fast_path_as_fastapi_answers_them(
    body: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = json.dumps(body).encode()
    fast, fastapi = _both("/api/v1/parse", raw)
    assert fast == fastapi
    answer, reached = _fast_only("/api/v1/parse", raw, monkeypatch)
    assert answer == fastapi and reached == 0


@pytest.mark.parametrize("body", GUARD_BODIES, ids=range(len(GUARD_BODIES)))
def test_guard_bodies_are_answered_on_the_fast_path_as_fastapi_answers_them(
    body: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = json.dumps(body).encode()
    fast, fastapi = _both("/api/v1/guard", raw)
    assert fast == fastapi
    answer, reached = _fast_only("/api/v1/guard", raw, monkeypatch)
    assert answer == fastapi and reached == 0


FALLBACKS: list[tuple[str, bytes, bytes | None]] = [
    ("/api/v1/parse", b"not json", b"application/json"),
    ("/api/v1/parse", b"", b"application/json"),
    ("/api/v1/parse", b"\xff\xfe{", b"application/json"),
    ("/api/v1/parse", b"[" * 100_000, b"application/json"),
    ("/api/v1/parse", json.dumps({"tools": TOOLS_INPUT, "text": 5, "protocol": "x"}).encode(), b"application/json"),
    ("/api/v1/parse", json.dumps({"tools": TOOLS_INPUT, "protocol": "x"}).encode(), b"application/json"),
    ("/api/v1/parse", json.dumps({"tools": TOOLS_INPUT, "text": "x", "protocol": "x", "extra": 1}).encode(),
     b"application/json"),
    ("/api/v1/parse", json.dumps(PARSE_BODIES[0]).encode(), b"application/json; charset=utf-8"),
    ("/api/v1/parse", json.dumps(PARSE_BODIES[0]).encode(), b"text/plain"),
    ("/api/v1/parse", json.dumps(PARSE_BODIES[0]).encode(), None),
    ("/api/v1/guard", json.dumps({**GUARD_EXAMPLE, "action": "burn"}).encode(), b"application/json"),
    ("/api/v1/guard", b"[]", b"application/json"),
]


@pytest.mark.parametrize(("path", "body", "content_type"), FALLBACKS, ids=range(len(FALLBACKS)))
def test_every_other_body_reaches_fastapi_whole(
    path: str, body: bytes, content_type: bytes | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, fastapi = _both(path, body, content_type)
    assert fast == fastapi
    answer, reached = _fast_only(path, body, monkeypatch, content_type)
    assert answer == fastapi
    # A body FastAPI's handler accepts has its tools read by the dependency; one it refuses never gets there.
    assert reached == (1 if fastapi[0] == 200 else 0)


def test_a_number_no_float_holds_is_refused_on_the_fast_path_by_path(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = b'{"tools": {"source": "openai", "payload": [1e400]}, "text": "x", "protocol": "xml_call"}'
    fast, fastapi = _both("/api/v1/parse", raw)
    assert fast == fastapi and fast[0] == 400
    assert "$.tools.payload[0]" in json.loads(fast[2])["detail"]
    answer, reached = _fast_only("/api/v1/parse", raw, monkeypatch)
    assert answer == fastapi and reached == 0


def test_other_routes_answer_as_they_do_without_the_fast_path() -> None:
    raw = json.dumps(PARSE_BODIES[0]).encode()
    for path in ("/api/v1/parse/", "/api/v1/tools/load", "/api/v1/nothing"):
        assert _call(WITH_FAST, path, raw) == _call(WITHOUT_FAST, path, raw)


def test_a_body_sent_without_a_length_is_counted_as_it_arrives_on_the_fast_path() -> None:
    small = Settings.from_dict({**SETTINGS.to_dict(), "max_body_bytes": 2_000})
    body = json.dumps({**PARSE_BODIES[0], "text": "x" * 3_000}).encode()
    fast = _call(create_app(small), "/api/v1/parse", body, chunk=500)
    assert fast == _call(create_app(small, fast_routes=False), "/api/v1/parse", body, chunk=500)
    assert fast[0] == 413 and "counted as it arrived" in json.loads(fast[2])["detail"]
    within = json.dumps(PARSE_BODIES[0]).encode()
    assert _call(WITH_FAST, "/api/v1/parse", within, chunk=100) == _call(WITH_FAST, "/api/v1/parse", within)


NAN_TOOLS = json.dumps(TOOLS).replace('"minimum": 1', '"minimum": NaN')


@pytest.mark.parametrize(
    ("path", "tools"),
    [
        ("/api/v1/guard", {"source": "openai", "payload": NAN_TOOLS}),
        ("/api/v1/parse", {"source": "openai", "payload": NAN_TOOLS}),
        ("/api/v1/guard", {"source": "openai", "payload": [{"type": "function", "function": {
            "name": "f", "description": "d", "parameters": '{"type": "object", "properties": '
            '{"x": {"type": "number", "default": Infinity}}}'}}]}),
    ],
)
def test_nan_and_infinity_in_json_text_are_refused_by_the_loader(path: str, tools: dict[str, Any]) -> None:
    body = {"tools": tools, "text": "x", "protocol": "xml_call"} if path.endswith("parse") else {"tools": tools}
    raw = json.dumps(body)
    fast, fastapi = _both(path, raw.encode())
    assert fast == fastapi and fast[0] == 422
    error = json.loads(fast[2])
    assert error["error"] == "loader_error" and "is not a JSON number" in error["detail"]
