"""registry: formats, protocols and models, from the evidence."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import JSONResponse

from toolform.render.sample import format_sample
from toolform.server.responses import errors
from toolform.server.schemas import FormatDetail, FormatsResponse, ModelsResponse, ProtocolsResponse
from toolform.server.state import StudyRegistry


def router() -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["registry"])

    @routes.get(
        "/formats",
        summary="Every format",
        response_model=None,
        responses={200: {"model": FormatsResponse}, **errors(503)},
    )
    def formats(
        registry: StudyRegistry,
        core: Annotated[bool | None, Query(description="true: only the eight core formats")] = None,
        family: Annotated[str | None, Query(description="Only this family, for example json or markup")] = None,
        in_study: Annotated[bool | None, Query(description="true: only the 129 study formats")] = None,
    ) -> JSONResponse:
        """Every registered format with its metadata and its measured block from the evidence.

        133 are registered: the 129 of the study and four two-stage variants.
        """
        return JSONResponse(registry.formats(core=core, family=family, in_study=in_study).to_dict())

    @routes.get(
        "/formats/{format_id}",
        summary="One format",
        response_model=None,
        responses={200: {"model": FormatDetail}, **errors(404, 503)},
    )
    def format_detail(
        format_id: Annotated[str, Path(description="A format id, for example xml_schema", examples=["xml_schema"])],
        registry: StudyRegistry,
    ) -> JSONResponse:
        """One format's entry with the sample tool rendered in it; unknown: 404 unknown_format with close matches."""
        detail = registry.format(format_id).to_dict()
        detail["sample"] = format_sample(format_id, registry.evidence)
        return JSONResponse(detail)

    @routes.get(
        "/protocols",
        summary="Every protocol",
        response_model=None,
        responses={200: {"model": ProtocolsResponse}, **errors(503)},
    )
    def protocols(registry: StudyRegistry) -> JSONResponse:
        """Every answer protocol, with its registry metadata."""
        return JSONResponse(registry.protocols().to_dict())

    @routes.get(
        "/models",
        summary="The model zoo",
        response_model=None,
        responses={200: {"model": ModelsResponse}, **errors(503)},
    )
    def models(registry: StudyRegistry) -> JSONResponse:
        """The study's model zoo, family labels, and the patterns that map an unlisted id to a family."""
        return JSONResponse(registry.models().to_dict())

    return routes
