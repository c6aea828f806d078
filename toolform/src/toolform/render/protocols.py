"""Which protocol a format answers in by default, as the registry (formats.json) says."""

from __future__ import annotations

from toolform.evidence import Evidence
from toolform.registry import registry_of


def default_protocol(format_id: str, evidence: Evidence) -> str:
    """The format's ``default_protocol`` in ``evidence``'s registry; UnknownFormat when it does not list it."""
    entry = registry_of(evidence).format(format_id).entry
    return str(entry["default_protocol"])
