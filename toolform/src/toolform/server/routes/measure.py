"""measure: ab-test jobs against the configured model endpoint (POST, GET and DELETE /api/v1/ab-test).

This router is mounted with ``app.include_router(measure.router(settings, evidence))``.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field

from toolform.evidence import Evidence
from toolform.evidence.local import locate_store
from toolform.measure.jobs import JobManager
from toolform.measure.start import AbTestOptions, EndpointConfig, build_spec
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.models import TOOLS_EXAMPLE, ToolsInput, _Request, _Response
from toolform.server.responses import errors
from toolform.server.settings import Settings

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


class AbTestRequest(_Request):
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


class AbTestStarted(_Response):
    """The job, queued."""

    job_id: str
    status: str
    total: int
    warnings: list[str]


class AbTestJob(_Response):
    """A job's state; ``result`` is the MeasureReport once it is done."""

    id: str
    status: Literal["queued", "running", "done", "failed", "cancelled"]
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None
    created_at: str


def router(settings: Settings, evidence: Evidence, jobs: JobManager | None = None) -> APIRouter:
    """The measure routes; ``jobs`` defaults to a manager writing to the located local evidence store."""
    store = locate_store(settings.evidence_dir)[0]
    manager = jobs or JobManager(settings.limits.max_jobs, store, evidence, max_finished=settings.max_finished_jobs)
    endpoint = EndpointConfig(
        settings.endpoint, settings.endpoint_model, settings.endpoint_api_key_env, settings.allow_client_endpoints,
        settings.client_key_envs, settings.endpoint_attempt_timeout_s, settings.endpoint_request_deadline_s,
        settings.endpoint_max_reply_bytes,
    )
    routes = APIRouter(prefix="/api/v1", tags=["measure"], route_class=ExactJsonRoute)

    @routes.post(
        "/ab-test",
        summary="Start a measurement job",
        status_code=202,
        response_model=None,
        responses={202: {"model": AbTestStarted}, **errors(404, 409, 429)},
    )
    def start(request: AbTestRequest) -> JSONResponse:
        """Queue a measurement of the formats on the server's endpoint; follow it with GET, stop it with DELETE.
        Each format is rendered with its default protocol, every request is asked, and every reply is graded
        under the rule; the result has each format's accuracy with its 95% Wilson interval and the verdict."""
        options = AbTestOptions(**{
            **request.model_dump(exclude={"tools"}),
            "tools": request.tools.model_dump() if request.tools is not None else None,
        })
        started = build_spec(options, endpoint, settings.limits, evidence)
        job = manager.submit(started.spec)
        body = {"job_id": job.id, "status": job.status, "total": job.progress.total, "warnings": started.warnings}
        return JSONResponse(body, status_code=202)

    @routes.get(
        "/ab-test/{job_id}",
        summary="Job status and result",
        response_model=None,
        responses={200: {"model": AbTestJob}, **errors(404)},
    )
    def status(job_id: str, records: bool = False) -> JSONResponse:
        """The job's state and progress; its result once done. ``records=true`` adds every request's record
        (the reply, the grade, the tokens and retries), which the reference leaves out."""
        return JSONResponse(manager.get(job_id).to_dict(with_records=records))

    @routes.delete(
        "/ab-test/{job_id}",
        summary="Cancel a job",
        response_model=None,
        responses={200: {"model": AbTestJob}, **errors(404)},
    )
    def cancel(job_id: str) -> JSONResponse:
        """A queued job never starts; a running one is stopped at once (its requests in flight dropped) and its
        slot freed; a finished one is kept."""
        return JSONResponse(manager.cancel(job_id).to_dict())

    return routes
