"""The catalogue functions' tools argument: a ToolSet, a tools object, or a payload the loaders read."""

from __future__ import annotations

from collections.abc import Mapping

from toolform.ir import ToolSet


def as_toolset(tools: object, source: str = "auto") -> ToolSet:
    """``tools`` as a ToolSet: itself, a tools object ``{"source", "payload"}``, or a payload read as ``source``."""
    if isinstance(tools, ToolSet):
        return tools
    if isinstance(tools, Mapping) and "payload" in tools and set(tools) <= {"source", "payload"}:
        source = str(tools.get("source", "auto"))
        tools = tools["payload"]
    from toolform import loaders

    # load() records the shape it read (the detected one for auto) as the set's source.
    return loaders.load(source, tools).toolset
