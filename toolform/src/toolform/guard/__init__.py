"""The guard: flag, and optionally strip, instructions hidden in tool descriptions.

>>> report = guard({"source": "openai", "payload": tools}, strictness="standard", action="strip")
>>> report.to_dict()["findings"]

A heuristic for CI over third-party tools, not a proof. The reference's rules
(TS101 to TS110) come first and answer as the reference does; this project's
rules (TS201 on, ``our_rules``) add what it misses. ``reference_only=True``
runs the reference's rules alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from toolform.errors import BadRequest
from toolform.guard.actions import ACTIONS, SCOPES, Outcome, drop_descriptions, strip
from toolform.guard.reference_rules import Evidence
from toolform.guard.report import EVIDENCE_IDS, GuardReport
from toolform.guard.rules import STRICTNESS, Finding, Severity
from toolform.guard.scan import scan
from toolform.ir import JsonValue, ToolSet

if TYPE_CHECKING:
    from toolform.evidence import Evidence as StudyEvidence

__all__ = ["ACTIONS", "SCOPES", "STRICTNESS", "Finding", "GuardReport", "Severity", "guard", "scan"]


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise BadRequest(f"{name} must be one of {', '.join(allowed)}, not '{value}'")
    return value


def _evidence(study: StudyEvidence | None) -> list[dict[str, JsonValue]]:
    """The study's injection figures from facts.json; none when the evidence is not there.

    Sets the range TS101's message quotes for this scan, to None without the figures.
    """
    from toolform.evidence import given_or_installed

    try:
        facts = given_or_installed(study).data("facts")
    except Exception:  # the guard works without evidence; it then quotes nothing
        facts = None
    by_id = {f.get("id"): f for f in facts if isinstance(f, dict)} if isinstance(facts, list) else {}
    low, high = by_id.get("injection_min", {}).get("value"), by_id.get("injection_max", {}).get("value")
    both = low is not None and high is not None
    Evidence.injection_low, Evidence.injection_high = (str(low), str(high)) if both else (None, None)
    keys = ("id", "value", "interval", "text", "source")
    return [{k: by_id[i].get(k) for k in keys} for i in EVIDENCE_IDS if i in by_id]


def _load(tools: object, source: str) -> tuple[ToolSet, str]:
    if isinstance(tools, ToolSet):
        return tools, tools.source
    if isinstance(tools, Mapping) and "payload" in tools and set(tools) <= {"source", "payload"}:
        source = str(tools.get("source", "auto"))
        tools = tools["payload"]
    from toolform import loaders

    result = loaders.load(source, tools)
    return result.toolset, result.kind


def _cleaned(toolset: ToolSet, kind: str) -> tuple[str, JsonValue]:
    """The cleaned tools in the input's own shape; as IR for a shape that cannot be written back."""
    from toolform import export

    target = kind if kind in export.TARGETS else "ir"
    return target, export.export(toolset, target).payload


def guard(
    tools: object,
    strictness: str = "standard",
    action: str = "report",
    strip_at: str = "high",
    scope: str = "flagged",
    source: str = "auto",
    reference_only: bool = False,
    evidence: StudyEvidence | None = None,
) -> GuardReport:
    """Scan ``tools`` (a ToolSet, a tools object ``{"source", "payload"}``, or a payload read as ``source``).

    ``strictness`` (lenient, standard, strict) sets the lowest severity shown;
    ``action`` is report (changes nothing), strip (removes flagged spans at
    ``strip_at`` or above) or drop_descriptions (removes all prose from the
    flagged tools, or every tool with ``scope="all"``). ``evidence`` (the study's injection figures the
    report and TS101 quote) None: the installed study's; without one, nothing is quoted.
    """
    _choice("strictness", strictness, tuple(STRICTNESS))
    _choice("action", action, ACTIONS)
    _choice("strip_at", strip_at, ("high", "medium", "low"))
    _choice("scope", scope, SCOPES)
    toolset, kind = _load(tools, source)
    figures = _evidence(evidence)  # first: it sets the figures TS101's message quotes
    floor = STRICTNESS[strictness]
    shown = [f for f in scan(toolset, extra_rules=not reference_only) if f.severity >= floor]
    if action == "strip":
        outcome = strip(toolset, shown, Severity.parse(strip_at))
    elif action == "drop_descriptions":
        outcome = drop_descriptions(toolset, shown, scope)
    else:
        outcome = Outcome(toolset, shown)
    cleaned_kind, cleaned_payload = _cleaned(outcome.toolset, kind)
    return GuardReport(
        strictness=strictness,
        toolset=outcome.toolset,
        findings=outcome.findings,
        action=action,
        strip_at=Severity.parse(strip_at) if action == "strip" else None,
        removed=outcome.removed,
        kept=outcome.kept,
        evidence=figures,
        cleaned_kind=cleaned_kind,
        cleaned_payload=cleaned_payload,
        n_tools=len(toolset),
    )
