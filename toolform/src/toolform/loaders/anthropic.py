"""Anthropic tools: ``{name, description, input_schema}``, as a list, ``{"tools": [...]}`` or one alone.

Anthropic's server tools (``{"type": "web_search_20250305", "name": ...}``) have
no schema of ours to read: each loads with no parameters and a warning saying so.
"""

from __future__ import annotations

from toolform.ir import USER, JsonValue, ToolIR, ToolSet
from toolform.loaders.common import entry, note_unread, text_member, tool_items, tool_name, tool_set
from toolform.loaders.jsonschema import SchemaReader
from toolform.loaders.notes import Notes

KIND = "anthropic"
#: ``cache_control`` is about the request's prompt cache, not the tool.
TOOL_MEMBERS = frozenset({"name", "description", "input_schema", "cache_control", "type"})


def load(payload: JsonValue, notes: Notes) -> ToolSet:
    """Read Anthropic tools; raise LoaderError for a payload that holds none."""
    tools = []
    for index, item in enumerate(tool_items(payload)):
        body = entry(item, index)
        name = tool_name(body, index)
        kind = body.get("type")
        if isinstance(kind, str) and kind != "custom" and "input_schema" not in body:
            notes.add(
                name,
                "$",
                f"an Anthropic server tool (type {kind!r}): its schema is the provider's; read as no parameters",
            )
        else:
            note_unread(body, TOOL_MEMBERS, name, notes, KIND)
        schema = body.get("input_schema")
        tools.append(
            ToolIR(
                name=name,
                description=text_member(body, "description", name, notes),
                params=SchemaReader(name, schema, notes).parameters(schema),
                domain=USER,
                category=USER,
                origin=USER,
            )
        )
    return tool_set(tools)
