"""The SDK's convenience default: the installed study's evidence, opened once per process.

The programs hand the evidence in: ``toolform serve`` opens it when the app is built
(onto app.state, given to the routes by a FastAPI dependency) and each CLI verb at
its start. A library function takes it as a parameter. Only the public SDK functions
whose documented calls leave it out, as the reference's SDK is called
(``render(toolset, "xml_schema")``, ``plan(tools)``), fall back to this when handed
None, the way a library reads the data it ships once and keeps it.
"""

from __future__ import annotations

from functools import cache

from toolform.evidence.store import Evidence, open_evidence


@cache
def installed_evidence() -> Evidence:
    """The evidence at the default location (TOOLFORM_STUDY_DIR, else the package's), opened on first use."""
    return open_evidence()


def given_or_installed(evidence: Evidence | None) -> Evidence:
    """``evidence`` when one is handed in, else the installed study's."""
    return installed_evidence() if evidence is None else evidence
