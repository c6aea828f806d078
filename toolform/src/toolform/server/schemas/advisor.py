"""The recommendation: a situation, and optionally the tools."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from toolform.server.schemas.common import RequestBody, ResponseBody, ToolsInput


class SituationBody(RequestBody):
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


class RecommendRequest(RequestBody):
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


class RecommendationBody(ResponseBody):
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
