"""Arguments normalised for comparison with an expected call, as the study graded.

Text is trimmed and lower-cased, text that reads as the declared type is
converted, a lone value where a list is declared becomes a list, nulls and
empty lists are dropped, and nested objects are ordered by key. An optional
argument that is empty text, an empty object or its parameter's default is
dropped too.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from toolform.ir import FieldIR, Kind, ToolIR, TypeIR
from toolform.parse.bare_types import bare_type
from toolform.parse.field_plans import FULL, Plans
from toolform.parse.text_values import convert_text

#: Tuples, not unions such as ``int | float``: a union is built again at every call, and each value checks some.
_NUMBERS = (int, float, Decimal)
_TEXT_OR_NUMBER = (str, int, float, Decimal)
_FRACTIONAL = (float, Decimal)


def normalize_arguments(tool: ToolIR, arguments: dict[str, Any], plans: Plans | None = None) -> dict[str, Any]:
    """The arguments in order, each normalised by its parameter's type (unknown ones generically).

    ``plans``: those of the parse, to share between its calls.
    """
    plans = plans or Plans()
    out = _fields(tool.params, arguments, False, plans)
    return _without_unchanged_optionals(tool.params, out, plans) if out else out


#: An optional argument normalised to one of these says nothing the call would not say without it.
_EMPTY: tuple[object, ...] = ("", {})


def _without_unchanged_optionals(params: list[FieldIR], out: dict[str, Any], plans: Plans) -> dict[str, Any]:
    """``out`` without the optional top-level arguments that are empty text, an empty object or the
    parameter's default (after normalising both), as the study graded: such an argument and its absence
    are the same call. Nested fields stay as given."""
    for param in params:
        if param.required or param.name not in out:
            continue
        value = out[param.name]
        if any(value == empty and type(value) is type(empty) for empty in _EMPTY) or (
            param.default is not None and _same(value, normalize_value(param.default, param.type, plans))
        ):
            del out[param.name]
    return out


def _same(value: Any, default: Any) -> bool:
    """Equal as the study compared them: numbers as floats (an exact 1E-7 is the default 1e-07)."""
    numbers = isinstance(value, _NUMBERS) and isinstance(default, _NUMBERS)
    if numbers and not isinstance(value, bool) and not isinstance(default, bool):
        return float(value) == float(default)
    return bool(value == default)


def _fields(fields: list[FieldIR], values: dict[str, Any], ordered: bool, plans: Plans) -> dict[str, Any]:
    plan = plans.of(fields)
    by_name, quick, required = plan.by_name, plan.normal, plan.required_names
    out: dict[str, Any] = {}
    for name in sorted(values) if ordered else values:
        value = values[name]
        normal = quick.get(name)
        if normal is not None:
            normalized = normal(value)
            if normalized is not FULL:
                out[name] = normalized
                continue
        spec = by_name.get(name)
        normalized = normalize_value(value, None if spec is None else spec.type, plans)
        # An optional argument given as null or an empty list is an argument not given.
        if normalized is None or (normalized == [] and name not in required):
            continue
        out[name] = normalized
    return out


def normalize_value(value: Any, type_: TypeIR | None, plans: Plans | None = None) -> Any:
    """One value normalised by its type (None: no declared type)."""
    if value is None:
        return None
    if type_ is None or type_.kind is Kind.ANY:
        return _generic(value)
    kind = type_.kind
    if kind is Kind.UNION:
        return normalize_value(value, type_.union_of[0], plans) if type_.union_of else _generic(value)
    if kind is Kind.ENUM:
        if isinstance(value, str):
            for member in type_.enum_values:
                if isinstance(member, str) and member.lower() == value.strip().lower():
                    return member
        base = bare_type(type_.base) if type_.base is not None else None
        return normalize_value(value, base, plans)
    if kind is Kind.STRING:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, _TEXT_OR_NUMBER):
            return str(value).strip().lower()
        return _generic(value)
    if kind in (Kind.INTEGER, Kind.NUMBER, Kind.BOOLEAN):
        if isinstance(value, str):
            converted = convert_text(value, type_)
            return _generic(converted) if isinstance(converted, str) else converted
        if isinstance(value, bool):
            return value if kind is Kind.BOOLEAN else int(value)
        if kind is Kind.BOOLEAN and isinstance(value, _NUMBERS):
            return bool(value)
        if kind is Kind.INTEGER and isinstance(value, _FRACTIONAL) and _integral(value):
            return int(value)
        return _generic(value)
    if kind is Kind.ARRAY:
        items = value if isinstance(value, list) else [value]
        normalized = [normalize_value(item, type_.item, plans) for item in items]
        return [item for item in normalized if item is not None]
    if kind is Kind.OBJECT:
        if isinstance(value, dict):
            return _fields(type_.fields, value, True, plans or Plans())
        return _generic(value)
    return _generic(value)


def _integral(value: float | Decimal) -> bool:
    if isinstance(value, Decimal):
        return value.is_finite() and value == value.to_integral_value()
    return value.is_integer()


def _generic(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, list):
        if len(value) == 1:
            return _generic(value[0])
        return [_generic(item) for item in value if item is not None]
    if isinstance(value, dict):
        return {k: _generic(value[k]) for k in sorted(value) if value[k] is not None and value[k] != []}
    return value
