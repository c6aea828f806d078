"""meta: liveness, configuration and versions."""

from __future__ import annotations

import platform

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from toolform import __version__
from toolform.evidence import Evidence
from toolform.server.responses import errors
from toolform.server.schemas import HealthResponse, VersionResponse
from toolform.server.settings import Settings
from toolform.server.state import StudyEvidence


def evidence_state(evidence: Evidence) -> dict[str, object]:
    """The evidence's status for /health: ok, missing or failed, in words, and whether it is the pinned set."""
    return {"status": evidence.status, "detail": evidence.detail, "pinned": evidence.is_pinned}


def router(settings: Settings) -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["meta"])

    @routes.get(
        "/health",
        summary="Liveness and configuration",
        response_model=None,
        responses={200: {"model": HealthResponse}, **errors()},
    )
    async def health(evidence: StudyEvidence) -> JSONResponse:
        """The server is up. Says whether a model endpoint is configured, and whether the evidence is there."""
        # On the event loop, as everything it reads is in memory: a hop to the thread pool would make the
        # liveness answer wait on the threads doing other requests' work for the interpreter's lock.
        return JSONResponse(
            {
                "status": "ok",
                "version": __version__,
                "evidence_version": evidence.version,
                "endpoint_configured": settings.endpoint is not None,
                "allow_client_endpoints": settings.allow_client_endpoints,
                "evidence": evidence_state(evidence),
            }
        )

    @routes.get(
        "/version",
        summary="Versions",
        response_model=None,
        responses={200: {"model": VersionResponse}, **errors()},
    )
    def version(evidence: StudyEvidence) -> JSONResponse:
        """Versions of toolform, the evidence and Python."""
        return JSONResponse(
            {"framework": __version__, "evidence": evidence.version, "python": platform.python_version()}
        )

    return routes
