"""Which parameters and nested fields a rendering leaves out, and the warning when validation needs them.

A field counts as shown when its name, without case or separators, is a word
of the tool block without case or separators (``term_months`` is shown by
``--term-months``, ``termMonths`` and ``TermMonths``, ``a`` by ``[a-z]``;
``draft`` is not shown by ``legal_draft``, ``ab_cd`` not by ``x-ab-cd``), as
the reference decides. Paths use the tools' own names,
whatever case convention the block was written in. A field inside an optional
parameter is not required, whatever it says itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolform.ir import FieldIR, ToolIR, TypeIR

# How many hidden required fields the warning names before "and more".
_NAMED_IN_WARNING = 6


@dataclass(frozen=True)
class HiddenField:
    """A parameter or nested field whose name the tool block never shows."""

    tool: str
    path: str
    required: bool

    def to_dict(self) -> dict[str, object]:
        return {"tool": self.tool, "path": self.path, "required": self.required}


def _fields(params: list[FieldIR], prefix: str, required: bool) -> list[tuple[str, FieldIR, bool]]:
    found: list[tuple[str, FieldIR, bool]] = []
    for p in params:
        path = f"{prefix}{p.name}"
        needed = required and p.required
        found.append((path, p, needed))
        found += _nested(p.type, path, needed)
    return found


def _nested(t: TypeIR, path: str, required: bool) -> list[tuple[str, FieldIR, bool]]:
    if t.kind == "object":
        return _fields(t.fields, path + ".", required)
    if t.kind == "array" and t.item is not None:
        return _nested(t.item, path + "[]", required)
    return []


def _compact(text: str) -> str:
    """``text`` lowercased with everything but letters and digits removed: ``Member_ID`` is ``memberid``."""
    return _NOT_LETTER_OR_DIGIT.sub("", text.lower())


_NOT_LETTER_OR_DIGIT = re.compile(r"[\W_]")


def shown_words(block: str) -> set[str]:
    """The block's words, compacted: each run of word characters and hyphens (``--term-months``), and each
    run of word characters inside it (``a`` and ``z`` of ``[a-z]``)."""
    return {_compact(w) for w in re.findall(r"[\w-]+", block)} | {_compact(w) for w in re.findall(r"\w+", block)}


def is_shown(name: str, block: str, words: set[str] | None = None) -> bool:
    """Whether ``block`` has ``name`` as a word in some case convention, ignoring case and separators.

    A name with no letter or digit has nothing to look for and counts as shown.
    """
    wanted = _compact(name)
    return not wanted or wanted in (words if words is not None else shown_words(block))


def hidden_fields(tools: list[ToolIR], block: str) -> list[HiddenField]:
    """Every parameter and nested field of ``tools`` whose name ``block`` does not show."""
    words = shown_words(block)
    hidden = []
    for tool in tools:
        for path, param, required in _fields(tool.params, "", True):
            if not is_shown(param.name, block, words):
                hidden.append(HiddenField(tool.name, path, required))
    return hidden


def hidden_warning(format_id: str, hidden: list[HiddenField]) -> str | None:
    """The warning for hidden required fields, or None when every required field is shown."""
    required = [f"{h.tool}.{h.path}" for h in hidden if h.required]
    if not required:
        return None
    named = ", ".join(required[:_NAMED_IN_WARNING])
    if len(required) > _NAMED_IN_WARNING:
        named += " and more"
    return (
        f"{format_id} does not show {len(required)} required {'field' if len(required) == 1 else 'fields'} "
        f"of nested parameters ({named}); "
        "the model cannot see what validation then demands. "
        "Choose a format that shows nested fields, such as json_schema_openai or typescript"
    )
