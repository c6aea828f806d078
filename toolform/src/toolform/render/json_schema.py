"""The IR as JSON Schema, in the member order the JSON and YAML formats print."""

from __future__ import annotations

from typing import Any

from toolform.render.model import Param, Tool, Type

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


def constraints(t: Type) -> dict[str, Any]:
    """A type's constraints under their JSON Schema names."""
    return {_CONSTRAINT_KEYS.get(k, k): v for k, v in t.constraints.items()}


def object_schema(fields: tuple[Param, ...] | list[Param]) -> dict[str, Any]:
    """``{"type": "object", "properties": ..., "required": ...}``, required only when some are."""
    schema: dict[str, Any] = {"type": "object", "properties": {f.name: param_schema(f) for f in fields}}
    required = [f.name for f in fields if f.required]
    if required:
        schema["required"] = required
    return schema


def type_schema(t: Type) -> dict[str, Any]:
    """The schema of a type, without description or default."""
    if t.kind == "enum":
        schema: dict[str, Any] = {"type": t.base or "string", "enum": list(t.enum_values)}
    elif t.kind == "object":
        schema = object_schema(t.fields)
    elif t.kind == "array":
        schema = {"type": "array"}
        if t.item is not None:
            schema["items"] = type_schema(t.item)
    elif t.kind == "union":
        schema = {"anyOf": [type_schema(u) for u in t.union_of]}
    elif t.kind in _SCALARS:
        schema = {"type": t.kind}
    else:
        schema = {}
    schema.update(constraints(t))
    return schema


def param_schema(p: Param) -> dict[str, Any]:
    """A parameter's schema: its type's, then description, then default."""
    schema = type_schema(p.type)
    if p.description:
        schema["description"] = p.description
    if p.has_default:
        schema["default"] = p.default
    return schema


def parameters_schema(tool: Tool) -> dict[str, Any]:
    """A tool's parameters as one object schema."""
    return object_schema(tool.params)


def returns_schema(tool: Tool) -> dict[str, Any] | None:
    """What a tool gives back, as a schema with the returns description; None when unknown."""
    if tool.returns is None:
        return None
    schema = type_schema(tool.returns)
    if tool.returns_description:
        schema["description"] = tool.returns_description
    return schema
