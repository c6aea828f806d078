"""The YAML family: JSON Schema as YAML, flow style, minimal, documented, anchors, OpenAPI."""

from __future__ import annotations

from typing import Any

from toolform.render import yaml_text
from toolform.render.families import Renderer
from toolform.render.json_schema import parameters_schema, returns_schema
from toolform.render.model import Tool
from toolform.render.options import RenderOptions


def _schema_entry(tool: Tool) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": tool.name}
    if tool.description:
        entry["description"] = tool.description
    entry["parameters"] = parameters_schema(tool)
    returns = returns_schema(tool)
    if returns is not None:
        entry["returns"] = returns
    return entry


def yaml_schema(tools: list[Tool], options: RenderOptions) -> str:
    return yaml_text.dump([_schema_entry(t) for t in tools])


RENDERERS: dict[str, Renderer] = {
    "yaml_schema": yaml_schema,
}
