"""The catalogue plan, BM25 retrieval, and the two-stage prompt."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from toolform.limits import Limits
from toolform.server.schemas.common import TOOLS_EXAMPLE, RequestBody, ResponseBody, ToolsInput


class CataloguePlanRequest(RequestBody):
    """Choose one-shot, retrieval or names-first disclosure for a catalogue."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"tools": TOOLS_EXAMPLE, "format": "xml_schema", "context_tokens": 32768, "k": 8}]
        },
    )

    tools: ToolsInput
    format: str = Field("xml_schema", description="The format the tool block is measured in; not a two-stage one.")
    context_tokens: int | None = Field(None, ge=1, description="The model's context window, in tokens.")
    budget_tokens: int | None = Field(None, ge=1, description="The most tokens the tool block may take.")
    query: str | None = Field(
        None, description="A request: a retrieval plan ranks the tools against it, a two-stage plan prompts for it."
    )
    k: int = Field(8, ge=1, description="Tools a retrieval plan keeps.")

    def check_limits(self, limits: Limits) -> None:
        if self.query is not None:
            limits.check_text("query", self.query)


class RetrieveRequest(RequestBody):
    """Rank the tools against a request with BM25 and keep the top k."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"tools": TOOLS_EXAMPLE, "query": "weather in Denver this week", "k": 8, "keep": []}]
        },
    )

    tools: ToolsInput
    query: str
    k: int = Field(8, ge=1, description="Tools kept, the keep tools among them.")
    keep: list[str] = Field(default_factory=list, description="Tools always kept; they take slots from the k.")
    method: Literal["bm25"] = Field("bm25", description="BM25, the only retriever.")
    split_identifiers: bool = Field(
        False,
        description=(
            "Also split camelCase and letter-digit boundaries into words (getWeather2 is get, weather, 2). "
            "Not the reference's: it changes scores."
        ),
    )

    def check_limits(self, limits: Limits) -> None:
        limits.check_text("query", self.query)


class TwoStagePromptRequest(RequestBody):
    """Build the stage-one prompt of names-first disclosure."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"tools": TOOLS_EXAMPLE, "request": "What is the forecast for Denver?", "include_descriptions": True}
            ]
        },
    )

    tools: ToolsInput
    request: str
    include_descriptions: bool = Field(True, description="List each tool's description beside its name.")

    def check_limits(self, limits: Limits) -> None:
        limits.check_text("request", self.request)


class FigureModel(ResponseBody):
    """One figure from the study's evidence, with its source label."""

    source: str
    label: str
    value: float
    unit: str
    interval: list[float] | None
    note: str


class RetrievalModel(ResponseBody):
    """The ranked catalogue and the top k."""

    query: str
    method: str
    ranked: list[list[str | float]] = Field(description="[name, score] for every tool, best first.")
    selected: list[str]
    k: int
    tools: list[dict[str, Any]] | None = None


class CataloguePlanModel(ResponseBody):
    """The chosen strategy and what it rests on."""

    strategy: str
    n_tools: int
    format_id: str
    schema_tokens: int
    context_tokens: int | None
    reason: str
    evidence: list[FigureModel]
    retrieval: RetrievalModel | None
    selection_messages: list[dict[str, Any]] | None


class TwoStagePromptResponse(ResponseBody):
    """The selection messages and their size."""

    messages: list[dict[str, Any]]
    tokens_estimate: int
    selection_format: str
