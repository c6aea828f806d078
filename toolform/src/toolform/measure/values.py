"""Values a generated request can state: valid against the parameter's own schema, or none at all.

A generated task is only fair when its expected call is a call the tool accepts:
``sample_arguments`` draws every required argument (arrays and objects
included) from the parameter's type, keeping its enums, bounds, lengths, item
counts, formats (date, date-time, time, email, uri, uuid, hostname, ipv4,
ipv6) and patterns (a string drawn from the regular expression's parsed form),
then checks the whole call with the validator ``parse`` applies. A tool for
which no valid call turns up in a few draws raises ``NoValidCall``, naming why.
"""

from __future__ import annotations

import math
import random
import re
import string
import uuid
from decimal import Decimal
from typing import Any

from toolform.ir import Kind, ToolIR, TypeIR
from toolform.measure.regex_sample import PatternUnsupported, sample_pattern
from toolform.parse.validate import validate_arguments

#: Draws per tool before it is declared impossible: a pattern with lookarounds may need several.
_ATTEMPTS = 24
#: Nesting beyond this is a recursive type no finite request states.
_MAX_DEPTH = 8
#: Arrays nested at least this deep get their fewest items.
_SHALLOW = 2
_WORDS = ("alpha", "harbor", "lumen", "cedar", "orbit", "maple", "quartz", "delta", "ember", "willow")
_HOSTS = ("example.com", "example.org", "example.net")


class NoValidCall(Exception):
    """No call valid against the tool's schema could be drawn; the message says which parameter and why."""


def sample_arguments(tool: ToolIR, rng: random.Random) -> dict[str, Any]:
    """Every required parameter of ``tool`` with a value its schema accepts, as ``parse`` validates it.

    Raises NoValidCall when no such set of values turns up.
    """
    last_problem = ""
    for _ in range(_ATTEMPTS):
        try:
            values = {param.name: _value(param.type, rng, param.name, 0) for param in tool.params if param.required}
        except _Impossible as impossible:
            raise NoValidCall(str(impossible)) from None
        except PatternUnsupported as unsupported:
            raise NoValidCall(str(unsupported)) from None
        validation = validate_arguments(tool, values)
        if validation.ok:
            return values
        errors = (validation.missing_required + validation.unknown_args + validation.type_errors
                  + validation.enum_errors + validation.constraint_errors)
        last_problem = errors[0] if errors else "invalid"
    raise NoValidCall(f"no drawn call passed its schema in {_ATTEMPTS} draws ({last_problem})")


class _Impossible(Exception):
    pass


def _value(type_: TypeIR, rng: random.Random, name: str, depth: int) -> Any:
    if depth > _MAX_DEPTH:
        raise _Impossible(f"{name}: nests deeper than {_MAX_DEPTH} levels (a recursive type no request can state)")
    kind = type_.kind
    if kind is Kind.ENUM:
        if not type_.enum_values:
            raise _Impossible(f"{name}: an enum with no values")
        return rng.choice(list(type_.enum_values))
    if kind is Kind.UNION:
        members = [m for m in type_.union_of if m.kind is not Kind.NULL] or list(type_.union_of)
        if not members:
            raise _Impossible(f"{name}: a union with no members")
        return _value(rng.choice(members), rng, name, depth)
    if kind is Kind.NULL:
        return None
    if kind is Kind.BOOLEAN:
        return rng.choice((True, False))
    if kind is Kind.INTEGER:
        return _integer(type_.constraints, rng, name)
    if kind is Kind.NUMBER:
        return _number(type_.constraints, rng, name)
    if kind is Kind.STRING:
        return _string(type_.constraints, rng, name)
    if kind is Kind.ARRAY:
        return _array(type_, rng, name, depth)
    if kind is Kind.OBJECT:
        return {f.name: _value(f.type, rng, f"{name}.{f.name}", depth + 1) for f in type_.fields if f.required}
    return _word(rng, name)  # ANY: a short string is a value of any type


def _bound(constraints: dict[str, Any], key: str) -> float | None:
    value = constraints.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)):
        return None
    return float(value)


def _integer(constraints: dict[str, Any], rng: random.Random, name: str) -> int:
    low, high = _bound(constraints, "minimum"), _bound(constraints, "maximum")
    low_int = math.ceil(low) if low is not None else None
    high_int = math.floor(high) if high is not None else None
    if low_int is not None and high_int is not None and low_int > high_int:
        raise _Impossible(f"{name}: no integer lies between minimum {low} and maximum {high}")
    start = low_int if low_int is not None else (high_int - 99 if high_int is not None and high_int < 1 else 1)
    stop = high_int if high_int is not None else start + 99
    return rng.randint(start, min(stop, start + 99))


def _number(constraints: dict[str, Any], rng: random.Random, name: str) -> float | int:
    low, high = _bound(constraints, "minimum"), _bound(constraints, "maximum")
    if low is not None and high is not None and low > high:
        raise _Impossible(f"{name}: minimum {low} is above maximum {high}")
    start = low if low is not None else (high - 100 if high is not None and high < 0 else 0.0)
    stop = high if high is not None else start + 100
    # A value of a quarter step: written exactly in decimal, so the request and the call say the same number.
    steps = int((stop - start) * 4)
    value = math.ceil(start * 4) / 4 + rng.randint(0, max(steps - 1, 0)) / 4
    if value > stop:
        value = start
    return int(value) if value == int(value) and rng.random() < 0.5 else value


def _format_value(fmt: str, rng: random.Random, name: str) -> str | None:
    day = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    clock = f"{rng.randint(0, 23):02d}:{rng.choice((0, 15, 30, 45)):02d}:00"
    word = rng.choice(_WORDS)
    values = {
        "date": day,
        "date-time": f"{day}T{clock}Z",
        "time": clock,
        "email": f"{word}.{rng.randint(1, 99)}@{rng.choice(_HOSTS)}",
        "idn-email": f"{word}@{rng.choice(_HOSTS)}",
        "uri": f"https://{rng.choice(_HOSTS)}/{word}/{rng.randint(1, 999)}",
        "url": f"https://{rng.choice(_HOSTS)}/{word}/{rng.randint(1, 999)}",
        "iri": f"https://{rng.choice(_HOSTS)}/{word}",
        "uri-reference": f"/{word}/{rng.randint(1, 999)}",
        "uuid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        "hostname": f"{word}.{rng.choice(_HOSTS)}",
        "idn-hostname": f"{word}.{rng.choice(_HOSTS)}",
        "ipv4": f"192.0.2.{rng.randint(1, 254)}",
        "ipv6": f"2001:db8::{rng.randint(1, 0xffff):x}",
        "duration": f"P{rng.randint(1, 9)}D",
    }
    return values.get(fmt.lower())


def _word(rng: random.Random, name: str) -> str:
    stem = re.sub(r"\[\d+\]", "", name).rsplit(".", 1)[-1].strip("_") or "value"
    return f"{rng.choice(_WORDS)}-{stem.replace('_', '-')}-{rng.randint(1, 99)}"


def _string(constraints: dict[str, Any], rng: random.Random, name: str) -> str:
    shortest = int(_bound(constraints, "min_length") or 0)
    longest_bound = _bound(constraints, "max_length")
    longest = int(longest_bound) if longest_bound is not None else None
    if longest is not None and shortest > longest:
        raise _Impossible(f"{name}: min_length {shortest} is above max_length {longest}")
    pattern = constraints.get("pattern")
    if isinstance(pattern, str) and _compiles(pattern):
        # The pattern decides the text; the lengths are checked by the validation that follows.
        return sample_pattern(pattern, rng)
    fmt = constraints.get("format")
    value = _format_value(fmt, rng, name) if isinstance(fmt, str) else None
    if value is None:
        value = _word(rng, name)
        if longest is not None and len(value) > longest:
            value = "".join(rng.choice(string.ascii_lowercase) for _ in range(max(shortest, min(longest, 8))))
        if len(value) < shortest:
            value += "".join(rng.choice(string.ascii_lowercase) for _ in range(shortest - len(value)))
    return value


def _compiles(pattern: str) -> bool:
    """Whether Python reads the pattern: one it cannot constrains nothing ``parse`` checks, so none is drawn for."""
    try:
        re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        return False
    return True


def _array(type_: TypeIR, rng: random.Random, name: str, depth: int) -> list[Any]:
    fewest = int(_bound(type_.constraints, "min_items") or 0)
    most_bound = _bound(type_.constraints, "max_items")
    most = int(most_bound) if most_bound is not None else None
    if most is not None and fewest > most:
        raise _Impossible(f"{name}: min_items {fewest} is above max_items {most}")
    # One item or two near the top; deeper down the fewest allowed, so a recursive type ends.
    count = max(fewest, 1) if depth < _SHALLOW else fewest
    if most is not None:
        count = min(count + rng.randint(0, 1), most)
    elif depth < _SHALLOW:
        count += rng.randint(0, 1)
    item = type_.item
    if item is None:
        return [_word(rng, name) for _ in range(count)]
    return [_value(item, rng, f"{name}[{index}]", depth + 1) for index in range(count)]
