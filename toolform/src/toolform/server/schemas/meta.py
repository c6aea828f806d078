"""The index, health, version and facts answers."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from toolform.server.schemas.common import ResponseBody


class EvidenceState(ResponseBody):
    """Whether the study's evidence is present and every file matched its manifest."""

    status: Literal["ok", "missing", "failed"]
    detail: str
    pinned: bool = Field(description="The manifest is the one this ToolForm was built against.")


class IndexResponse(ResponseBody):
    """Where things are."""

    name: str
    version: str
    api: str
    docs: str
    openapi: str
    health: str


class HealthResponse(ResponseBody):
    """Liveness and the parts of the configuration a client needs."""

    status: str
    version: str
    evidence_version: str | None
    endpoint_configured: bool
    allow_client_endpoints: bool
    evidence: EvidenceState


class VersionResponse(ResponseBody):
    """Versions of toolform, the evidence and Python."""

    framework: str
    evidence: str | None
    python: str


class FactsResponse(ResponseBody):
    """The headline facts, each with its source label."""

    facts: list[dict[str, Any]]
