"""The IR written as OpenAI function tools (Chat Completions' ``tools`` list)."""

from __future__ import annotations

from toolform.export.jsonschema import description, parameters_schema
from toolform.ir import JsonValue, ToolSet


def write(toolset: ToolSet) -> JsonValue:
    return [
        {
            "type": "function",
            "function": {"name": t.name, **description(t), "parameters": parameters_schema(t.params)},
        }
        for t in toolset
    ]
