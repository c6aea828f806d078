"""JSON text with exact numbers: a Decimal is written with every digit it has, never through a float.

The loaders keep the digits of JSON text they parse (``parse_float=Decimal``);
``json.dumps`` cannot write a Decimal, and a float would round it. Everything
else is written as ``json.dumps`` writes it with the same options.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from decimal import Decimal

from toolform.numbers import float_repr


def dumps(value: object) -> str:
    """``value`` as compact JSON text (``,`` and ``:``, no ASCII escapes)."""
    return write(value, item_separator=",", key_separator=":", ensure_ascii=False)


def write(
    value: object,
    *,
    sort_keys: bool = False,
    item_separator: str = ", ",
    key_separator: str = ": ",
    ensure_ascii: bool = True,
    decimal_as_float: bool = False,
    decimal_text: Callable[[Decimal], str] | None = None,
) -> str:
    """JSON text as ``json.dumps`` writes it with these options, Decimals included.

    With ``decimal_as_float``, a Decimal that a float holds exactly is written
    as that float (``1E+20`` as ``1e+20``), so that text matches what a
    float-reading program writes; any other Decimal keeps its digits.
    ``decimal_text``, when given, writes each Decimal instead.
    """

    def go(v: object) -> str:
        if v is None:
            return "null"
        if v is True:
            return "true"
        if v is False:
            return "false"
        if isinstance(v, int):
            return int.__repr__(v)
        if isinstance(v, float):
            return _float(v)
        if isinstance(v, Decimal):
            if decimal_text is not None:
                return decimal_text(v)
            if not v.is_finite():
                raise ValueError(f"{v} is not a JSON number")
            if decimal_as_float:
                # The float's text, worked out without a float; it holds the value when it reads back equal.
                as_float = float_repr(v)
                if as_float not in _NOT_FINITE and Decimal(as_float) == v:
                    return as_float
            return str(v)
        if isinstance(v, str):
            return json.dumps(v, ensure_ascii=ensure_ascii)
        if isinstance(v, dict):
            items = sorted(v.items(), key=lambda kv: str(kv[0])) if sort_keys else list(v.items())
            inner = item_separator.join(
                f"{json.dumps(str(k), ensure_ascii=ensure_ascii)}{key_separator}{go(x)}" for k, x in items
            )
            return "{" + inner + "}"
        if isinstance(v, list | tuple):
            return "[" + item_separator.join(go(x) for x in v) + "]"
        raise TypeError(f"Object of type {type(v).__name__} is not JSON serializable")

    return go(value)


_NOT_FINITE = frozenset({"inf", "-inf", "nan"})


def _float(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)
