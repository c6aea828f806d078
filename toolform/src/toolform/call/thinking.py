"""The chat template's thinking switch: off for Qwen 3 and Qwen 3.5 unless asked, as in the study.

A reply cut off inside its thinking counts as wrong, so the study ran these
families with thinking off; for any other model the switch is not sent unless
the caller sets it. The family is read from the zoo (a checkpoint it lists,
then its aliases, then its name patterns in order).
"""

from __future__ import annotations

import re

from toolform.errors import EvidenceUnavailable, UnknownEvidence
from toolform.evidence import Evidence

#: Families whose chat template has the ``enable_thinking`` switch the study turned off.
SWITCHED_FAMILIES = frozenset({"qwen3", "qwen3.5"})


def model_family(model: str, evidence: Evidence) -> str | None:
    """The zoo's family of ``model`` (a checkpoint id or any name), or None when nothing matches."""
    try:
        zoo = evidence.data("zoo")
    except (
        EvidenceUnavailable,
        UnknownEvidence,
    ):  # no evidence: the family is unknown, and the switch is left to the caller
        return None
    if not isinstance(zoo, dict):
        return None
    wanted = model.lower()
    for entry in zoo.get("models", []):
        if isinstance(entry, dict) and str(entry.get("id", "")).lower() == wanted:
            family = entry.get("family")
            return family if isinstance(family, str) else None
    aliases = zoo.get("aliases", {})
    if isinstance(aliases, dict) and isinstance(aliases.get(wanted), str):
        return str(aliases[wanted])
    for pattern, family in zoo.get("patterns", []):
        if re.search(pattern, wanted, re.IGNORECASE):
            return str(family)
    return None


def thinking_setting(model: str, asked: bool | None, evidence: Evidence) -> tuple[bool | None, str]:
    """The switch to send (None: not sent) and, when it was chosen for the caller, a note saying so."""
    if asked is not None:
        return asked, ""
    if model_family(model, evidence) in SWITCHED_FAMILIES:
        return False, f"thinking is off for {model}, as in the study; pass --thinking to turn it on"
    return None, ""
