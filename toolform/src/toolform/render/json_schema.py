"""The IR as JSON Schema, in the member order the JSON and YAML formats print.

A tool's schemas are the same in every format that prints them (the JSON and
YAML families, about twenty): while one tool set is rendered in many formats
(``shared_schemas``, as compare does), each tool's are built once and shared.
The formats only read the schemas they are given.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.ir.types import ordered_constraints

# IR constraint names and their JSON Schema spelling.
_CONSTRAINT_KEYS = {
    "min_length": "minLength",
    "max_length": "maxLength",
    "min_items": "minItems",
    "max_items": "maxItems",
    "exclusive_minimum": "exclusiveMinimum",
    "exclusive_maximum": "exclusiveMaximum",
    "multiple_of": "multipleOf",
    "unique_items": "uniqueItems",
}

_SCALARS = {"string", "number", "integer", "boolean", "null"}


def constraints(t: TypeIR) -> dict[str, Any]:
    """A type's constraints under their JSON Schema names, in the IR's order."""
    if not t.constraints:
        return {}
    return {_CONSTRAINT_KEYS.get(k, k): v for k, v in ordered_constraints(t.constraints).items()}


def object_schema(fields: list[FieldIR]) -> dict[str, Any]:
    """``{"type": "object", "properties": ..., "required": ...}``, required only when some are."""
    schema: dict[str, Any] = {"type": "object", "properties": {f.name: param_schema(f) for f in fields}}
    required = [f.name for f in fields if f.required]
    if required:
        schema["required"] = required
    return schema


def type_schema(t: TypeIR) -> dict[str, Any]:
    """The schema of a type, without description or default."""
    if t.kind == "enum":
        schema: dict[str, Any] = {"type": t.base.value if t.base else "string", "enum": list(t.enum_values)}
    elif t.kind == "object":
        schema = object_schema(t.fields)
    elif t.kind == "array":
        schema = {"type": "array"}
        if t.item is not None:
            schema["items"] = type_schema(t.item)
    elif t.kind == "union":
        schema = {"anyOf": [type_schema(u) for u in t.union_of]}
    elif t.kind in _SCALARS:
        schema = {"type": t.kind.value}
    else:
        schema = {}
    schema.update(constraints(t))
    return schema


def param_schema(p: FieldIR) -> dict[str, Any]:
    """A parameter's schema: its type's, then description, then default."""
    schema = type_schema(p.type)
    if p.description:
        schema["description"] = p.description
    if p.has_default:
        schema["default"] = p.default
    return schema


#: While ``shared_schemas`` is on: each tool's (parameters, returns) schemas, by the tool's identity (the tool
#: is kept with them, so an identity is not reused while they are).
_SHARED: ContextVar[dict[int, tuple[ToolIR, dict[str, Any], dict[str, Any] | None]] | None] = ContextVar(
    "_SHARED", default=None
)


@contextmanager
def shared_schemas() -> Iterator[None]:
    """Within it, each tool's schemas are built once; the tools must not change meanwhile."""
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def _schemas(tool: ToolIR) -> tuple[ToolIR, dict[str, Any], dict[str, Any] | None]:
    return tool, object_schema(tool.params), _returns(tool)


def _shared(tool: ToolIR) -> tuple[ToolIR, dict[str, Any], dict[str, Any] | None] | None:
    memo = _SHARED.get()
    if memo is None:
        return None
    found = memo.get(id(tool))
    if found is None or found[0] is not tool:
        found = memo[id(tool)] = _schemas(tool)
    return found


def parameters_schema(tool: ToolIR) -> dict[str, Any]:
    """A tool's parameters as one object schema."""
    shared = _shared(tool)
    return object_schema(tool.params) if shared is None else shared[1]


def returns_schema(tool: ToolIR) -> dict[str, Any] | None:
    """What a tool gives back, as a schema with the returns description; None when unknown."""
    shared = _shared(tool)
    return _returns(tool) if shared is None else shared[2]


def _returns(tool: ToolIR) -> dict[str, Any] | None:
    if tool.returns is None:
        return None
    schema = type_schema(tool.returns)
    if tool.returns_description:
        schema["description"] = tool.returns_description
    return schema
