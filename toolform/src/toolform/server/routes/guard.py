"""guard: scan tool metadata for hidden instructions and clean it (POST /api/v1/guard).

A valid body is answered by ``answer`` on the fast path of the route's class
(``toolform.server.fast_route``), in a worker thread; the route below declares
the API and answers every other body, its tools read by the one dependency
(``with_tools``). The fast path has no dependencies, so the router is handed the
evidence the application opened, for the guard's quoted figures.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from toolform.evidence import Evidence
from toolform.limits import Limits
from toolform.loaders import LoadResult
from toolform.server.exact_response import fast_json_bytes
from toolform.server.fast_route import FastAnswer, fast_route
from toolform.server.request_tools import WithTools, read_request_tools, with_tools
from toolform.server.responses import errors
from toolform.server.schemas import GuardReportModel, GuardRequest
from toolform.server.state import StudyEvidence


def answer(limits: Limits, evidence: Evidence, request: GuardRequest) -> dict[str, Any]:
    """The route's answer to a valid body on the fast path: its tools read as the dependency reads them."""
    loaded = read_request_tools(request, limits)
    assert loaded is not None
    return guarded(request, loaded, evidence)


def guarded(request: GuardRequest, loaded: LoadResult, evidence: Evidence) -> dict[str, Any]:
    """The guard's report on ``request``'s tools, read for this request alone (the report names their shape)."""
    from toolform.guard import guard

    loaded.toolset.source = loaded.kind
    report = guard(
        loaded.toolset,
        strictness=request.strictness,
        action=request.action.replace("-", "_"),
        strip_at=request.strip_at,
        scope=request.scope,
        evidence=evidence,
    )
    return report.to_dict()


def router(limits: Limits, evidence: Evidence) -> APIRouter:
    fast = FastAnswer(GuardRequest, answer=partial(answer, limits, evidence), write=fast_json_bytes, in_thread=True)
    routes = APIRouter(prefix="/api/v1", tags=["guard"], route_class=fast_route(fast))

    @routes.post(
        "/guard",
        summary="Scan and clean",
        response_model=None,
        responses={200: {"model": GuardReportModel}, **errors()},
    )
    def guard_route(
        read: Annotated[WithTools[GuardRequest], Depends(with_tools(GuardRequest))], evidence: StudyEvidence
    ) -> JSONResponse:
        """Flag instructions hidden in tool metadata (the reference's rules TS101 to TS110, then ours from
        TS201) and, with ``strip`` or ``drop_descriptions``, remove them. The default action is ``report``,
        which changes nothing. A heuristic for CI over third-party tools; docs/toolform-guard.md has its
        recall and false positives on the project's corpora, beside the reference's."""
        return JSONResponse(guarded(read.body, read.loaded, evidence))

    return routes
