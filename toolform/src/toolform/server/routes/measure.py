"""measure: ab-test jobs against the configured model endpoint (POST, GET and DELETE /api/v1/ab-test).

This router is mounted with ``app.include_router(measure.router(settings, evidence))``. Besides the
reference's three routes, it lists past jobs, serves a job's records as they are graded, and its report
as a JSON or CSV download; jobs and records are kept in the job store beside the local evidence store.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse, Response

from toolform.errors import JobNotFound, JobStoreError
from toolform.evidence import Evidence
from toolform.evidence.local import locate_store
from toolform.measure.endpoint import Redactor
from toolform.measure.job_store import JobStore
from toolform.measure.jobs import JobManager
from toolform.measure.start import AbTestOptions, EndpointConfig, build_spec
from toolform.server.exact_json import ExactJsonRoute
from toolform.server.responses import errors
from toolform.server.schemas import AbTestJob, AbTestJobs, AbTestRecords, AbTestRequest, AbTestStarted
from toolform.server.settings import Settings
from toolform.server.state import StudyEvidence

log = logging.getLogger("toolform.measure")

#: The columns of a report's CSV: one row per request, in the order they were graded.
CSV_COLUMNS = (
    "format_id", "protocol_id", "instance_id", "request", "reply", "correct", "reason", "parse_strict",
    "hallucinated", "schema_valid", "error", "prompt_tokens", "completion_tokens", "truncated", "retries",
)
#: A cell a spreadsheet would read as a formula starts with one of these; such a cell gets a leading '.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _job_store(store_dir: str) -> JobStore | JobStoreError:
    try:
        return JobStore.beside(store_dir)
    except JobStoreError as error:
        log.error("%s; measurements will be refused", error.detail)
        return error


def json_answer(body: Any, headers: dict[str, str] | None = None, indent: int | None = None) -> Response:
    """``body`` as UTF-8 JSON; text UTF-8 cannot carry (a reply's lone surrogate) is written as a ``\\u`` escape,
    so the answer reads back exactly instead of failing."""
    try:
        data = json.dumps(body, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"))
        content = data.encode("utf-8")
    except UnicodeEncodeError:
        content = json.dumps(body, indent=indent, separators=None if indent else (",", ":")).encode("ascii")
    return Response(content, media_type="application/json", headers=headers)


def csv_cell(value: Any) -> str:
    """A record's value as CSV text; text a spreadsheet would run as a formula is kept behind a leading '."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def records_csv(records: list[dict[str, Any]]) -> str:
    """The records as CSV, one row each under CSV_COLUMNS."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for record in records:
        writer.writerow([csv_cell(record.get(column)) for column in CSV_COLUMNS])
    return out.getvalue()


def router(settings: Settings, evidence: Evidence, jobs: JobManager | None = None) -> APIRouter:
    """The measure routes; ``jobs`` defaults to a manager over ``evidence`` writing to the located local evidence
    store and keeping its jobs in the job store beside it (a route is handed the evidence by StudyEvidence).
    The manager is closed (its jobs kept as interrupted) when the application shuts down."""
    store_dir = locate_store(settings.evidence_dir)[0]
    manager = jobs or JobManager(
        settings.limits.max_jobs, store_dir, evidence, job_store=_job_store(str(store_dir)),
        max_finished=settings.max_finished_jobs,
    )
    endpoint = EndpointConfig(
        settings.endpoint, settings.endpoint_model, settings.endpoint_api_key_env, settings.allow_client_endpoints,
        settings.client_key_envs, settings.endpoint_attempt_timeout_s, settings.endpoint_request_deadline_s,
        settings.endpoint_max_reply_bytes,
    )
    if settings.endpoint:
        # Known from the start, so a log line about the endpoint is redacted before any job has run.
        Redactor(settings.endpoint, [os.environ.get(settings.endpoint_api_key_env)])
    routes = APIRouter(prefix="/api/v1", tags=["measure"], route_class=ExactJsonRoute, on_shutdown=[manager.close])

    @routes.post(
        "/ab-test",
        summary="Start a measurement job",
        status_code=202,
        response_model=None,
        responses={202: {"model": AbTestStarted}, **errors(404, 409, 429)},
    )
    def start(request: AbTestRequest, evidence: StudyEvidence) -> JSONResponse:
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
    def status(job_id: str, records: bool = False) -> Response:
        """The job's state and progress; its result once done. ``records=true`` adds every request's record
        (the reply, the grade, the tokens and retries), which the reference leaves out."""
        return json_answer(manager.view(job_id, with_records=records))

    @routes.get(
        "/ab-test",
        summary="Past and current jobs",
        response_model=None,
        responses={200: {"model": AbTestJobs}, **errors(503)},
    )
    def history(limit: Annotated[int, Query(ge=1, le=1000, description="At most this many, newest first")] = 100,
                ) -> Response:
        """The latest jobs, newest first, as the job store keeps them across restarts: each one's state,
        model, formats, rule and verdict. A job the server stopped under is ``interrupted``."""
        return json_answer({"jobs": manager.history(limit)})

    @routes.get(
        "/ab-test/{job_id}/records",
        summary="A job's records as they are graded",
        response_model=None,
        responses={200: {"model": AbTestRecords}, **errors(404, 503)},
    )
    def job_records(job_id: str, after: Annotated[int, Query(ge=0, description="Skip this many records")] = 0,
                    ) -> Response:
        """Every request graded so far, from number ``after`` on: the request, the reply, the grade and why
        (``reason``). Poll with ``after`` set to the last answer's ``next`` to follow a running job."""
        found = manager.records(job_id, after)
        return json_answer({"job_id": job_id, "records": found, "next": after + len(found)})

    @routes.get(
        "/ab-test/{job_id}/report",
        summary="A job's report to download",
        response_model=None,
        responses={200: {"content": {"application/json": {}, "text/csv": {}}}, **errors(404, 503)},
    )
    def report(job_id: str, format: Annotated[Literal["json", "csv"], Query(description="json or csv")] = "json",
               ) -> Response:
        """The job as a file: ``json`` is GET /ab-test/{job_id}?records=true (the result with every record,
        or for an unfinished job its state and ``records``); ``csv`` is one row per record. A cell that a
        spreadsheet would read as a formula (=, +, -, @) is written behind a leading '."""
        found = manager.records(job_id)
        name = f"toolform-measurement-{job_id[:12]}"
        if format == "csv":
            # Text UTF-8 cannot carry (a lone surrogate) is written as its \u escape, as text.
            return Response(records_csv(found).encode("utf-8", "backslashreplace"),
                            media_type="text/csv; charset=utf-8",
                            headers={"content-disposition": f'attachment; filename="{name}.csv"'})
        body = manager.view(job_id, with_records=True)
        if body["result"] is None:
            body["records"] = found
        return json_answer(body, {"content-disposition": f'attachment; filename="{name}.json"'}, indent=2)

    @routes.delete(
        "/ab-test/{job_id}",
        summary="Cancel a job",
        response_model=None,
        responses={200: {"model": AbTestJob}, **errors(404)},
    )
    def cancel(job_id: str) -> JSONResponse:
        """A queued job never starts; a running one is stopped at once (its requests in flight dropped) and its
        slot freed; a finished one is kept."""
        try:
            return JSONResponse(manager.cancel(job_id).to_dict())
        except JobNotFound:
            # A job of an earlier run of the server has finished (or was interrupted): left as it is.
            return JSONResponse(manager.view(job_id))

    return routes
