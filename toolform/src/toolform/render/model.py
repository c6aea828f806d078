"""A read-only view of the IR that the renderers walk.

The renderers take the IR as its dict form (``ToolSet.to_dict()``, or the IR the
fixtures carry), so that they depend on the IR's shape and not on the classes
that build it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


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
            constraints=dict(data.get("constraints") or {}),
            fields=tuple(Param.from_dict(f) for f in data.get("fields") or ()),
            item=Type.from_dict(item) if isinstance(item, Mapping) else None,
            enum_values=tuple(data.get("enum_values") or ()),
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

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Param:
        return Param(
            name=str(data["name"]),
            type=Type.from_dict(data.get("type") or {"kind": "any"}),
            required=bool(data.get("required", False)),
            description=str(data.get("description") or ""),
            has_default=data.get("default") is not None,
            default=data.get("default"),
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
