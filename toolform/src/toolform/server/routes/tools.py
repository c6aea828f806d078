"""tools: read tools into the IR, and write them in another shape."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from toolform.conversion import LoadedTools, export_read_tools
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.exact_response import ExactJSONResponse as JSONResponse
from toolform.server.request_tools import WithTools, with_tools
from toolform.server.responses import errors
from toolform.server.schemas import ToolsExportRequest, ToolsExportResponse, ToolsLoadRequest, ToolsLoadResponse


def router() -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["tools"], route_class=ExactJsonRoute)

    @routes.post(
        "/tools/load",
        summary="Convert tools to the IR",
        response_model=None,
        responses={200: {"model": ToolsLoadResponse}, **errors()},
    )
    def load(read: Annotated[WithTools[ToolsLoadRequest], Depends(with_tools(ToolsLoadRequest))]) -> JSONResponse:
        """Read the tools and return them in the IR, with a summary (count, tier, fingerprint) and warnings."""
        return JSONResponse(LoadedTools.of(read.loaded).to_dict())

    @routes.post(
        "/tools/export",
        summary="Convert tools to another shape",
        response_model=None,
        responses={200: {"model": ToolsExportResponse}, **errors()},
    )
    def export(
        read: Annotated[WithTools[ToolsExportRequest], Depends(with_tools(ToolsExportRequest))],
    ) -> JSONResponse:
        """Read the tools and write them as OpenAI, Anthropic, MCP or IR JSON."""
        return JSONResponse(export_read_tools(read.loaded, read.body.to).to_dict())

    return routes
