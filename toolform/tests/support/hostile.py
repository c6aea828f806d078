"""What the hostile and fault tests of the server send and check: a tool, schemas that fan out, the error shape."""

from __future__ import annotations

from typing import Any


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
