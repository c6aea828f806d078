"""What the guard does with its findings: report (nothing), strip the flagged spans, or drop descriptions.

Stripping removes each span at ``strip_at`` or above from descriptions and
examples, then closes up the spaces left behind. It cannot remove an enum value,
a default or a name without changing the schema, nor fix look-alike letters or a
text's length: those are listed in ``kept`` with the reason, for a person to fix.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from toolform.guard.rules import SEVERITY_LABELS, Finding, Severity
from toolform.guard.text import Segment, sentences
from toolform.ir import FieldIR, ToolIR, ToolSet, TypeIR

if TYPE_CHECKING:
    from toolform.guard.scan import FieldText

ACTIONS: tuple[str, ...] = ("report", "strip", "drop_descriptions")
SCOPES: tuple[str, ...] = ("flagged", "all")

REASON_SCHEMA = "an enum value, default or name: removing it would change the schema; fix or drop the tool by hand"
REASON_LOOKALIKE = "lookalike letters are reported, not rewritten; review the text by hand"
REASON_SIZE = "the finding is about the text's size, not words in it; review it by hand"
#: Added to the message of a finding strip had to keep because it sits in the schema.
SCHEMA_NOTE = " It was not removed, because removing it would change the schema."

#: Field kinds whose text is part of the schema's meaning, not prose.
SCHEMA_FIELDS: frozenset[str] = frozenset({"enum", "default"})


@dataclass(frozen=True)
class Removed:
    """A span, or a whole field, taken out of a tool."""

    tool: str
    field: str
    text: str

    def to_dict(self) -> dict[str, object]:
        return {"tool": self.tool, "field": self.field, "text": self.text}


@dataclass(frozen=True)
class Kept:
    """A flagged span that stripping left in place, and why."""

    tool: str
    field: str
    rule_id: str
    severity: Severity
    text: str
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {
            "tool": self.tool,
            "field": self.field,
            "rule_id": self.rule_id,
            "severity": SEVERITY_LABELS[self.severity],
            "text": self.text,
            "reason": self.reason,
        }


@dataclass
class Outcome:
    """The cleaned tool set, what was removed, what was kept, and the findings as the report shows them."""

    toolset: ToolSet
    findings: list[Finding]
    removed: list[Removed] = field(default_factory=list)
    kept: list[Kept] = field(default_factory=list)


def _kind(field_name: str) -> str:
    return field_name.split(":", 1)[0] if ":" in field_name else field_name


def _close_up(text: str) -> str:
    """The text after spans came out: runs of spaces made one, and the ends trimmed."""
    return re.sub(r"[ \t]{2,}", " ", text).strip()


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    kept_parts: list[str] = []
    cursor = 0
    for start, end in sorted(spans):
        if start > cursor:
            kept_parts.append(text[cursor:start])
        # A cut leaves a space, so the words either side of a removed character stay apart.
        kept_parts.append(" ")
        cursor = max(cursor, end)
    kept_parts.append(text[cursor:])
    return _close_up("".join(kept_parts))


def _fields_by_path(toolset: Iterable[ToolIR]) -> dict[tuple[str, str], FieldIR]:
    out: dict[tuple[str, str], FieldIR] = {}

    def walk(tool: str, prefix: str, fields: list[FieldIR]) -> None:
        for f in fields:
            path = f"{prefix}{f.name}"
            out[(tool, path)] = f
            for t in f.type.walk():
                walk(tool, path + ".", t.fields)

    for tool in toolset:
        walk(tool.name, "", tool.params)
    return out


def _set_text(
    tools: dict[str, ToolIR], fields: dict[tuple[str, str], FieldIR], tool: str, field_name: str, text: str
) -> None:
    kind, _, path = field_name.partition(":")
    if kind == "description":
        tools[tool].description = text
    elif kind == "param":
        fields[(tool, path)].description = text
    elif kind == "example":
        fields[(tool, path)].example = text or None


def _sentence_around(text: str, start: int, end: int, split: dict[str, list[Segment]]) -> tuple[int, int]:
    """The span of the sentences (split at . ! ? and line breaks, not at ;) that hold ``start:end``.

    ``split`` keeps each text's sentences for the call: one text often holds several findings.
    """
    found = split.get(text)
    if found is None:
        found = split[text] = sentences(text)
    covering = [s for s in found if s.start < end and start < s.end]
    if not covering:
        return start, end
    return min(start, covering[0].start), max(end, covering[-1].end)


def strip(toolset: ToolSet, findings: list[Finding], strip_at: Severity) -> Outcome:
    """Remove every sentence holding a finding at ``strip_at`` or above, and every invisible character
    and comment, from prose; keep what prose cannot lose, with reasons.

    Per tool, the sentences go first, field by field, then the characters and
    comments TS109 found outside them; each removal is listed once.
    """
    # Each tool's texts are read only for the tools that lose text, once (the same name twice merges, as
    # one mapping of the whole set would).
    named: dict[str, list[ToolIR]] = {}
    for tool in toolset:
        named.setdefault(tool.name, []).append(tool)
    read: dict[int, list[FieldText]] = {}
    merged: dict[str, dict[str, str]] = {}

    def texts_of(tool: ToolIR) -> list[FieldText]:
        found = read.get(id(tool))
        if found is None:
            found = read[id(tool)] = _texts(tool)
        return found

    def text(tool_name: str, field_name: str) -> str:
        fields = merged.get(tool_name)
        if fields is None:
            fields = merged[tool_name] = {t.field: t.text for tool in named[tool_name] for t in texts_of(tool)}
        return fields[field_name]

    shown: list[Finding] = []
    removed: list[Removed] = []
    kept: list[Kept] = []
    spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
    sentence_cuts: dict[str, list[tuple[str, int, int]]] = {}
    mark_cuts: dict[str, list[tuple[str, int, int]]] = {}
    split: dict[str, list[Segment]] = {}
    for finding in findings:
        if finding.severity < strip_at:
            shown.append(finding)
            continue
        kind = _kind(finding.field)
        if finding.rule_id in ("TS110", "TS108"):
            reason = REASON_LOOKALIKE if finding.rule_id == "TS110" else REASON_SIZE
            kept.append(Kept(finding.tool, finding.field, finding.rule_id, finding.severity, finding.text, reason))
            shown.append(finding)
        elif kind in SCHEMA_FIELDS:
            kept.append(
                Kept(finding.tool, finding.field, finding.rule_id, finding.severity, finding.text, REASON_SCHEMA)
            )
            shown.append(_with_note(finding))
        else:
            shown.append(finding)
            if finding.rule_id == "TS109":
                mark_cuts.setdefault(finding.tool, []).append((finding.field, finding.start, finding.end))
            else:
                start, end = _sentence_around(text(finding.tool, finding.field), finding.start, finding.end, split)
                sentence_cuts.setdefault(finding.tool, []).append((finding.field, start, end))
    touched = set(sentence_cuts) | set(mark_cuts)
    for tool in toolset:
        if tool.name not in touched:
            continue
        originals = {t.field: t.text for t in texts_of(tool)}
        sentence_fields = {f for f, _, _ in sentence_cuts.get(tool.name, [])}
        every_cut = sentence_cuts.get(tool.name, []) + mark_cuts.get(tool.name, [])
        # Fields with a sentence to cut go first, each cut in text order; fields with only
        # invisible characters or comments to cut follow.
        for group in (sentence_fields, set(originals) - sentence_fields):
            for field_name in originals:
                if field_name not in group:
                    continue
                for _, start, end in sorted((c for c in every_cut if c[0] == field_name), key=lambda c: (c[1], -c[2])):
                    taken = spans.setdefault((tool.name, field_name), [])
                    # A span inside one already cut goes with it; the removed list names each cut once.
                    if any(s <= start and end <= e for s, e in taken):
                        continue
                    taken.append((start, end))
                    removed.append(Removed(tool.name, field_name, originals[field_name][start:end]))
    # Only the tools that lose text are copied; the others are shared with the input, unchanged.
    cleaned = ToolSet([_prose_copy(t) if t.name in touched else t for t in toolset], source=toolset.source)
    fields = _fields_by_path([t for t in cleaned if t.name in touched])
    by_name = {t.name: t for t in cleaned}
    for (tool_name, field_name), cuts in spans.items():
        _set_text(by_name, fields, tool_name, field_name, _cut(text(tool_name, field_name), cuts))
    return Outcome(cleaned, shown, removed, kept)


def _prose_copy(tool: ToolIR) -> ToolIR:
    """The tool with its own copy of every object that holds prose (the tool, its fields, their types),
    so that cutting text from the copy leaves the input alone. What stripping never changes (enum values,
    defaults, constraints, examples, annotations) stays shared, as it is for the tools not touched; a
    deep copy of all of it cost a tenth of a guard call."""

    def type_copy(type_: TypeIR) -> TypeIR:
        copied = _shallow(type_)
        copied.fields = [field_copy(f) for f in type_.fields]
        copied.item = None if type_.item is None else type_copy(type_.item)
        copied.union_of = [type_copy(t) for t in type_.union_of]
        return copied

    def field_copy(field_: FieldIR) -> FieldIR:
        copied = _shallow(field_)
        copied.type = type_copy(field_.type)
        return copied

    # Shallow copies and assignment, not dataclasses.replace: the IR's classes have no __post_init__ to run,
    # and replace, which reads every field's definition on each call, took a tenth of a strip.
    copied = _shallow(tool)
    copied.params = [field_copy(f) for f in tool.params]
    copied.returns = None if tool.returns is None else type_copy(tool.returns)
    return copied


_Copied = TypeVar("_Copied", ToolIR, FieldIR, TypeIR)


def _shallow(value: _Copied) -> _Copied:
    """``copy.copy(value)`` for the IR's plain dataclasses (what it does for them, without its dispatch)."""
    copied = object.__new__(type(value))
    copied.__dict__.update(value.__dict__)
    return copied


def _texts(tool: ToolIR) -> list[FieldText]:
    from toolform.guard.scan import tool_texts

    return list(tool_texts(tool))


def _with_note(finding: Finding) -> Finding:
    return Finding(
        finding.rule_id,
        finding.severity,
        finding.tool,
        finding.field,
        finding.text,
        finding.start,
        finding.end,
        finding.message + SCHEMA_NOTE,
    )


def drop_descriptions(toolset: ToolSet, findings: list[Finding], scope: str) -> Outcome:
    """Remove all prose (descriptions and examples) from the flagged tools, or from every tool."""
    from toolform.guard.scan import tool_texts

    cleaned = copy.deepcopy(toolset)
    fields = _fields_by_path(cleaned)
    by_name = {t.name: t for t in cleaned}
    flagged = {f.tool for f in findings}
    removed: list[Removed] = []
    for tool in cleaned:
        if scope != "all" and tool.name not in flagged:
            continue
        for text in list(tool_texts(tool)):
            if text.kind in ("description", "param", "example"):
                removed.append(Removed(tool.name, text.field, text.text))
                _set_text(by_name, fields, tool.name, text.field, "")
    return Outcome(cleaned, list(findings), removed, [])
