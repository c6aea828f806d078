"""The guard's rules: ids, names, severities, and what a finding is.

TS101 to TS110 are the reference's rules, kept with its ids, names, severities
and spans so that findings stay comparable (``reference_rules``). TS201 on are
this project's (``our_rules``): they catch what the reference misses, and they
never change a TS1xx finding.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum

from toolform.guard.reading import Reading


class Severity(IntEnum):
    """How sure the guard is that a span is an injected instruction; ordered, so ``>=`` compares."""

    LOW = 1
    MEDIUM = 2
    HIGH = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, label: str) -> Severity:
        """``high``, ``medium`` or ``low``; ValueError for anything else."""
        try:
            return cls[label.upper()]
        except KeyError:
            raise ValueError(f"unknown severity '{label}'; use high, medium or low") from None


#: Each severity's label by its value: what ``Severity.label`` gives, without the enum's property lookups
#: (a report writes one per finding).
SEVERITY_LABELS: tuple[str, ...] = ("", *(s.label for s in sorted(Severity)))

#: Each strictness shows findings at this severity or above.
STRICTNESS: dict[str, Severity] = {"lenient": Severity.HIGH, "standard": Severity.MEDIUM, "strict": Severity.LOW}

#: Rule id -> rule name, the reference's first, then ours.
RULE_NAMES: dict[str, str] = {
    "TS101": "hidden_instruction",
    "TS102": "sentinel_value",
    "TS103": "calls_other_tool",
    "TS104": "schema_mismatch",
    "TS105": "secrecy_or_exfiltration",
    "TS106": "role_markup",
    "TS107": "urgency_or_authority",
    "TS108": "oversized_description",
    "TS109": "non_printing_text",
    "TS110": "lookalike_letters",
    "TS201": "model_directive",
    "TS202": "data_exfiltration",
    "TS203": "encoded_payload",
    "TS204": "hostile_schema_value",
    "TS205": "tool_hijack",
    "TS206": "prompt_leak",
    "TS207": "skips_confirmation",
    "TS208": "other_tool_arguments",
}


@dataclass(frozen=True)
class Hit:
    """What a rule found in one field's text: where, how severe, and why (before the field is named)."""

    rule_id: str
    severity: Severity
    start: int
    end: int
    message: str


@dataclass(frozen=True)
class Finding:
    """One finding, as the report lists it."""

    rule_id: str
    severity: Severity
    tool: str
    field: str
    text: str
    start: int
    end: int
    message: str

    @property
    def rule_name(self) -> str:
        return RULE_NAMES[self.rule_id]

    def to_dict(self) -> dict[str, object]:
        return {
            "rule_id": self.rule_id,
            "rule_name": RULE_NAMES[self.rule_id],
            "severity": SEVERITY_LABELS[self.severity],
            "tool": self.tool,
            "field": self.field,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "message": self.message,
        }


@dataclass(frozen=True)
class Catalogue:
    """What a rule may know of the whole tool set, worked out once per scan: the tools' names in order
    (and each one's place), every parameter name, and a pattern for any tool's name as a whole word."""

    order: tuple[str, ...]
    params: frozenset[str]
    names: frozenset[str] = field(init=False)
    index: Mapping[str, int] = field(init=False)
    mentions: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        alternatives = "|".join(re.escape(n) for n in sorted(self.order, key=len, reverse=True)) or "(?!)"
        # Frozen: the derived fields are set once, here.
        object.__setattr__(self, "names", frozenset(self.order))
        object.__setattr__(self, "index", {name: i for i, name in enumerate(self.order)})
        object.__setattr__(self, "mentions", re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])"))


@dataclass(frozen=True)
class Context:
    """What a rule may know beside the text: the tool, its parameter names, the field's kind, the
    catalogue, and what the scan has read so far."""

    tool: str
    param_names: frozenset[str]
    field_kind: str  # description, param, enum, default, example
    catalogue: Catalogue
    reading: Reading = field(default_factory=Reading, compare=False)

    def names_other_tool(self, name: str) -> bool:
        """Whether ``name`` is another tool of the catalogue."""
        return name != self.tool and name in self.catalogue.names
