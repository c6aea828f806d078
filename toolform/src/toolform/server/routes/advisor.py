"""advisor: POST /recommend, a thin route over ``toolform.advisor.advise``.

The local evidence store is read on each request, so that a measurement finished
a moment ago is used by the next recommendation.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from toolform.advisor.advise import advise
from toolform.conversion import LoadedTools
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.request_tools import WithTools, with_tools
from toolform.server.responses import errors
from toolform.server.schemas import RecommendationBody, RecommendRequest
from toolform.server.state import LocalEvidence, StudyEvidence


def router() -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["advisor"], route_class=ExactJsonRoute)

    @routes.post(
        "/recommend",
        summary="Recommendation",
        response_model=None,
        responses={200: {"model": RecommendationBody}, **errors(400, 404, 422, 503)},
    )
    def recommend_route(
        read: Annotated[WithTools[RecommendRequest], Depends(with_tools(RecommendRequest))],
        evidence: StudyEvidence,
        store: LocalEvidence,
    ) -> JSONResponse:
        """The format and protocol to show the model its tools in, the alternatives and ties, the catalogue
        strategy, and every figure with its source label: the study's, or ``local:<file>`` for a measurement
        this installation made of the model."""
        tools = None if read.tools is None else LoadedTools.of(read.tools)
        situation = {k: v for k, v in read.body.situation.model_dump().items() if v is not None}
        answer = advise(evidence, situation, tools, store)
        return JSONResponse(answer.to_dict())

    return routes
