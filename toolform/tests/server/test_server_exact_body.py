"""Every route reads its body through the one exact reader, and every route that takes tools reads them through
the one dependency.

The structure is checked in process, over the application's own routes, so a route
added without them fails here; the behaviour through a real ``toolform serve``: a
number no float holds, anywhere in the body of any route with tools, is 400 naming
its path, and tools that break the tools object's rules are refused the same way
on every such route.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from toolform.server import Settings, create_app
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.schemas import ToolsInput

from support.hostile import ROUTES_WITH_TOOLS, assert_error, body_for, tool
from support.serving import OUR_TOOLFORM, Server

APP = create_app(Settings())


def _api_routes() -> list[APIRoute]:
    found: list[APIRoute] = []
    for route in APP.routes:
        original = getattr(route, "original_router", None)
        for inner in original.routes if original is not None else [route]:
            if isinstance(inner, APIRoute):
                found.append(inner)
    return found


def _body_params(dependant: Dependant) -> list[Any]:
    """The body parameters of ``dependant`` and of every dependency it has, depth first."""
    found = list(dependant.body_params)
    for dependency in dependant.dependencies:
        found.extend(_body_params(dependency))
    return found


def _takes_tools(route: APIRoute) -> bool:
    for param in _body_params(route.dependant):
        model = param.field_info.annotation
        if isinstance(model, type) and "tools" in getattr(model, "model_fields", {}):
            return True
    return False


def test_every_route_with_a_body_reads_it_exactly() -> None:
    with_body = [route for route in _api_routes() if _body_params(route.dependant)]
    assert {route.path for route in with_body} >= set(ROUTES_WITH_TOOLS)
    for route in with_body:
        assert isinstance(route, ExactJsonRoute), f"{route.path} reads its body without the exact reader"


def test_every_route_that_takes_tools_reads_them_through_the_dependency() -> None:
    takes_tools = {route.path: route for route in _api_routes() if _takes_tools(route)}
    # ab-test reads its tools after the endpoint and the formats are checked (its 409 comes first), through the
    # same conversion.read_tools, inside the measurement's start.
    assert set(takes_tools) == set(ROUTES_WITH_TOOLS)
    for path, route in takes_tools.items():
        if path == "/api/v1/ab-test":
            continue
        names = [getattr(dependency.call, "__name__", "") for dependency in route.dependant.dependencies]
        assert any(name.startswith("read_") for name in names), f"{path} reads its tools on its own: {names}"
        assert all(param.field_info.annotation is not ToolsInput for param in route.dependant.body_params)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server(OUR_TOOLFORM, ["--endpoint", "http://127.0.0.1:9/v1", "--endpoint-model", "m1"]) as served:
        yield served


@pytest.mark.parametrize("route", ROUTES_WITH_TOOLS)
@pytest.mark.parametrize("number", ["1e400", "NaN", "-Infinity"])
def test_a_number_no_float_holds_in_the_tools_is_400_on_every_route(server: Server, route: str, number: str) -> None:
    schema = '{"type": "object", "properties": {"n": {"type": "integer", "maximum": NUMBER}}}'.replace("NUMBER", number)
    body = json.dumps(body_for(route, {"source": "openai", "payload": [tool(parameters={"placeholder": 1})]}))
    body = body.replace('{"placeholder": 1}', schema)
    shape = assert_error(server.post(route, raw=body.encode(), headers={"Content-Type": "application/json"}),
                         400, "bad_request")  # fmt: skip
    assert "$.tools.payload[0].function.parameters.properties.n.maximum" in shape["detail"], shape


@pytest.mark.parametrize("route", ROUTES_WITH_TOOLS)
def test_the_tools_object_s_rules_answer_alike_on_every_route(server: Server, route: str) -> None:
    cases: list[tuple[dict[str, Any], int, str, str]] = [
        ({"source": "python", "payload": "def f(): pass"}, 400, "bad_request", "not accepted over HTTP"),
        ({"source": "nope", "payload": []}, 400, "bad_request", "unknown tools source 'nope'"),
        ({"source": "openai", "payload": []}, 422, "loader_error", "no tools"),
        ({"source": "openai", "payload": "not json"}, 400, "bad_request", "must be JSON, not text"),
    ]
    for tools, status, code, words in cases:
        shape = assert_error(server.post(route, body_for(route, tools)), status, code)
        assert words in shape["detail"], (tools, shape)
