"""catalogue: the one-shot / retrieval / two-stage plan, BM25 retrieval, and the two-stage prompt."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from toolform.server.exact_json import ExactJsonRoute
from toolform.server.exact_response import ExactJSONResponse as JSONResponse
from toolform.server.request_tools import WithTools, with_tools
from toolform.server.responses import errors
from toolform.server.schemas import (
    CataloguePlanModel,
    CataloguePlanRequest,
    RetrievalModel,
    RetrieveRequest,
    TwoStagePromptRequest,
    TwoStagePromptResponse,
)
from toolform.server.state import StudyEvidence

# An agent asks about the same catalogue request after request, and reading thousands of tools costs more
# than ranking them: the tools come from the server's recent tool sets (the catalogue functions never change
# their tools).
_PLAN = with_tools(CataloguePlanRequest, shared=True)
_RETRIEVE = with_tools(RetrieveRequest, shared=True)
_TWO_STAGE = with_tools(TwoStagePromptRequest, shared=True)


def router() -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["catalogue"], route_class=ExactJsonRoute)

    @routes.post(
        "/catalogue/plan",
        summary="One-shot, retrieval or two-stage plan",
        response_model=None,
        responses={200: {"model": CataloguePlanModel}, **errors(404)},
    )
    def catalogue_plan(
        read: Annotated[WithTools[CataloguePlanRequest], Depends(_PLAN)], evidence: StudyEvidence
    ) -> JSONResponse:
        """Choose how to show the catalogue, from the study's thresholds: two-stage from 64 tools or when
        the block is over the budget or takes more than half the window, retrieval from 32 tools, one shot
        below. The reason quotes the study's figures, each in ``evidence`` with its source label."""
        from toolform.catalogue import plan

        request = read.body
        result = plan(
            read.loaded.toolset,
            request.format,
            request.context_tokens,
            request.budget_tokens,
            request.query,
            request.k,
            evidence,
        )
        return JSONResponse(result.to_dict())

    @routes.post(
        "/catalogue/retrieve",
        summary="BM25 ranking",
        response_model=None,
        responses={200: {"model": RetrievalModel}, **errors()},
    )
    def catalogue_retrieve(read: Annotated[WithTools[RetrieveRequest], Depends(_RETRIEVE)]) -> JSONResponse:
        """Rank the tools against the request with BM25 (names, descriptions, parameter names and
        descriptions) and keep the top k, the keep tools among them. Every tool is in ``ranked``, best
        first, with its score to six decimals; equal scores keep the catalogue's order."""
        from toolform.catalogue import retrieve

        request = read.body
        result = retrieve(
            read.loaded.toolset,
            request.query,
            request.k,
            request.keep,
            split_identifiers=request.split_identifiers,
        )
        return JSONResponse(result.to_dict())

    @routes.post(
        "/catalogue/two-stage/prompt",
        summary="The selection messages of names-first disclosure",
        response_model=None,
        responses={200: {"model": TwoStagePromptResponse}, **errors()},
    )
    def two_stage_prompt(
        read: Annotated[WithTools[TwoStagePromptRequest], Depends(_TWO_STAGE)], evidence: StudyEvidence
    ) -> JSONResponse:
        """The stage-one prompt: the catalogue as names (and descriptions), then the request and the
        study's instruction to name one tool."""
        from toolform.catalogue import two_stage_prompt as first_stage

        request = read.body
        result = first_stage(read.loaded.toolset, request.request, request.include_descriptions, evidence)
        return JSONResponse(result.to_dict())

    return routes
