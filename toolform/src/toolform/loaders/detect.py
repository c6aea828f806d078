"""Which shape a payload is in, for the ``auto`` source.

Each tool entry is classified by the member only its shape has; every entry must
agree (a payload mixing shapes is an error that names two of them, where the
reference reads it as one shape and fails on the first tool that is not).
"""

from __future__ import annotations

import json

from toolform.errors import LoaderError
from toolform.ir import JsonValue
from toolform.loaders.common import tool_items

SHAPE_NAMES = {
    "openai": "an OpenAI function tool",
    "anthropic": "an Anthropic tool",
    "mcp": "an MCP tool",
    "ir": "an IR tool",
    "flow": "a Flow listing's tool",
}

UNKNOWN = (
    "cannot tell what kind of tool input this is. Accepted: OpenAI function JSON (a list of "
    "{type: function, function: {...}} or {tools: [...]}), Anthropic tool JSON ({name, description, "
    "input_schema}), an MCP tools/list result ({tools: [{name, inputSchema}]}, or the JSON-RPC response), "
    "canonical IR ({tools: [{name, params}]}), a Flow listing (flow tools), or TypeScript declarations as text"
)


def detect(payload: JsonValue) -> str:
    """The source name of the shape ``payload`` is in; LoaderError when no one shape fits."""
    if isinstance(payload, str):
        try:
            parsed = json.loads(payload)
        except ValueError:
            return "typescript"
        return detect(parsed)
    if isinstance(payload, dict) and "data" in payload:
        listed = payload.get("tools")
        if isinstance(listed, list) and all(isinstance(t, dict) and "tool" in t for t in listed):
            return "flow"
    items = tool_items(payload)
    if not items:
        # An empty list is every shape at once; any loader says there are no tools.
        return "openai"
    shapes = [shape_of(item) for item in items]
    for index, shape in enumerate(shapes):
        if shape is None:
            raise LoaderError(UNKNOWN if index == 0 else f"tool {index} is in no known shape. {UNKNOWN}")
    first = shapes[0]
    for index, shape in enumerate(shapes):
        if shape != first:
            assert first is not None and shape is not None
            raise LoaderError(
                f"tool 0 is {SHAPE_NAMES[first]} but tool {index} is {SHAPE_NAMES[shape]}; "
                "send one shape at a time, or name the source"
            )
    assert first is not None
    return first


def shape_of(item: JsonValue) -> str | None:
    """The shape of one tool entry, or None."""
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("function"), dict) or (item.get("type") == "function" and "name" in item):
        return "openai"
    if "input_schema" in item:
        return "anthropic"
    if "inputSchema" in item:
        return "mcp"
    if "tool" in item and "ok" in item and "params" in item:
        return "flow"
    if "params" in item:
        return "ir"
    if "parameters" in item and "name" in item:
        return "openai"
    return None
