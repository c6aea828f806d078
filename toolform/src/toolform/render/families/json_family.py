"""The JSON family: JSON Schema in its dialects, compact and minimal JSON, JSONL, JSON5 and kin."""

from __future__ import annotations

from typing import Any

from toolform.render.families import Renderer
from toolform.render.json_schema import parameters_schema, returns_schema
from toolform.render.model import Tool
from toolform.render.options import RenderOptions
from toolform.render.types import minimal_type
from toolform.render.values import compact_json, json_text


def openai_function(tool: Tool) -> dict[str, Any]:
    """A tool as OpenAI's ``{"type": "function", "function": ...}``."""
    function: dict[str, Any] = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = parameters_schema(tool)
    returns = returns_schema(tool)
    if returns is not None:
        function["returns"] = returns
    return {"type": "function", "function": function}


def json_schema_openai(tools: list[Tool], options: RenderOptions) -> str:
    return json_text([openai_function(t) for t in tools], indent=2, minify=options.minify)


def json_minimal(tools: list[Tool], options: RenderOptions) -> str:
    listed = [
        {
            "name": t.name,
            "params": {p.name: minimal_type(p.type) for p in t.params},
            "required": [p.name for p in t.required],
        }
        for t in tools
    ]
    return compact_json(listed)


RENDERERS: dict[str, Renderer] = {
    "json_schema_openai": json_schema_openai,
    "json_minimal": json_minimal,
}
