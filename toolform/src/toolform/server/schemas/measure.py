"""Measurement jobs: the request that starts one, and the answers that follow it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from toolform.server.schemas.common import TOOLS_EXAMPLE, RequestBody, ResponseBody, ToolsInput

AB_TEST_EXAMPLE: dict[str, Any] = {
    "model": "Qwen/Qwen3-8B",
    "formats": ["json_schema_openai", "xml_schema"],
    "rule": "symmetric",
    "tools": TOOLS_EXAMPLE,
    "examples": [
        {"request": "Will it rain in Denver?", "calls": [{"name": "get_forecast", "arguments": {"city": "Denver"}}]},
        {"request": "Write a haiku about rain.", "calls": []},
    ],
    "concurrency": 4,
    "max_tokens": 512,
}


class AbTestRequest(RequestBody):
    """A measurement: formats compared on the configured endpoint over labelled or generated requests."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [AB_TEST_EXAMPLE]})

    model: str | None = Field(None, description="The model to ask; default the server's --endpoint-model.")
    base_url: str | None = Field(
        None,
        max_length=2048,
        description="An endpoint of the request's own; honoured only with --allow-client-endpoints, and sent "
        "no key but the one api_key_env names.",
    )
    api_key_env: str | None = Field(
        None,
        max_length=256,
        description="With base_url: the server's variable holding that endpoint's key; only a variable the "
        "operator listed with --client-key-env.",
    )
    formats: list[str] | None = Field(
        None, max_length=16, description="Format ids (a repeated one runs once); default the eight core formats."
    )
    n_requests: int = Field(50, ge=1, le=1000, description="Generated requests per format (without examples).")
    n_tools: int = Field(8, ge=1, le=256, description="Tools in a generated tool set.")
    tier: int = Field(3, ge=1, le=5, description="Complexity of a generated tool set's schemas.")
    seed: int = Field(0, description="Fixes the generated tool set and requests.")
    rule: Literal["main", "symmetric", "as_written"] = Field("symmetric", description="The grading rule.")
    tools: ToolsInput | None = Field(None, description="Your tools; with examples, or requests are generated.")
    examples: list[Any] | None = Field(
        None, description='Labelled requests, each {"request", "calls": [{"name", "arguments"}]}; need tools.'
    )
    concurrency: int = Field(4, ge=1, le=32, description="Requests in flight at once.")
    max_tokens: int = Field(512, ge=1, description="The reply's token budget.")
    thinking: bool | None = Field(
        None, description="The chat template's thinking switch; unset: off for Qwen 3 and 3.5, else not sent."
    )


class AbTestStarted(ResponseBody):
    """The job, queued."""

    job_id: str
    status: str
    total: int
    warnings: list[str]


class AbTestJob(ResponseBody):
    """A job's state; ``result`` is the MeasureReport once it is done."""

    id: str
    status: Literal["queued", "running", "done", "failed", "cancelled", "interrupted"]
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None
    created_at: str


class AbTestJobSummary(ResponseBody):
    """One job in the history: its state and what it measured."""

    id: str
    status: str
    done: int
    total: int
    created_at: str
    updated_at: str
    model: str
    formats: list[str]
    rule: str
    source: str
    verdict: str | None
    winner: str | None
    error: str | None
    evidence_file: str | None


class AbTestJobs(ResponseBody):
    """The latest jobs, newest first, from the job store."""

    jobs: list[AbTestJobSummary]


class AbTestRecords(ResponseBody):
    """A job's records from ``after`` on; ``next`` is the ``after`` that asks for the ones graded since."""

    job_id: str
    records: list[dict[str, Any]]
    next: int
