"""The IR written as its own document (``universe_id``, ``seed``, ``meta``, ``tools``), losing nothing."""

from __future__ import annotations

from toolform.ir import JsonValue, ToolSet


def write(toolset: ToolSet) -> JsonValue:
    document: JsonValue = toolset.to_dict()  # type: ignore[assignment]
    return document
