"""evidence: the manifest, one evidence file, and the headline facts."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse

from toolform.evidence.local import local_facts
from toolform.server.responses import errors
from toolform.server.schemas import FactsResponse
from toolform.server.state import LocalEvidence, StudyEvidence, StudyRegistry

_ANY_OBJECT: dict[str, Any] = {
    "content": {"application/json": {"schema": {"type": "object", "additionalProperties": True}}}
}


def router() -> APIRouter:
    routes = APIRouter(prefix="/api/v1", tags=["evidence"])

    @routes.get(
        "/evidence",
        summary="The manifest",
        response_model=None,
        responses={200: _ANY_OBJECT, **errors(503)},
    )
    def manifest(evidence: StudyEvidence, store: LocalEvidence) -> JSONResponse:
        """The evidence manifest: version, build time, and each file with its sha256 and source labels; under
        ``local``, the local evidence store's measurements (``local:<file>``) and any file it does not serve."""
        manifest = evidence.document("manifest")
        listing = dict(manifest) if isinstance(manifest, dict) else {"manifest": manifest}
        listing["local"] = store.to_dict()
        return JSONResponse(listing)

    @routes.get(
        "/evidence/{name}",
        summary="One evidence file",
        response_model=None,
        responses={200: _ANY_OBJECT, **errors(404, 503)},
    )
    def evidence_file(
        name: Annotated[str, Path(description="An evidence file's name, for example zoo", examples=["zoo"])],
        evidence: StudyEvidence,
    ) -> JSONResponse:
        """One evidence file with its envelope (schema_version, name, source, description, conditions, data)."""
        return JSONResponse(evidence.document(name))

    @routes.get(
        "/facts",
        summary="The headline facts",
        response_model=None,
        responses={200: {"model": FactsResponse}, **errors(503)},
    )
    def facts(registry: StudyRegistry, store: LocalEvidence) -> JSONResponse:
        """The headline facts, each checked against the paper's source when the evidence was built, then one
        fact per format of each local measurement, labelled ``local:<file>``."""
        facts = registry.facts().to_dict()
        listed = facts.get("facts")
        if isinstance(listed, list):
            facts["facts"] = [*listed, *local_facts(store)]
        return JSONResponse(facts)

    return routes
