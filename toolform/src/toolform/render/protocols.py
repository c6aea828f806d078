"""Which protocol a format answers in by default, as the registry (formats.json) says."""

from __future__ import annotations

from functools import cache

from toolform.evidence import Evidence, open_evidence
from toolform.registry import registry_of


@cache
def default_evidence() -> Evidence:
    """The evidence at the default location (flag-less: TOOLFORM_STUDY_DIR, else the package's), opened once."""
    return open_evidence()


def default_protocol(format_id: str, evidence: Evidence | None = None) -> str:
    """The format's ``default_protocol``; UnknownFormat when the registry does not list it."""
    entry = registry_of(evidence or default_evidence()).format(format_id).entry
    return str(entry["default_protocol"])
