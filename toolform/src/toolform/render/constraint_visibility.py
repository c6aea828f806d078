"""Which of a tool's constraints (bounds, lengths, item counts, patterns, formats) a format's text shows.

Most formats drop constraints whatever ``--constraints`` says: the model then
never sees that ``days`` stops at 7 or that ``zip`` must match a pattern,
though validation demands it. What a format shows is derived by rendering: a
probe tool carries each constraint key on a parameter of its own, with a value
found nowhere else, and a key is shown when its value is in the block rendered
with constraints on. A render lists the constraints its block hides
(``hidden_constraints``), and the registry's ``supports_constraints`` says
whether the format shows any.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from toolform.ir import FieldIR, Kind, ToolIR, TypeIR
from toolform.ir.types import CONSTRAINT_KEYS
from toolform.render.formats import RENDERERS
from toolform.render.options import RenderOptions, apply_options

#: Each constraint key on a parameter of its own: (parameter, its IR type, the text that shows the key).
_PROBES: dict[str, tuple[str, TypeIR, str]] = {
    "minimum": ("lowest", TypeIR(Kind.INTEGER, constraints={"minimum": 7351}), "7351"),
    "maximum": ("highest", TypeIR(Kind.INTEGER, constraints={"maximum": 8462}), "8462"),
    "min_length": ("shortest", TypeIR(Kind.STRING, constraints={"min_length": 5173}), "5173"),
    "max_length": ("longest", TypeIR(Kind.STRING, constraints={"max_length": 6284}), "6284"),
    "min_items": ("fewest", TypeIR(Kind.ARRAY, item=TypeIR(Kind.STRING), constraints={"min_items": 3917}), "3917"),
    "max_items": ("most", TypeIR(Kind.ARRAY, item=TypeIR(Kind.STRING), constraints={"max_items": 4028}), "4028"),
    "pattern": ("coded", TypeIR(Kind.STRING, constraints={"pattern": "^qzk[a-f]+$"}), "qzk[a-f]"),
    "format": ("address", TypeIR(Kind.STRING, constraints={"format": "ipv6"}), "ipv6"),
}
_PROBE_TOOL = ToolIR(
    name="probe", description="A probe.", params=[FieldIR(name, t, required=True) for name, t, _ in _PROBES.values()]
)


@cache
def constraints_shown(format_id: str) -> frozenset[str]:
    """The constraint keys ``format_id``'s text shows (empty for a format with no renderer)."""
    renderer = RENDERERS.get(format_id)
    if renderer is None:
        return frozenset()
    options = RenderOptions()
    block = renderer(apply_options([_PROBE_TOOL], options), options).lower()
    return frozenset(key for key, (_, _, shown) in _PROBES.items() if shown.lower() in block)


@dataclass(frozen=True)
class HiddenConstraints:
    """A parameter or nested field whose constraints (some or all) the tool block does not show."""

    tool: str
    path: str
    constraints: dict[str, Any]

    def to_dict(self) -> dict[str, object]:
        return {"tool": self.tool, "path": self.path, "constraints": dict(self.constraints)}


def _walk(t: TypeIR, path: str) -> list[tuple[str, TypeIR]]:
    found = [(path, t)]
    if t.kind == "object":
        for f in t.fields:
            found += _walk(f.type, f"{path}.{f.name}")
    elif t.kind == "array" and t.item is not None:
        found += _walk(t.item, f"{path}[]")
    for member in t.union_of:
        found += _walk(member, path)
    return found


def _params(params: list[FieldIR]) -> list[tuple[str, TypeIR]]:
    return [entry for p in params for entry in _walk(p.type, p.name)]


def hidden_constraints(tools: list[ToolIR], format_id: str, options: RenderOptions) -> list[HiddenConstraints]:
    """Every field's constraints that the block of ``format_id`` with ``options`` does not show, in IR order."""
    shown = constraints_shown(format_id) if options.constraints else frozenset()
    hidden = []
    for tool in tools:
        for path, t in _params(tool.params):
            found = t.constraints
            kept = {k: found[k] for k in CONSTRAINT_KEYS if found.get(k) is not None and k not in shown}
            if kept:
                hidden.append(HiddenConstraints(tool.name, path, kept))
    return hidden
