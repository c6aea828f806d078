"""The IR written as Anthropic tools (the Messages API's ``tools`` list)."""

from __future__ import annotations

from toolform.export.jsonschema import description, parameters_schema
from toolform.ir import JsonValue, ToolSet


def write(toolset: ToolSet) -> JsonValue:
    return [{"name": t.name, **description(t), "input_schema": parameters_schema(t.params)} for t in toolset]
