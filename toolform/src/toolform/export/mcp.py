"""The IR written as an MCP ``tools/list`` result.

The title and annotations an MCP load kept (``annotations["mcp"]``) are given
back; an object return type is written as ``outputSchema``, described by ``returns_description``.
"""

from __future__ import annotations

from toolform.export.jsonschema import parameters_schema, type_schema
from toolform.ir import JsonValue, Kind, ToolIR, ToolSet


def write(toolset: ToolSet) -> JsonValue:
    return {"tools": [_tool(t) for t in toolset]}


def _tool(t: ToolIR) -> JsonValue:
    mcp = t.annotations.get("mcp")
    kept = mcp if isinstance(mcp, dict) else {}
    out: dict[str, JsonValue] = {"name": t.name}
    if kept.get("title") is not None:
        out["title"] = kept["title"]
    out["description"] = t.description
    out["inputSchema"] = parameters_schema(t.params)
    if t.returns is not None and t.returns.kind is Kind.OBJECT:
        output = type_schema(t.returns)
        if t.returns_description:
            output["description"] = t.returns_description
        out["outputSchema"] = output
    if kept.get("annotations") is not None:
        out["annotations"] = kept["annotations"]
    return out
