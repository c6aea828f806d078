"""render: one format and protocol, or many formats' tokens side by side.

This router is mounted with ``app.include_router(render.router(evidence, settings.limits))``.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import ConfigDict, Field

from toolform.conversion import load_tools
from toolform.evidence import Evidence
from toolform.limits import Limits
from toolform.render import RenderOptions, compare, render
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.exact_response import ExactJSONResponse as JSONResponse
from toolform.server.models import TOOLS_EXAMPLE, ToolsInput, _Request, _Response
from toolform.server.responses import errors


class RenderOptionsBody(_Request):
    """What the rendering shows; every member is optional and takes the default shown."""

    descriptions: bool = True
    constraints: bool = True
    defaults: bool = True
    returns: bool = True
    minify: bool = False
    case_convention: Literal["as_is", "snake", "camel", "pascal", "kebab", "screaming"] = "as_is"

    def options(self) -> RenderOptions:
        return RenderOptions(**self.model_dump())


class RenderRequest(_Request):
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


class RenderCompareRequest(_Request):
    """Tools to render in many formats, to compare their size."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"tools": TOOLS_EXAMPLE, "formats": None, "options": {"descriptions": True}}]},
    )

    tools: ToolsInput
    formats: list[str] | None = Field(None, description="Format ids; null compares the 129 study formats.")
    options: RenderOptionsBody = Field(default_factory=RenderOptionsBody)


class RenderedPromptBody(_Response):
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


class CompareBody(_Response):
    """Rows sorted by tokens, then format id."""

    rows: list[dict[str, Any]]


def router(evidence: Evidence, limits: Limits) -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["render"], route_class=ExactJsonRoute)

    @routes.post(
        "/render",
        summary="Render one format and protocol",
        response_model=None,
        responses={200: {"model": RenderedPromptBody}, **errors(404)},
    )
    def render_one(body: RenderRequest) -> JSONResponse:
        """The tool block, the instructions, the system prompt (and messages with a request), its size, and
        the parameters and nested fields the format does not show."""
        if body.request is not None:
            limits.check_text("request", body.request)
        tools = load_tools(body.tools.source, body.tools.payload, limits).toolset
        rendered = render(
            tools,
            body.format,
            body.protocol,
            body.options.options(),
            request=body.request,
            persona=body.persona,
            null_clause=body.null_clause,
            trust_line=body.trust_line,
            evidence=evidence,
        )
        limits.check_rendered(len(rendered.system_prompt) + len(body.request or ""))
        return JSONResponse(rendered.to_dict())

    @routes.post(
        "/render/compare",
        summary="Tokens of many formats side by side",
        response_model=None,
        responses={200: {"model": CompareBody}, **errors(404)},
    )
    def render_compare(body: RenderCompareRequest) -> JSONResponse:
        """Each format's characters and token estimate beside the study's accuracy (export:format_leaderboard)
        and, for the eight core formats, the paper's (tab:main). The columns rest on different cells: never
        rank one against the other."""
        tools = load_tools(body.tools.source, body.tools.payload, limits).toolset
        return JSONResponse(compare(tools, body.formats, body.options.options(), evidence).to_dict())

    return routes
