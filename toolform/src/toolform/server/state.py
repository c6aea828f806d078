"""What the routes are handed: the evidence create_app opened once onto app.state, as FastAPI dependencies.

``create_app`` opens the study's evidence (``--study-dir``, else TOOLFORM_STUDY_DIR,
else the package's) and builds its registry before the first request, and puts both
on ``app.state``; a route names what it needs by type and FastAPI hands it in:

    def route(body: Body, evidence: StudyEvidence) -> JSONResponse: ...

The local evidence store (``--evidence-dir``) is opened for each request that asks
for it, so that a measurement finished a moment ago counts in the next answer.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from toolform.evidence import Evidence
from toolform.evidence.local import LocalStore, open_store
from toolform.registry import Registry
from toolform.server.settings import Settings


# The two in-memory reads are async so that FastAPI answers them on the event loop, not with a thread hop.
async def _study_evidence(request: Request) -> Evidence:
    evidence: Evidence = request.app.state.evidence
    return evidence


async def _study_registry(request: Request) -> Registry:
    registry: Registry = request.app.state.registry
    return registry


def _local_store(request: Request) -> LocalStore:
    settings: Settings = request.app.state.settings
    return open_store(settings.evidence_dir)


#: The study's evidence, verified when the app was built.
StudyEvidence = Annotated[Evidence, Depends(_study_evidence)]
#: The registry (formats, protocols, models, facts) over that evidence.
StudyRegistry = Annotated[Registry, Depends(_study_registry)]
#: The local evidence store's measurements, read for this request.
LocalEvidence = Annotated[LocalStore, Depends(_local_store)]
