"""Tools and tool sets in the IR."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from toolform.ir.types import FieldIR, TypeIR
from toolform.ir.values import JsonValue

#: Where a tool read from a provider's or MCP's shape says it came from.
USER = "user"


@dataclass
class ToolIR:
    """One tool: its model-facing name, what it does, its parameters, and where it came from.

    ``annotations`` carries what a shape says beside the schema (MCP's title and
    annotations under ``"mcp"``; a Flow tool's identity and fingerprint under
    ``"flow"``) so that an export to the same shape can give it back.
    """

    name: str
    description: str = ""
    params: list[FieldIR] = field(default_factory=list)
    domain: str = "generic"
    category: str = "generic"
    origin: str = "synthetic"
    returns: TypeIR | None = None
    returns_description: str = ""
    examples: list[JsonValue] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    annotations: dict[str, JsonValue] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """The reference's dict form (the IR as the API shows it); empty optional parts left out."""
        out: dict[str, object] = {
            "name": self.name,
            "description": self.description,
            "params": [p.to_dict() for p in self.params],
            "domain": self.domain,
            "category": self.category,
            "origin": self.origin,
        }
        if self.returns is not None:
            out["returns"] = self.returns.to_dict()
        if self.returns_description:
            out["returns_description"] = self.returns_description
        if self.examples:
            out["examples"] = list(self.examples)
        if self.tags:
            out["tags"] = list(self.tags)
        if self.annotations:
            out["annotations"] = dict(self.annotations)
        return out

    @property
    def required_params(self) -> list[FieldIR]:
        """The parameters a call must give, in order."""
        return [p for p in self.params if p.required]

    @property
    def optional_params(self) -> list[FieldIR]:
        """The parameters a call may leave out, in order."""
        return [p for p in self.params if not p.required]

    def types(self) -> list[TypeIR]:
        """Every type of every parameter, depth first (not the return type)."""
        found: list[TypeIR] = []
        for p in self.params:
            found.extend(p.type.walk())
        return found


@dataclass
class ToolSet:
    """Tools in order; names are unique (the loaders refuse a repeated one).

    ``source`` is the shape they were read from (``ir`` when built by hand); it
    is not part of the set's value.
    """

    tools: list[ToolIR] = field(default_factory=list)
    source: str = field(default="ir", compare=False)

    def __len__(self) -> int:
        return len(self.tools)

    def __iter__(self) -> Iterator[ToolIR]:
        return iter(self.tools)

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tools]

    def to_dicts(self) -> list[dict[str, object]]:
        """Each tool's dict form, in order."""
        return [t.to_dict() for t in self.tools]

    def to_dict(self) -> dict[str, object]:
        """The IR document, as the reference writes it (its universe, seed and meta are fixed)."""
        return {"universe_id": "universe", "seed": None, "meta": {}, "tools": self.to_dicts()}
