"""One format and protocol rendered, or many formats side by side."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from toolform.limits import Limits
from toolform.render import RenderOptions
from toolform.server.schemas.common import TOOLS_EXAMPLE, RequestBody, ResponseBody, ToolsInput


class RenderOptionsBody(RequestBody):
    """What the rendering shows; every member is optional and takes the default shown."""

    descriptions: bool = True
    constraints: bool = True
    defaults: bool = True
    returns: bool = True
    minify: bool = False
    case_convention: Literal["as_is", "snake", "camel", "pascal", "kebab", "screaming"] = "as_is"

    def options(self) -> RenderOptions:
        return RenderOptions(**self.model_dump())


class RenderRequest(RequestBody):
    """Tools to render in one format, with a protocol's answer instructions."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "tools": TOOLS_EXAMPLE,
                    "format": "xml_schema",
                    "protocol": None,
                    "options": {"descriptions": True, "minify": False, "case_convention": "as_is"},
                    "request": "Forecast for Denver",
                    "persona": "agent",
                    "null_clause": True,
                    "trust_line": False,
                }
            ]
        },
    )

    tools: ToolsInput
    format: str = Field(description="A registered format id; a two-stage one is 400.")
    protocol: str | None = Field(None, description="A protocol id; null takes the format's default.")
    options: RenderOptionsBody = Field(default_factory=RenderOptionsBody)
    request: str | None = Field(None, description="The user's request; with it, messages is filled.")
    persona: Literal["agent", "terse", "bare", "expert"] = "agent"
    null_clause: bool = True
    trust_line: bool = False

    def check_limits(self, limits: Limits) -> None:
        if self.request is not None:
            limits.check_text("request", self.request)


class RenderCompareRequest(RequestBody):
    """Tools to render in many formats, to compare their size."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"tools": TOOLS_EXAMPLE, "formats": None, "options": {"descriptions": True}}]},
    )

    tools: ToolsInput
    formats: list[str] | None = Field(None, description="Format ids; null compares the 129 study formats.")
    options: RenderOptionsBody = Field(default_factory=RenderOptionsBody)


class RenderedPromptBody(ResponseBody):
    """RenderedPrompt.to_dict()."""

    format_id: str
    protocol_id: str
    tool_block: str
    instructions: str
    system_prompt: str
    messages: list[dict[str, str]] | None
    chars: int
    tokens_estimate: int
    format: dict[str, Any]
    protocol: dict[str, Any]
    warnings: list[str]
    hidden_fields: list[dict[str, Any]]
    #: Ours: each field whose bounds, lengths, item counts, patterns or formats the block does not show.
    hidden_constraints: list[dict[str, Any]]


class CompareBody(ResponseBody):
    """Rows sorted by tokens, then format id."""

    rows: list[dict[str, Any]]
