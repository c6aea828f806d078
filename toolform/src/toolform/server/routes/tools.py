"""tools: read tools into the IR, and write them in another shape."""

from __future__ import annotations

from fastapi import APIRouter

from toolform.conversion import export_tools, load_tools
from toolform.limits import Limits
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.exact_response import ExactJSONResponse as JSONResponse
from toolform.server.models import ToolsExportRequest, ToolsExportResponse, ToolsLoadRequest, ToolsLoadResponse
from toolform.server.responses import errors


def router(limits: Limits) -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["tools"], route_class=ExactJsonRoute)

    @routes.post(
        "/tools/load",
        summary="Convert tools to the IR",
        response_model=None,
        responses={200: {"model": ToolsLoadResponse}, **errors()},
    )
    def load(request: ToolsLoadRequest) -> JSONResponse:
        """Read the tools and return them in the IR, with a summary (count, tier, fingerprint) and warnings."""
        return JSONResponse(load_tools(request.tools.source, request.tools.payload, limits).to_dict())

    @routes.post(
        "/tools/export",
        summary="Convert tools to another shape",
        response_model=None,
        responses={200: {"model": ToolsExportResponse}, **errors()},
    )
    def export(request: ToolsExportRequest) -> JSONResponse:
        """Read the tools and write them as OpenAI, Anthropic, MCP or IR JSON."""
        result = export_tools(request.tools.source, request.tools.payload, request.to, limits)
        return JSONResponse(result.to_dict())

    return routes
