"""What validating and normalising a call needs from its tool's fields, worked out once per reply.

A reply of hundreds of calls to a few tools would otherwise build each tool's
index of fields, its required names and its enum members again for every call.
A plan also carries, per field, a quick test for the commonest values (a string
where a string is declared, an integer within its bounds, a known enum member):
a value that passes it is one the full check finds nothing wrong with, and whose
normal form is the one given; any other value takes the full path, so the answers
are the same. Plans live for one parse (``Plans``): the IR is mutable, so a plan
is never kept past the reply it was made for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from toolform.ir import FieldIR, Kind, TypeIR

#: A value's quick test: True when the full check would find no error in it.
Valid = Callable[[Any], bool]

_NUMBER_TYPES = (int, float, Decimal)


def _bound(constraints: dict[str, Any], key: str) -> Any:
    """A numeric constraint, or None: as ``validate._bound`` reads it (a bool is no bound)."""
    value = constraints.get(key)
    return value if isinstance(value, _NUMBER_TYPES) and not isinstance(value, bool) else None


def _within(low: Any, high: Any) -> Valid | None:
    """The test for a number of the declared type: within its bounds (None: no bounds to test)."""
    if low is None and high is None:
        return None
    if low is None:
        return lambda value: not value > high
    if high is None:
        return lambda value: not value < low
    return lambda value: not value < low and not value > high


def _valid_test(type_: TypeIR) -> Valid | None:
    """The quick test for a value of this type, or None when every value takes the full check."""
    kind, c = type_.kind, type_.constraints
    if kind is Kind.STRING:
        if isinstance(c.get("pattern"), str):
            return None
        shortest, longest = _bound(c, "min_length"), _bound(c, "max_length")
        if shortest is None and longest is None:
            return lambda value: type(value) is str
        length = _within(shortest, longest)
        assert length is not None
        return lambda value: type(value) is str and length(len(value))
    if kind is Kind.INTEGER or kind is Kind.NUMBER:
        accepted: tuple[type, ...] = (int,) if kind is Kind.INTEGER else _NUMBER_TYPES
        bounds = _within(_bound(c, "minimum"), _bound(c, "maximum"))
        if bounds is None:
            return lambda value: type(value) in accepted
        return lambda value: type(value) in accepted and bounds(value)
    if kind is Kind.BOOLEAN:
        return lambda value: type(value) is bool
    if kind is Kind.ANY and not c:
        return lambda value: True
    if kind is Kind.ENUM and type_.base in (None, Kind.STRING) and type_.enum_values:
        # An enum with a pattern holds even its members to it: the full path checks that.
        if not all(type(member) is str for member in type_.enum_values) or (c and "pattern" in c):
            return None
        lowered = frozenset(str(member).lower() for member in type_.enum_values)
        return lambda value: type(value) is str and value.lower() in lowered
    return None


#: A value's quick normal form: the form, or ``_FULL`` when the value must take the full path.
Normal = Callable[[Any], Any]
_FULL = object()


def _normal_form(type_: TypeIR) -> Normal | None:
    """The quick normal form for a value of this type (as ``normalize.normalize_value`` gives it), or None."""
    kind = type_.kind
    if kind is Kind.STRING:
        return lambda value: value.strip().lower() if type(value) is str else _FULL
    if kind is Kind.INTEGER or kind is Kind.NUMBER:
        # An int is its own normal form for both; a Decimal or float only for a number.
        if kind is Kind.INTEGER:
            return lambda value: value if type(value) is int else _FULL
        return lambda value: value if type(value) in _NUMBER_TYPES else _FULL
    if kind is Kind.BOOLEAN:
        return lambda value: value if type(value) is bool else _FULL
    if kind is Kind.ENUM:
        members: dict[str, Any] = {}
        for member in type_.enum_values:
            if isinstance(member, str):
                members.setdefault(member.lower(), member)
        if not members:
            return None
        return lambda value: members.get(value.strip().lower(), _FULL) if type(value) is str else _FULL
    return None


@dataclass(frozen=True)
class FieldsPlan:
    """One list of fields (a tool's parameters, or an object's fields) as the checks read it."""

    #: Each field by name; of two fields with one name, the later (as a dict built in order keeps it).
    by_name: dict[str, FieldIR]
    #: The required names in order (a repeated field repeated).
    required: list[str]
    required_names: frozenset[str]
    #: Each field's quick validity test and normal form, by name; None where there is none.
    valid: dict[str, Valid | None]
    normal: dict[str, Normal | None]


def plan_fields(fields: list[FieldIR]) -> FieldsPlan:
    by_name = {f.name: f for f in fields}
    required = [f.name for f in fields if f.required]
    return FieldsPlan(
        by_name,
        required,
        frozenset(required),
        {name: _valid_test(f.type) for name, f in by_name.items()},
        {name: _normal_form(f.type) for name, f in by_name.items()},
    )


class Plans:
    """The plans of one parse, by the identity of their fields list (which each plan keeps alive)."""

    def __init__(self) -> None:
        self._plans: dict[int, tuple[list[FieldIR], FieldsPlan]] = {}

    def of(self, fields: list[FieldIR]) -> FieldsPlan:
        found = self._plans.get(id(fields))
        if found is not None and found[0] is fields:
            return found[1]
        plan = plan_fields(fields)
        self._plans[id(fields)] = (fields, plan)
        return plan


FULL = _FULL
