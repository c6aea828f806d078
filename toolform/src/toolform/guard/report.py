"""The guard's report: findings, counts, what was removed and kept, the cleaned tools, and the study's figures."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolform.guard.actions import Kept, Removed
from toolform.guard.rules import Finding, Severity
from toolform.ir import JsonValue, ToolSet

#: The study's figures the report quotes, by their id in facts.json, in this order.
EVIDENCE_IDS: tuple[str, ...] = (
    "injection_min",
    "injection_max",
    "injection_decoy_min",
    "injection_decoy_max",
    "trust_line_sentinel",
    "trust_line_valid",
    "hijack_schema_valid",
    "descriptions_off_min",
    "descriptions_off_max",
    "descriptions_off_python_stub",
)


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else (plural or word + 's')}"


@dataclass
class GuardReport:
    """What ``guard`` found and did; ``to_dict`` is the reference's /api/v1/guard response."""

    strictness: str
    toolset: ToolSet
    findings: list[Finding]
    action: str
    strip_at: Severity | None
    removed: list[Removed] = field(default_factory=list)
    kept: list[Kept] = field(default_factory=list)
    evidence: list[dict[str, JsonValue]] = field(default_factory=list)
    cleaned_kind: str = "ir"
    cleaned_payload: JsonValue = None
    n_tools: int = 0

    @property
    def flagged_tools(self) -> list[str]:
        """The tools with a finding, in the tool set's order."""
        flagged = {f.tool for f in self.findings}
        return [t.name for t in self.toolset if t.name in flagged]

    @property
    def counts(self) -> dict[str, int]:
        return {s.label: sum(1 for f in self.findings if f.severity is s) for s in sorted(Severity, reverse=True)}

    @property
    def max_severity(self) -> Severity | None:
        return max((f.severity for f in self.findings), default=None)

    @property
    def summary(self) -> str:
        if not self.findings:
            # "tools" stays plural after a count of tools, as the reference writes it ("in 1 tools").
            text = f"No findings in {self.n_tools:,} tools at {self.strictness} strictness."
        else:
            counts = ", ".join(f"{n} {label}" for label, n in self.counts.items() if n)
            text = (
                f"{_plural(len(self.findings), 'finding')} in {len(self.flagged_tools):,} of "
                f"{self.n_tools:,} tools ({counts}) at {self.strictness} strictness."
            )
        if self.action == "strip":
            text += f" Stripped {_plural(len(self.removed), 'span')}."
            if self.kept:
                text += f" Kept {_plural(len(self.kept), 'flagged span')} that stripping cannot remove (see kept)."
        elif self.action == "drop_descriptions":
            text += f" Removed {_plural(len(self.removed), 'description field')}."
        return text

    def to_dict(self) -> dict[str, Any]:
        top = self.max_severity
        return {
            "strictness": self.strictness,
            "n_tools": self.n_tools,
            "findings": [f.to_dict() for f in self.findings],
            "flagged_tools": self.flagged_tools,
            "counts": self.counts,
            "max_severity": None if top is None else top.label,
            "action": self.action,
            "removed": [r.to_dict() for r in self.removed],
            "kept": [k.to_dict() for k in self.kept],
            "strip_at": None if self.strip_at is None else self.strip_at.label,
            "summary": self.summary,
            "evidence": list(self.evidence),
            "tools": self.toolset.to_dicts(),
            "cleaned": {"kind": self.cleaned_kind, "payload": self.cleaned_payload},
        }
