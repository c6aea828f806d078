"""Tools read into the IR, and written in another shape."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from toolform.conversion import EXPORT_TARGETS
from toolform.server.schemas.common import TOOLS_EXAMPLE, RequestBody, ResponseBody, ToolsInput


class ToolsLoadRequest(RequestBody):
    """Tools to read into the IR and summarise."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"tools": TOOLS_EXAMPLE}]})

    tools: ToolsInput


class ToolsExportRequest(RequestBody):
    """Tools to write in another shape."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"tools": TOOLS_EXAMPLE, "to": "mcp"}]}
    )

    tools: ToolsInput
    to: Literal["openai", "anthropic", "mcp", "ir"] = Field(description="One of " + ", ".join(EXPORT_TARGETS) + ".")


class ToolsLoadResponse(ResponseBody):
    """The tools in the IR, a summary, the shape that was read, and what was not read faithfully."""

    tools: list[dict[str, Any]]
    summary: dict[str, Any]
    kind: str
    warnings: list[str] = Field(description="For example an unknown JSON Schema type, read as any value.")


class ToolsExportResponse(ResponseBody):
    """The tools in the requested shape, and what was lost: in reading them, then in that shape."""

    to: str
    payload: Any
    warnings: list[str] = []
