"""A model's reply parsed under a protocol and a grading rule."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from toolform.limits import Limits
from toolform.server.schemas.common import TOOLS_EXAMPLE, RequestBody, ResponseBody, ToolsInput

PARSE_EXAMPLE: dict[str, Any] = {
    "tools": TOOLS_EXAMPLE,
    "text": (
        '<function_calls>\n  <invoke name="get_forecast">\n    <parameter name="city">Denver</parameter>\n'
        "  </invoke>\n</function_calls>"
    ),
    "protocol": "xml_call",
    "rule": "main",
    "validate": True,
    "lenient_fallback": False,
}


class ParseRequest(RequestBody):
    """A reply to parse, the protocol the prompt asked for, and the tools it may call."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [PARSE_EXAMPLE]})

    tools: ToolsInput
    text: str = Field(description="The model's reply, as it came back.")
    protocol: str = Field(description="The protocol id the prompt asked for, e.g. xml_call.")
    rule: Literal["main", "symmetric", "as_written"] = Field(
        "main", description="The grading rule; as_written allows no repair, so no lenient_fallback."
    )
    validate_: bool = Field(True, alias="validate", description="Check each call's arguments against its schema.")
    lenient_fallback: bool = Field(
        False, description="Take calls found in another protocol's syntax when the strict parser finds none."
    )

    def check_limits(self, limits: Limits) -> None:
        limits.check_text("text", self.text)


class ParsedReplyBody(ResponseBody):
    """ParsedReply.to_dict()."""

    protocol_id: str
    rule: str
    ok: bool
    calls: list[dict[str, Any]]
    rejected: list[dict[str, Any]]
    parsed_strict: bool
    parsed_lenient: bool
    matched_syntax: str
    format_compliant: bool
    no_call_declared: bool
    hallucinated: list[str]
    reasoning_removed: bool
    note: str
