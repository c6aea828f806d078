"""A read-only view of the IR that the renderers walk.

The renderers take the IR as its dict form (``ToolSet.to_dict()``, or the IR the
fixtures carry), so that they depend on the IR's shape and not on the classes
that build it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any


def plain_number(value: Any) -> Any:
    """``value`` with its Decimals (tool sets read from JSON text keep their digits) as Python numbers.

    The formats print numbers as the reference does, from Python ints and floats:
    an integral Decimal becomes an int, any other the nearest float. A Decimal
    with more digits than a float holds is therefore printed rounded.
    """
    if isinstance(value, Decimal):
        if value.is_finite() and value == value.to_integral_value() and value.as_tuple().exponent == 0:
            return int(value)
        return float(value)
    if isinstance(value, list):
        return [plain_number(v) for v in value]
    if isinstance(value, dict):
        return {k: plain_number(v) for k, v in value.items()}
    return value


@dataclass(frozen=True)
class Type:
    """One IR type: its kind and the members that kind uses."""

    kind: str
    constraints: Mapping[str, Any] = field(default_factory=dict)
    fields: tuple[Param, ...] = ()
    item: Type | None = None
    enum_values: tuple[Any, ...] = ()
    base: str | None = None
    union_of: tuple[Type, ...] = ()

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Type:
        item = data.get("item")
        return Type(
            kind=str(data.get("kind", "any")),
            constraints=plain_number(dict(data.get("constraints") or {})),
            fields=tuple(Param.from_dict(f) for f in data.get("fields") or ()),
            item=Type.from_dict(item) if isinstance(item, Mapping) else None,
            enum_values=tuple(plain_number(list(data.get("enum_values") or ()))),
            base=data.get("base"),
            union_of=tuple(Type.from_dict(t) for t in data.get("union_of") or ()),
        )


@dataclass(frozen=True)
class Param:
    """A parameter of a tool, or a field of an object type."""

    name: str
    type: Type
    required: bool
    description: str
    has_default: bool = False
    default: Any = None
    #: The parameter's example value (the IR's ``example``), which the sample calls of some formats show.
    has_example: bool = False
    example: Any = None

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Param:
        return Param(
            name=str(data["name"]),
            type=Type.from_dict(data.get("type") or {"kind": "any"}),
            required=bool(data.get("required", False)),
            description=str(data.get("description") or ""),
            has_default=data.get("default") is not None,
            default=plain_number(data.get("default")),
            has_example=data.get("example") is not None,
            example=plain_number(data.get("example")),
        )


@dataclass(frozen=True)
class Tool:
    """One tool: name, description, parameters, and what it returns when known."""

    name: str
    description: str
    params: tuple[Param, ...]
    returns: Type | None = None
    returns_description: str = ""
    domain: str = ""

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Tool:
        returns = data.get("returns")
        return Tool(
            name=str(data["name"]),
            description=str(data.get("description") or ""),
            params=tuple(Param.from_dict(p) for p in data.get("params") or ()),
            returns=Type.from_dict(returns) if isinstance(returns, Mapping) else None,
            returns_description=str(data.get("returns_description") or ""),
            domain=str(data.get("domain") or ""),
        )

    @property
    def required(self) -> list[Param]:
        return [p for p in self.params if p.required]

    @property
    def optional(self) -> list[Param]:
        return [p for p in self.params if not p.required]


def tools_from_ir(ir: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> list[Tool]:
    """The tools of an IR tool set (a dict with ``tools``) or of a bare list of IR tools."""
    listed = ir.get("tools", ()) if isinstance(ir, Mapping) else ir
    return [Tool.from_dict(t) for t in listed]
