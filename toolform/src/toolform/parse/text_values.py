"""Text arguments (XML, command lines, query strings, tables) converted by the tool's schema.

Text carries no types; the parameter's type says what the text means. A text
that does not read as its type stays text, so validation reports it instead of
the parser guessing.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from toolform.ir import Kind, ToolIR, TypeIR
from toolform.parse.literals import exact_json

_INTEGER = re.compile(r"[+-]?\d+")
# Each run of digits taken whole: ``\d+\.?\d*`` split a run without a point between its two digit classes in
# every way before a full match failed (quadratic in the run); the numbers it accepts are the same.
_NUMBER = re.compile(r"[+-]?(?:\d++(?:\.\d*+)?|\.\d++)(?:[eE][+-]?\d++)?")
_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


def convert_text(text: str, type_: TypeIR | None) -> Any:
    """``text`` read as ``type_`` (kept as text when it does not read as it, or when the type is unknown)."""
    value = text.strip()
    if type_ is None:
        return _guess(value)
    kind = type_.kind
    if kind is Kind.ENUM:
        for member in type_.enum_values:
            if str(member).lower() == value.lower():
                return member
        return value
    if kind is Kind.INTEGER and _INTEGER.fullmatch(value):
        return int(value)
    if kind is Kind.NUMBER and _NUMBER.fullmatch(value):
        return int(value) if _INTEGER.fullmatch(value) else Decimal(value)
    if kind is Kind.BOOLEAN:
        lowered = value.lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        return value
    if kind is Kind.NULL and value.lower() in ("null", "none", ""):
        return None
    if kind in (Kind.ARRAY, Kind.OBJECT):
        try:
            loaded = exact_json(value)
        except (ValueError, RecursionError):
            if kind is Kind.ARRAY and value:
                return [convert_text(part, type_.item) for part in value.split(",")]
            return value
        return convert_inside(loaded, type_)
    if kind is Kind.UNION:
        return _guess(value)
    if kind is Kind.ANY:
        return _guess(value)
    return value


def convert_inside(value: Any, type_: TypeIR | None) -> Any:
    """Text members of a list or object read from text, converted by their declared types."""
    if type_ is None:
        return value
    if isinstance(value, str) and type_.kind not in (Kind.STRING, Kind.ANY, Kind.ARRAY, Kind.OBJECT):
        return convert_text(value, type_)
    if isinstance(value, list) and type_.kind is Kind.ARRAY:
        return [convert_inside(item, type_.item) for item in value]
    if isinstance(value, dict) and type_.kind is Kind.OBJECT:
        declared = {f.name: f.type for f in type_.fields}
        return {k: convert_inside(v, declared.get(k)) for k, v in value.items()}
    return value


def _guess(value: str) -> Any:
    """A value with no declared type: JSON when it reads as JSON, else the text."""
    try:
        return exact_json(value)
    except (ValueError, RecursionError):
        return value


def param_type(tool: ToolIR | None, name: str) -> TypeIR | None:
    """The declared type of ``tool``'s parameter ``name`` (None when either is unknown)."""
    if tool is None:
        return None
    for param in tool.params:
        if param.name == name:
            return param.type
    return None


def convert_arguments(tool: ToolIR | None, texts: dict[str, str]) -> dict[str, Any]:
    """Every text argument converted by its parameter's type."""
    return {name: convert_text(text, param_type(tool, name)) for name, text in texts.items()}
