"""JSON values as the IR holds them.

Numbers stay as they were read: ``int`` for integers, ``float`` or
``decimal.Decimal`` for the rest (a caller that parses JSON with
``parse_float=Decimal`` keeps every digit; nothing here turns a Decimal into a
float).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypeAlias

JsonValue: TypeAlias = "None | bool | int | float | Decimal | str | list[JsonValue] | dict[str, JsonValue]"


def is_number(value: object) -> bool:
    """A JSON number: an int, float or Decimal, and never a bool."""
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)
