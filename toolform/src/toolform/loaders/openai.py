"""OpenAI function tools: ``{"type": "function", "function": {name, description, parameters}}``.

Also read: the bare function object (``{name, description, parameters}``), the
Responses API's flat tool (``{"type": "function", name, parameters}``), a list
of them, ``{"tools": [...]}``, and one tool alone. A parameters schema given as
JSON text is parsed.
"""

from __future__ import annotations

from toolform.ir import USER, JsonValue, ToolIR, ToolSet
from toolform.loaders.common import entry, note_unread, text_member, tool_items, tool_name, tool_set
from toolform.loaders.jsonschema import SchemaReader
from toolform.loaders.notes import Notes

KIND = "openai"
#: Members of the function object that are read (``strict`` only asks the provider to enforce the schema).
FUNCTION_MEMBERS = frozenset({"name", "description", "parameters", "strict", "type"})
#: Members of the wrapper around a function object that are read (or it, under ``function``).
_WRAPPER_READ = FUNCTION_MEMBERS | {"function"}


def load(payload: JsonValue, notes: Notes) -> ToolSet:
    """Read OpenAI function tools; raise LoaderError for a payload that holds none."""
    tools = []
    for index, item in enumerate(tool_items(payload)):
        wrapper = entry(item, index)
        function = wrapper.get("function")
        body = function if isinstance(function, dict) else wrapper
        name = tool_name(body, index)
        if body is not wrapper and not wrapper.keys() <= _WRAPPER_READ:
            note_unread({k: v for k, v in wrapper.items() if k != "function"}, FUNCTION_MEMBERS, name, notes, KIND)
        note_unread(body, FUNCTION_MEMBERS, name, notes, KIND)
        schema = body.get("parameters")
        reader = SchemaReader(name, schema, notes)
        tools.append(
            ToolIR(
                name=name,
                description=text_member(body, "description", name, notes),
                params=reader.parameters(schema),
                domain=USER,
                category=USER,
                origin=USER,
            )
        )
    return tool_set(tools)
