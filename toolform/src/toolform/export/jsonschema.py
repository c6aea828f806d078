"""IR types written as JSON Schema, in the reference's member order.

A type's own members come first (``type``, then ``enum``, ``properties`` and
``required``, or ``items``), then its constraints in the IR's order, then the
field's ``description``, ``default`` and ``examples``. Unions are ``anyOf``.
An enum with no base is typed by its values (the reference writes ``string``
whatever they are). A field's example is written as ``examples: [value]``, which
every loader reads back, so an export round-trips.
"""

from __future__ import annotations

from toolform.ir import FieldIR, JsonValue, Kind, ToolIR, TypeIR
from toolform.ir.types import ordered_constraints
from toolform.loaders.jsonschema import CONSTRAINTS, base_of

#: IR constraint -> JSON Schema keyword.
KEYWORDS: dict[str, str] = {ir: keyword for keyword, ir in CONSTRAINTS.items()}


def type_schema(t: TypeIR) -> dict[str, JsonValue]:
    """The JSON Schema of one type."""
    out: dict[str, JsonValue] = {}
    if t.kind is Kind.ANY:
        pass
    elif t.kind is Kind.OBJECT:
        out["type"] = "object"
        out.update(object_schema(t.fields))
    elif t.kind is Kind.ARRAY:
        out["type"] = "array"
        if t.item is not None:
            out["items"] = type_schema(t.item)
    elif t.kind is Kind.ENUM:
        base = t.base or (base_of(t.enum_values[0]) if t.enum_values else None) or Kind.STRING
        out["type"] = base.value
        out["enum"] = list(t.enum_values)
    elif t.kind is Kind.UNION:
        out["anyOf"] = [type_schema(member) for member in t.union_of]
    else:
        out["type"] = t.kind.value
    for key, value in ordered_constraints(t.constraints).items():
        out[KEYWORDS[key]] = value
    return out


def field_schema(f: FieldIR) -> dict[str, JsonValue]:
    """The JSON Schema of a field or parameter: its type's, with what the field says about it."""
    out = type_schema(f.type)
    if f.description:
        out["description"] = f.description
    if f.default is not None:
        out["default"] = f.default
    if f.example is not None:
        out["examples"] = [f.example]
    return out


def object_schema(fields: list[FieldIR]) -> dict[str, JsonValue]:
    """``properties`` and, when any field is required, ``required``."""
    out: dict[str, JsonValue] = {"properties": {f.name: field_schema(f) for f in fields}}
    required: list[JsonValue] = [f.name for f in fields if f.required]
    if required:
        out["required"] = required
    return out


def description(tool: ToolIR) -> dict[str, JsonValue]:
    """``{"description": text}``, or nothing for a tool with none (as the reference writes it)."""
    return {"description": tool.description} if tool.description else {}


def parameters_schema(params: list[FieldIR]) -> dict[str, JsonValue]:
    """A tool's parameters as one object schema."""
    return {"type": "object", **object_schema(params)}
