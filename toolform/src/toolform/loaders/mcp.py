"""MCP tools: a ``tools/list`` result (``{"tools": [{name, inputSchema}]}``), its JSON-RPC response,
a list, or one tool.

``outputSchema`` is read as the tool's return type; ``title`` and
``annotations`` are kept under the IR's ``annotations["mcp"]`` so that an MCP
export gives them back. ``_meta`` is protocol metadata: dropped, with a warning.
"""

from __future__ import annotations

from toolform.ir import USER, JsonValue, ToolIR, ToolSet
from toolform.loaders.common import entry, note_unread, text_member, tool_items, tool_name, tool_set
from toolform.loaders.jsonschema import SchemaReader
from toolform.loaders.notes import Notes

KIND = "mcp"
TOOL_MEMBERS = frozenset({"name", "title", "description", "inputSchema", "outputSchema", "annotations"})


def load(payload: JsonValue, notes: Notes) -> ToolSet:
    """Read MCP tools; raise LoaderError for a payload that holds none."""
    tools = []
    for index, item in enumerate(tool_items(payload)):
        body = entry(item, index)
        name = tool_name(body, index)
        note_unread(body, TOOL_MEMBERS, name, notes, KIND)
        schema = body.get("inputSchema")
        output = body.get("outputSchema")
        mcp: dict[str, JsonValue] = {key: body[key] for key in ("title", "annotations") if body.get(key) is not None}
        tools.append(
            ToolIR(
                name=name,
                description=text_member(body, "description", name, notes),
                params=SchemaReader(name, schema, notes).parameters(schema),
                domain=USER,
                category=USER,
                origin=USER,
                returns=None
                if output is None
                else SchemaReader(name, output, notes).type_of(output, path="$ (outputSchema)"),
                annotations={"mcp": mcp} if mcp else {},
            )
        )
    return tool_set(tools)
