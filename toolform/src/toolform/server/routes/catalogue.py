"""catalogue: the one-shot / retrieval / two-stage plan, BM25 retrieval, and the two-stage prompt."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import ConfigDict, Field

from toolform.conversion import check_tools_input
from toolform.ir import ToolSet
from toolform.limits import Limits
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.exact_response import ExactJSONResponse as JSONResponse
from toolform.server.models import TOOLS_EXAMPLE, ToolsInput, _Request, _Response
from toolform.server.responses import errors
from toolform.server.state import StudyEvidence


class CataloguePlanRequest(_Request):
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


class RetrieveRequest(_Request):
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


class TwoStagePromptRequest(_Request):
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


class FigureModel(_Response):
    """One figure from the study's evidence, with its source label."""

    source: str
    label: str
    value: float
    unit: str
    interval: list[float] | None
    note: str


class RetrievalModel(_Response):
    """The ranked catalogue and the top k."""

    query: str
    method: str
    ranked: list[list[str | float]] = Field(description="[name, score] for every tool, best first.")
    selected: list[str]
    k: int
    tools: list[dict[str, Any]] | None = None


class CataloguePlanModel(_Response):
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


class TwoStagePromptResponse(_Response):
    """The selection messages and their size."""

    messages: list[dict[str, Any]]
    tokens_estimate: int
    selection_format: str


def _toolset(tools: ToolsInput, limits: Limits) -> ToolSet:
    # An agent asks about the same catalogue request after request, and reading thousands of tools
    # costs more than ranking them: the server's recent tool sets (the catalogue functions never
    # change their tools).
    from toolform.server.recent_tools import recent_load

    check_tools_input(tools.source, tools.payload, limits)
    loaded = recent_load(tools.source, tools.payload)
    limits.check_tool_count(len(loaded.toolset))
    return loaded.toolset


def router(limits: Limits) -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["catalogue"], route_class=ExactJsonRoute)

    @routes.post(
        "/catalogue/plan",
        summary="One-shot, retrieval or two-stage plan",
        response_model=None,
        responses={200: {"model": CataloguePlanModel}, **errors(404)},
    )
    def catalogue_plan(request: CataloguePlanRequest, evidence: StudyEvidence) -> JSONResponse:
        """Choose how to show the catalogue, from the study's thresholds: two-stage from 64 tools or when
        the block is over the budget or takes more than half the window, retrieval from 32 tools, one shot
        below. The reason quotes the study's figures, each in ``evidence`` with its source label."""
        from toolform.catalogue import plan

        if request.query is not None:
            limits.check_text("query", request.query)
        result = plan(
            _toolset(request.tools, limits),
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
    def catalogue_retrieve(request: RetrieveRequest) -> JSONResponse:
        """Rank the tools against the request with BM25 (names, descriptions, parameter names and
        descriptions) and keep the top k, the keep tools among them. Every tool is in ``ranked``, best
        first, with its score to six decimals; equal scores keep the catalogue's order."""
        from toolform.catalogue import retrieve

        limits.check_text("query", request.query)
        result = retrieve(
            _toolset(request.tools, limits),
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
    def two_stage_prompt(request: TwoStagePromptRequest, evidence: StudyEvidence) -> JSONResponse:
        """The stage-one prompt: the catalogue as names (and descriptions), then the request and the
        study's instruction to name one tool."""
        from toolform.catalogue import two_stage_prompt as first_stage

        limits.check_text("request", request.request)
        result = first_stage(_toolset(request.tools, limits), request.request, request.include_descriptions, evidence)
        return JSONResponse(result.to_dict())

    return routes
