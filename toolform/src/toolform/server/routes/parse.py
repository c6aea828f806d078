"""parse: a model's reply parsed under a protocol and a grading rule, and validated (POST /api/v1/parse).

This router is mounted with ``app.include_router(parse.router(settings.limits))``; valid bodies are
answered by ``answer`` through the lean path (``toolform.server.lean_routes``) before FastAPI sees them.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from toolform.conversion import check_tools_input
from toolform.limits import Limits
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.exact_response import ExactJSONResponse
from toolform.server.models import TOOLS_EXAMPLE, ToolsInput, _Request, _Response
from toolform.server.responses import errors

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


class ParseRequest(_Request):
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


class ParsedReplyBody(_Response):
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


#: Bodies up to this size are parsed on the event loop (a reply of a few calls parses in well under a
#: millisecond, less than the hop to a worker costs); larger ones in a worker process, so that /health and
#: every other request keep being answered meanwhile.
ON_LOOP_BYTES = 32_768


def quick(body: ParseRequest) -> bool:
    """Whether a small body is answered on the event loop: only when its tools were read lately (tools never
    read before may expand to many schema nodes, which takes a worker's time)."""
    from toolform.server.recent_tools import is_recent

    return is_recent(body.tools.source, body.tools.payload)


def answer(limits: Limits, body: ParseRequest) -> dict[str, Any]:
    """The route's answer to a valid body: what both the FastAPI route and the lean path send."""
    from toolform.parse import flow_listing, parse_reply
    from toolform.server.recent_tools import recent_load, recent_reading

    limits.check_text("text", body.text)
    check_tools_input(body.tools.source, body.tools.payload, limits)
    loaded = recent_load(body.tools.source, body.tools.payload)
    limits.check_tool_count(len(loaded.toolset))
    reply = parse_reply(
        loaded.toolset,
        body.text,
        body.protocol,
        rule=body.rule,
        validate=body.validate_,
        lenient_fallback=body.lenient_fallback,
        flow_listing=flow_listing(loaded.kind, body.tools.payload),
        reading=recent_reading(loaded),
    )
    return reply.to_dict()


def router(limits: Limits) -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["parse"], route_class=ExactJsonRoute)

    @routes.post(
        "/parse",
        summary="Parse and validate a reply",
        response_model=None,
        responses={200: {"model": ParsedReplyBody}, **errors(404)},
    )
    async def parse_route(body: ParseRequest) -> ExactJSONResponse:
        """The calls found in the reply (each resolved to a tool, normalised and validated), the calls to
        tools that do not exist, whether the strict parser read it, the syntax it was found in, and whether
        the reply declared that no tool applies. ok is false when a call was rejected, a tool name was
        invented, or a call failed validation; with no call, it is no_call_declared."""
        # Small bodies take the lean path on the event loop; the rest (a large reply, or a body the lean
        # path passed on) run in a worker thread, as long work must.
        return ExactJSONResponse(await run_in_threadpool(answer, limits, body))

    return routes
