"""The IR's types: what a parameter may hold, whatever shape it was read from.

A type is one of ten kinds. Scalars carry constraints; objects carry fields,
arrays an item, unions their members, enums their values and the values' base.
Its dict form (``to_dict``) is the reference's: empty parts are left out, and
constraints are written in one fixed order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from toolform.ir.values import JsonValue


class Kind(StrEnum):
    """What a type holds."""

    STRING = "string"
    NUMBER = "number"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    NULL = "null"
    ANY = "any"
    OBJECT = "object"
    ARRAY = "array"
    ENUM = "enum"
    UNION = "union"


#: The constraints the IR carries, in the order its dict form writes them.
CONSTRAINT_KEYS: tuple[str, ...] = (
    "minimum",
    "maximum",
    "min_length",
    "max_length",
    "min_items",
    "max_items",
    "pattern",
    "format",
)

#: The kinds an enum's values may have.
ENUM_BASES: frozenset[Kind] = frozenset({Kind.STRING, Kind.NUMBER, Kind.INTEGER, Kind.BOOLEAN})


@dataclass
class TypeIR:
    """One type. ``cut`` says why a loader stopped reading here (recursion, depth); it is not part of the IR's value."""

    kind: Kind
    constraints: dict[str, JsonValue] = field(default_factory=dict)
    fields: list[FieldIR] = field(default_factory=list)
    item: TypeIR | None = None
    union_of: list[TypeIR] = field(default_factory=list)
    enum_values: list[JsonValue] = field(default_factory=list)
    base: Kind | None = None
    cut: str | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, object]:
        """The reference's dict form: kind first, empty parts left out."""
        out: dict[str, object] = {"kind": self.kind.value}
        if self.fields:
            out["fields"] = [f.to_dict() for f in self.fields]
        if self.item is not None:
            out["item"] = self.item.to_dict()
        if self.union_of:
            out["union_of"] = [member.to_dict() for member in self.union_of]
        if self.enum_values:
            out["enum_values"] = list(self.enum_values)
        if self.base is not None:
            out["base"] = self.base.value
        constraints = ordered_constraints(self.constraints)
        if constraints:
            out["constraints"] = constraints
        return out

    def depth(self) -> int:
        """How many object and array levels this type nests (a scalar is 0; an array with no item too)."""
        if self.kind is Kind.OBJECT:
            return 1 + max((f.type.depth() for f in self.fields), default=0)
        if self.kind is Kind.ARRAY:
            return 0 if self.item is None else 1 + self.item.depth()
        if self.kind is Kind.UNION:
            return max((member.depth() for member in self.union_of), default=0)
        return 0

    def walk(self) -> list[TypeIR]:
        """This type and every type inside it, depth first."""
        found = [self]
        for f in self.fields:
            found.extend(f.type.walk())
        if self.item is not None:
            found.extend(self.item.walk())
        for member in self.union_of:
            found.extend(member.walk())
        return found


@dataclass
class FieldIR:
    """A named member of an object type, or a tool's parameter.

    ``default`` and ``example`` are None when absent: the IR, like the
    reference, does not tell a null default from none.
    """

    name: str
    type: TypeIR
    required: bool = True
    description: str = ""
    default: JsonValue = None
    example: JsonValue = None

    @property
    def has_default(self) -> bool:
        return self.default is not None

    @property
    def has_example(self) -> bool:
        return self.example is not None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "type": self.type.to_dict(), "required": self.required}
        if self.description:
            out["description"] = self.description
        if self.default is not None:
            out["default"] = self.default
        if self.example is not None:
            out["example"] = self.example
        return out


def ordered_constraints(constraints: Mapping[str, JsonValue]) -> dict[str, JsonValue]:
    """The constraints the IR carries, in its fixed order; others and absent ones left out."""
    return {key: constraints[key] for key in CONSTRAINT_KEYS if constraints.get(key) is not None}
