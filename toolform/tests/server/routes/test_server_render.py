"""The render routes, served on loopback with the application's own middleware, against the reference's.

The routes module is mounted here on the application ``create_app`` builds, as
the server mounts it; requests go to both servers and the whole answers are
compared (statuses and bodies, errors included).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from toolform.server.app import create_app
from toolform.server.routes import render as render_routes
from toolform.server.settings import Settings

from support import render_differences
from support.differential import mismatches
from support.serving import Server, free_port

SAMPLE: dict[str, Any] = {
    "source": "openai",
    "payload": [
        {
            "type": "function",
            "function": {
                "name": "get_forecast",
                "description": "Get the forecast. For one city.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "city": {"type": "string", "description": "City name."},
                        "when": {"type": "object", "properties": {"day": {"type": "integer"}}, "required": ["day"]},
                    },
                    "required": ["city", "when"],
                },
            },
        }
    ],
}

REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("/api/v1/render", {"tools": SAMPLE, "format": "xml_schema"}),
    ("/api/v1/render", {"tools": SAMPLE, "format": "python_signature_only", "request": "Denver?", "persona": "terse"}),
    ("/api/v1/render", {"tools": SAMPLE, "format": "typescript", "protocol": "tool_call_tags", "trust_line": True}),
    ("/api/v1/render", {"tools": SAMPLE, "format": "yaml_schema", "options": {"minify": True, "descriptions": False}}),
    ("/api/v1/render", {"tools": SAMPLE, "format": "names_then_schema"}),
    ("/api/v1/render", {"tools": SAMPLE, "format": "nope"}),
    ("/api/v1/render", {"tools": SAMPLE, "format": "xml_schema", "protocol": "nope"}),
    ("/api/v1/render/compare", {"tools": SAMPLE}),
    ("/api/v1/render/compare", {"tools": SAMPLE, "formats": ["json_minimal", "names_only"], "options": {}}),
    ("/api/v1/render/compare", {"tools": SAMPLE, "formats": []}),
    ("/api/v1/render/compare", {"tools": SAMPLE, "formats": ["nope"]}),
]


class _InProcess:
    """Our application with the render routes, served by uvicorn in a thread."""

    def __init__(self) -> None:
        settings = Settings()
        app = create_app(settings)
        app.include_router(render_routes.router(settings.limits))
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> _InProcess:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "the render routes' server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def ours_with_render() -> Iterator[Server]:
    with _InProcess() as running:
        # Server's request helpers only need the port; no process is started for it.
        client = Server.__new__(Server)
        client.port = running.port
        yield client


@pytest.mark.parametrize(
    ("path", "body"), REQUESTS, ids=[f"{p} {b.get('format', b.get('formats'))}" for p, b in REQUESTS]
)
def test_render_routes_agree(ours_with_render: Server, reference: Server, path: str, body: dict[str, Any]) -> None:
    ours, theirs = ours_with_render.post(path, body), reference.post(path, body)
    assert ours.status == theirs.status, (ours.body, theirs.body)
    mine, reference_answer = ours.json(), theirs.json()
    render_differences.adjust(mine, reference_answer)
    assert mismatches(mine, reference_answer) == []


def test_a_persona_outside_the_four_is_a_validation_error(ours_with_render: Server) -> None:
    answer = ours_with_render.post("/api/v1/render", {"tools": SAMPLE, "format": "xml_schema", "persona": "robot"})
    assert answer.status == 422 and answer.json()["error"] == "validation_error"
