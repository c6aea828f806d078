"""render: one format and protocol, or many formats' tokens side by side.

This router is mounted with ``app.include_router(render.router(settings.limits))``; each route is handed
the study's evidence by the StudyEvidence dependency (toolform.server.state).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from toolform.limits import Limits
from toolform.render import compare, render
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.exact_response import ExactJSONResponse as JSONResponse
from toolform.server.request_tools import WithTools, with_tools
from toolform.server.responses import errors
from toolform.server.schemas import CompareBody, RenderCompareRequest, RenderedPromptBody, RenderRequest
from toolform.server.state import StudyEvidence


def router(limits: Limits) -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["render"], route_class=ExactJsonRoute)

    @routes.post(
        "/render",
        summary="Render one format and protocol",
        response_model=None,
        responses={200: {"model": RenderedPromptBody}, **errors(404)},
    )
    def render_one(
        read: Annotated[WithTools[RenderRequest], Depends(with_tools(RenderRequest))], evidence: StudyEvidence
    ) -> JSONResponse:
        """The tool block, the instructions, the system prompt (and messages with a request), its size, and
        the parameters and nested fields the format does not show."""
        body = read.body
        tools = read.loaded.toolset
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
    def render_compare(
        read: Annotated[WithTools[RenderCompareRequest], Depends(with_tools(RenderCompareRequest))],
        evidence: StudyEvidence,
    ) -> JSONResponse:
        """Each format's characters and token estimate beside the study's accuracy (export:format_leaderboard)
        and, for the eight core formats, the paper's (tab:main). The columns rest on different cells: never
        rank one against the other."""
        body = read.body
        tools = read.loaded.toolset
        return JSONResponse(compare(tools, body.formats, body.options.options(), evidence).to_dict())

    return routes
