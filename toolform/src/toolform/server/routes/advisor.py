"""advisor: POST /recommend, a thin route over ``toolform.advisor.advise``.

The local evidence store is read on each request, so that a measurement finished
a moment ago is used by the next recommendation.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field

from toolform.advisor.advise import advise
from toolform.conversion import load_tools
from toolform.limits import Limits
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.models import ToolsInput, _Request, _Response
from toolform.server.responses import errors
from toolform.server.state import LocalEvidence, StudyEvidence


class SituationBody(_Request):
    """The situation; every member is optional and takes the default shown (8 tools, tier 3, accuracy, main)."""

    model: str | None = Field(default=None, description="A model id or name, for example Qwen/Qwen3-8B.")
    family: str | None = Field(default=None, description="A model-zoo family key, for example qwen3.")
    params_b: float | None = Field(default=None, gt=0, allow_inf_nan=False, description="Parameters in billions.")
    n_tools: int | None = Field(default=None, ge=1, description="Tools shown at once (default 8, or the tools' count).")
    tier: int | None = Field(default=None, ge=1, description="Complexity tier 1 to 5 (default 3, or the tools').")
    token_budget: int | None = Field(default=None, ge=1, description="Most tokens the tool block may take.")
    context_tokens: int | None = Field(default=None, ge=1, description="The model's context window.")
    objective: Literal["accuracy", "cost"] | None = Field(default=None, description="What to maximise (accuracy).")
    price: Literal["frontier_api", "self_hosted"] | None = Field(
        default=None, description="The cost objective's price vector (default frontier_api)."
    )
    rule: Literal["main", "symmetric", "as_written"] | None = Field(
        default=None, description="The grading rule the accuracy is read under (default main)."
    )
    protocol: str | None = Field(default=None, description="Fix the answer protocol.")
    candidates: list[str] | None = Field(default=None, description="Core format ids to rank; null ranks all eight.")
    third_party_tools: bool | None = Field(default=None, description="Tools from someone else: add the guard.")


class RecommendRequest(_Request):
    """A situation, and optionally the tools themselves."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "situation": {"model": "Qwen/Qwen3-8B", "n_tools": 8, "tier": 3, "objective": "accuracy"},
                    "tools": None,
                }
            ]
        },
    )

    situation: SituationBody = Field(default_factory=lambda: SituationBody())
    tools: ToolsInput | None = None


class RecommendationBody(_Response):
    """Recommendation.to_dict(): the reference's members (and ``local`` when a local measurement was used)."""

    format_id: str
    protocol_id: str
    expected_accuracy: float
    interval: list[float]
    basis: str
    alternatives: list[dict[str, Any]]
    catalogue: dict[str, Any]
    evidence: list[dict[str, Any]]
    warnings: list[str]


def router(limits: Limits) -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["advisor"], route_class=ExactJsonRoute)

    @routes.post(
        "/recommend",
        summary="Recommendation",
        response_model=None,
        responses={200: {"model": RecommendationBody}, **errors(400, 404, 422, 503)},
    )
    def recommend_route(body: RecommendRequest, evidence: StudyEvidence, store: LocalEvidence) -> JSONResponse:
        """The format and protocol to show the model its tools in, the alternatives and ties, the catalogue
        strategy, and every figure with its source label: the study's, or ``local:<file>`` for a measurement
        this installation made of the model."""
        tools = None if body.tools is None else load_tools(body.tools.source, body.tools.payload, limits)
        situation = {k: v for k, v in body.situation.model_dump().items() if v is not None}
        answer = advise(evidence, situation, tools, store)
        return JSONResponse(answer.to_dict())

    return routes
