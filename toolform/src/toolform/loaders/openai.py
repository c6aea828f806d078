"""OpenAI function tools: ``{"type": "function", "function": {name, description, parameters}}``.

Also read: the bare function object (``{name, description, parameters}``), the
Responses API's flat tool (``{"type": "function", name, parameters}``), a list
of them, ``{"tools": [...]}``, and one tool alone. A parameters schema given as
JSON text is parsed.
"""

from __future__ import annotations

from toolform.ir import USER, FieldIR, JsonValue, ToolIR, ToolSet
from toolform.loaders.common import entry, note_unread, text_member, tool_items, tool_name, tool_set
from toolform.loaders.jsonschema import PLAIN_OBJECT_KEYS, SchemaReader, plain_fields
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
        tool = plain_tool(item)
        tools.append(_tool(item, index, notes) if tool is None else tool)
    return tool_set(tools)


def _tool(item: JsonValue, index: int, notes: Notes) -> ToolIR:
    wrapper = entry(item, index)
    function = wrapper.get("function")
    body = function if isinstance(function, dict) else wrapper
    name = tool_name(body, index)
    if body is not wrapper and not wrapper.keys() <= _WRAPPER_READ:
        note_unread({k: v for k, v in wrapper.items() if k != "function"}, FUNCTION_MEMBERS, name, notes, KIND)
    note_unread(body, FUNCTION_MEMBERS, name, notes, KIND)
    schema = body.get("parameters")
    reader = SchemaReader(name, schema, notes)
    return ToolIR(
        name=name,
        description=text_member(body, "description", name, notes),
        params=reader.parameters(schema),
        domain=USER,
        category=USER,
        origin=USER,
    )


def plain_tool(item: JsonValue) -> ToolIR | None:
    """``item`` read, when it is a tool the general reading (``_tool``) reads without a note: a
    ``{"type": "function", "function": {...}}`` entry whose parameters are an object schema of plain
    properties (``plain_fields``); None for anything else, which the general reading then reads.

    Catalogues of thousands of tools are mostly such tools; this reads them in a fraction of the time.
    """
    if type(item) is not dict:
        return None
    body = item.get("function")
    if type(body) is not dict or not item.keys() <= _WRAPPER_READ or not body.keys() <= FUNCTION_MEMBERS:
        return None
    name = body.get("name")
    description = body.get("description", "")
    if type(name) is not str or not name or type(description) is not str and description is not None:
        return None
    schema = body.get("parameters")
    params: list[FieldIR] | None = []
    if schema is not None:
        if type(schema) is not dict or not schema.keys() <= PLAIN_OBJECT_KEYS:
            return None
        params = plain_fields(schema) if schema.get("type", "object") == "object" else None
    if params is None:
        return None
    return ToolIR(name, description or "", params, USER, USER, USER)
