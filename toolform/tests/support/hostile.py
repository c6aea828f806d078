"""What the hostile and fault tests of the server send and check: a tool, schemas that fan out, the error shape."""

from __future__ import annotations

from typing import Any

from support.measure_cases import EXAMPLES


def tool(description: str = "Forecast for a city.", parameters: dict[str, Any] | None = None) -> dict[str, Any]:
    """One OpenAI tool, ``get_forecast``, with these parameters (a city by default)."""
    schema = parameters or {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    return {"type": "function", "function": {"name": "get_forecast", "description": description, "parameters": schema}}


def fan_out(ways: int, depth: int) -> dict[str, Any]:
    """A schema whose every definition refers to the next ``ways`` times: ways**depth nodes once inlined."""
    defs: dict[str, Any] = {f"d{depth}": {"type": "string"}}
    for level in range(depth - 1, -1, -1):
        defs[f"d{level}"] = {"type": "object", "properties": {f"p{i}": {"$ref": f"#/$defs/d{level + 1}"}
                                                              for i in range(ways)}}  # fmt: skip
    return {"type": "object", "properties": {"root": {"$ref": "#/$defs/d0"}}, "$defs": defs}


def assert_error(reply: Any, status: int, code: str) -> dict[str, Any]:
    """The reply is ToolForm's one error shape with this status and code; the shape, for more checks."""
    assert reply.status == status, reply.body[:500]
    shape: dict[str, Any] = reply.json()
    assert shape["error"] == code and shape["status"] == status and isinstance(shape["detail"], str), shape
    return shape


#: Every route that reads a tools object.
ROUTES_WITH_TOOLS = [
    "/api/v1/tools/load", "/api/v1/tools/export", "/api/v1/render", "/api/v1/render/compare", "/api/v1/guard",
    "/api/v1/parse", "/api/v1/catalogue/plan", "/api/v1/catalogue/retrieve", "/api/v1/catalogue/two-stage/prompt",
    "/api/v1/recommend", "/api/v1/ab-test",
]  # fmt: skip


def body_for(route: str, tools: dict[str, Any]) -> dict[str, Any]:
    """A valid body of ``route`` with ``tools``."""
    extras: dict[str, dict[str, Any]] = {
        "/api/v1/tools/export": {"to": "anthropic"},
        "/api/v1/render": {"format": "xml_schema"},
        "/api/v1/parse": {"text": "get_forecast(city='Denver')", "protocol": "python_call"},
        "/api/v1/catalogue/retrieve": {"query": "weather"},
        "/api/v1/catalogue/two-stage/prompt": {"request": "weather"},
        "/api/v1/ab-test": {"examples": EXAMPLES, "formats": ["json_schema_openai"]},
    }
    extra = extras.get(route, {})
    if route == "/api/v1/recommend":
        return {"tools": tools}
    return {"tools": tools, **extra}
