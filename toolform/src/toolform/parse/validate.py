"""A call's arguments checked against its tool's schema: every error in its list, by path."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

from toolform.ir import FieldIR, Kind, ToolIR, TypeIR
from toolform.parse.bare_types import bare_type
from toolform.parse.field_plans import Plans
from toolform.parse.result import Validation

#: Python's names for the JSON types, as the messages write them; an exact decimal is JSON's non-integer number.
_PY_TYPE = {
    str: "str",
    int: "int",
    float: "float",
    Decimal: "float",
    bool: "bool",
    list: "list",
    dict: "dict",
    type(None): "NoneType",
}


def python_type_name(value: Any) -> str:
    """The Python name of a JSON value's type, as the messages write it (``str``, ``NoneType``, ...)."""
    return _PY_TYPE.get(type(value), type(value).__name__)


def validate_arguments(tool: ToolIR, arguments: dict[str, Any], plans: Plans | None = None) -> Validation:
    """Every error of ``arguments`` against ``tool``'s parameters (``plans``: those of the parse, to share)."""
    found = Validation()
    _check_fields(tool.params, arguments, "", found, plans or Plans())
    # Patterns are checked after every other constraint, as the reference lists them.
    if len(found.constraint_errors) > 1:
        found.constraint_errors.sort(key=lambda message: " does not match pattern " in message)
    return found


def _check_fields(fields: list[FieldIR], values: dict[str, Any], prefix: str, found: Validation, plans: Plans) -> None:
    plan = plans.of(fields)
    for name in plan.required:
        if name not in values:
            found.missing_required.append(prefix + name)
    by_name, valid = plan.by_name, plan.valid
    for name, value in values.items():
        spec = by_name.get(name)
        if spec is None:
            found.unknown_args.append(prefix + name)
            continue
        if value is None and not spec.required:
            continue
        quick = valid[name]
        if quick is not None and quick(value):
            continue
        _check(spec.type, value, prefix + name, found, plans)


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, Decimal):
        return value.is_finite() and value == value.to_integral_value()
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


#: A tuple, not ``int | float | Decimal``: the union is built again at every call (a call checks several).
_NUMBERS = (int, float, Decimal)


def _is_number(value: Any) -> bool:
    return isinstance(value, _NUMBERS) and not isinstance(value, bool)


def _accepts(type_: TypeIR, value: Any) -> bool:
    """Whether ``value`` has ``type_``'s kind (constraints aside)."""
    kind = type_.kind
    if kind is Kind.ANY:
        return True
    if kind is Kind.STRING:
        return isinstance(value, str)
    if kind is Kind.INTEGER:
        return _is_integer(value)
    if kind is Kind.NUMBER:
        return _is_number(value)
    if kind is Kind.BOOLEAN:
        return isinstance(value, bool)
    if kind is Kind.NULL:
        return value is None
    if kind is Kind.ARRAY:
        return isinstance(value, list)
    if kind is Kind.OBJECT:
        return isinstance(value, dict)
    if kind is Kind.ENUM:
        return type_.base is None or _accepts(bare_type(type_.base), value)
    if kind is Kind.UNION:
        return any(_accepts(member, value) for member in type_.union_of)
    return True


def _check(type_: TypeIR, value: Any, path: str, found: Validation, plans: Plans) -> None:
    kind = type_.kind
    if kind is Kind.UNION:
        members = [m for m in type_.union_of if _accepts(m, value)]
        if not members:
            found.type_errors.append(f"{path}: no union branch accepts {_show(value)}")
            return
        _check(members[0], value, path, found, plans)
        return
    if not _accepts(type_, value):
        expected = (type_.base.value if type_.base is not None else "enum") if kind is Kind.ENUM else kind.value
        found.type_errors.append(f"{path}: expected {expected}, got {python_type_name(value)}")
        return
    if kind is Kind.ENUM:
        if not any(_same_member(member, value) for member in type_.enum_values):
            found.enum_errors.append(f"{path}: {_show(value)} not in {_show(list(type_.enum_values))}")
        # An enum's text is held to its pattern too (not to its lengths), as the reference checks it.
        pattern = type_.constraints.get("pattern") if type_.constraints else None
        if isinstance(value, str) and isinstance(pattern, str) and not _matches(pattern, value):
            found.constraint_errors.append(f"{path}: {value!r} does not match pattern {pattern!r}")
        return
    _check_constraints(type_, value, path, found)
    if kind is Kind.ARRAY and type_.item is not None:
        for i, item in enumerate(value):
            _check(type_.item, item, f"{path}[{i}]", found, plans)
    elif kind is Kind.OBJECT and type_.fields:
        _check_fields(type_.fields, value, path + ".", found, plans)


def _same_member(member: Any, value: Any) -> bool:
    if isinstance(member, str) and isinstance(value, str):
        return member.lower() == value.lower()
    return bool(member == value and type(member) is type(value)) or (
        _is_number(member) and _is_number(value) and member == value
    )


def _bound(constraints: dict[str, Any], key: str) -> Any:
    """A numeric constraint (exact Decimal bounds compare with JSON numbers as they are), or None."""
    value = constraints.get(key)
    return value if _is_number(value) or isinstance(value, Decimal) else None


def _show(value: Any) -> str:
    """A value as the messages write it: Python's repr; an exact decimal as the float that is exactly it
    (``1e-07``, as the reference writes it), else as its digits, which no float holds."""
    if isinstance(value, Decimal):
        near = float(value)
        return repr(near) if math.isfinite(near) and Decimal(repr(near)) == value else str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_show(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_show(k)}: {_show(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _check_constraints(type_: TypeIR, value: Any, path: str, found: Validation) -> None:
    c = type_.constraints
    if not c:
        return
    errors = found.constraint_errors
    if _is_number(value):
        low, high = _bound(c, "minimum"), _bound(c, "maximum")
        if low is not None and value < low:
            errors.append(f"{path}: {_show(value)} < minimum {_show(low)}")
        if high is not None and value > high:
            errors.append(f"{path}: {_show(value)} > maximum {_show(high)}")
    if isinstance(value, str):
        shortest, longest = _bound(c, "min_length"), _bound(c, "max_length")
        if shortest is not None and len(value) < shortest:
            errors.append(f"{path}: shorter than {_show(shortest)}")
        if longest is not None and len(value) > longest:
            errors.append(f"{path}: longer than {_show(longest)}")
        pattern = c.get("pattern")
        if isinstance(pattern, str) and not _matches(pattern, value):
            errors.append(f"{path}: {value!r} does not match pattern {pattern!r}")
    if isinstance(value, list):
        fewest, most = _bound(c, "min_items"), _bound(c, "max_items")
        if fewest is not None and len(value) < fewest:
            errors.append(f"{path}: fewer than {_show(fewest)} items")
        if most is not None and len(value) > most:
            errors.append(f"{path}: more than {_show(most)} items")


def _matches(pattern: str, value: str) -> bool:
    try:
        return re.search(pattern, value) is not None
    except re.error:
        # A pattern Python cannot compile constrains nothing we can check.
        return True
