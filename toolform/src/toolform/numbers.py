"""Numbers written as the reference writes them, computed from the exact value, never through a float.

The reference reads JSON with Python's ``json`` module, so a number with a
fraction or an exponent becomes the double nearest to it, and its formats print
that double's ``repr``: the shortest digits that read back as the same double
(``0.1``, ``1e+21``, ``5.0``). ToolForm keeps such a number as a Decimal with
every digit; ``float_repr`` gives the text the reference prints for it with
integer arithmetic alone, so the digits held are never rounded on the way.

A Decimal of 15 significant digits or fewer, well inside the range of doubles,
reads back from its double unchanged (15 is the digits a double always
carries), so its ``repr`` has exactly its digits; only longer ones, and those at
the edges of the range, take the exact rounding below.
"""

from __future__ import annotations

from decimal import Decimal

#: A double's significand has 53 bits; the smallest subnormal is 2**-1074; the largest finite value's
#: exponent (as significand * 2**exponent with a 53-bit significand) is 971.
_BITS = 53
_LOWEST_EXPONENT = -1074
_HIGHEST_EXPONENT = 971
#: Decimal digits every double carries: a decimal of at most this many reads back from its double unchanged.
_SAFE_DIGITS = 15
#: Leading decimal exponents of normal doubles, with a margin: inside it the short path holds.
_SAFE_LOW, _SAFE_HIGH = -307, 307
#: Beyond these leading decimal exponents the nearest double is infinite, or zero.
_OVERFLOW_FROM, _UNDERFLOW_BELOW = 309, -324

#: Answers of the exact path, by the Decimal's text (texts of one value may differ: 1.0 and 1.00).
_EXACT: dict[str, str] = {}
_EXACT_MOST = 4096


def float_repr(value: Decimal) -> str:
    """``repr(float(value))``: the text Python gives the double nearest to ``value`` (``inf``, ``nan`` too)."""
    if not value.is_finite():
        if value.is_nan():
            return "nan"
        return "-inf" if value.is_signed() else "inf"
    sign, digit_tuple, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple)).lstrip("0")
    minus = "-" if sign else ""
    if not digits:
        return minus + "0.0"
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    leading = exponent + len(stripped) - 1
    if len(stripped) <= _SAFE_DIGITS and _SAFE_LOW <= leading <= _SAFE_HIGH:
        return minus + _written(stripped, leading)
    text = str(value)
    found = _EXACT.get(text)
    if found is None:
        found = minus + _exact(int(stripped), exponent, leading)
        if len(_EXACT) >= _EXACT_MOST:
            _EXACT.clear()
        _EXACT[text] = found
    return found


def _written(digits: str, leading: int) -> str:
    """Significant ``digits`` whose first stands at 10**``leading``, laid out as ``float.__repr__`` lays them."""
    if leading < -4 or leading >= 16:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{mantissa}e{'-' if leading < 0 else '+'}{abs(leading):02d}"
    point = leading + 1
    if point <= 0:
        return "0." + "0" * -point + digits
    if point >= len(digits):
        return digits + "0" * (point - len(digits)) + ".0"
    return digits[:point] + "." + digits[point:]


def _exact(coefficient: int, exponent: int, leading: int) -> str:
    """The shortest digits that read back as the double nearest ``coefficient * 10**exponent`` (> 0), laid out."""
    if leading >= _OVERFLOW_FROM:
        return "inf"
    if leading < _UNDERFLOW_BELOW:
        return "0.0"
    # The value as a fraction num / den.
    num, den = (coefficient * _ten(exponent), 1) if exponent >= 0 else (coefficient, _ten(-exponent))
    significand, power = _nearest_double(num, den)
    if significand == 0:
        return "0.0"
    if power > _HIGHEST_EXPONENT:
        return "inf"
    digits, first = _shortest(significand, power, leading)
    return _written(digits, first)


def _nearest_double(num: int, den: int) -> tuple[int, int]:
    """(significand, power) of the double nearest num / den, rounded half to even; the power may overflow."""
    power = max(num.bit_length() - den.bit_length() - _BITS, _LOWEST_EXPONENT)
    top, bottom = (num, den << power) if power >= 0 else (num << -power, den)
    quotient, remainder = divmod(top, bottom)
    while quotient >= 1 << _BITS or (quotient < 1 << (_BITS - 1) and power > _LOWEST_EXPONENT):
        power += 1 if quotient >= 1 << _BITS else -1
        top, bottom = (num, den << power) if power >= 0 else (num << -power, den)
        quotient, remainder = divmod(top, bottom)
    twice = 2 * remainder
    if twice > bottom or (twice == bottom and quotient % 2 == 1):
        quotient += 1
        if quotient == 1 << _BITS:
            quotient, power = quotient >> 1, power + 1
    return quotient, power


def _shortest(significand: int, power: int, leading: int) -> tuple[str, int]:
    """The fewest significant digits, and the decimal exponent of the first, of a number that reads back as
    ``significand * 2**power``; of those, the one nearest it (as ``float.__repr__`` chooses)."""
    # In quarters of the gap between doubles (2**(power - 2)) the double is 4 * significand and the midpoints
    # to its neighbours are 2 away, so all three are integers over ``scale``: the double is v / scale, the
    # midpoints low / scale and high / scale.
    scale = 1 << max(2 - power, 0)
    unit = 1 << (power - 2) if power >= 2 else 1
    v = (significand << 2) * unit
    high = v + 2 * unit
    # Below a power of two the gap to the next lower double is half as wide.
    narrow = significand == 1 << (_BITS - 1) and power > _LOWEST_EXPONENT
    low = v - (unit if narrow else 2 * unit)
    inclusive = significand % 2 == 0
    # The decimal exponent of the double's first digit: the value's own, or one above when it rounded up to it.
    first = leading
    if _at_least(v, scale, first + 1):
        first += 1
    elif not _at_least(v, scale, first):
        first -= 1
    for count in range(1, 18):
        step = first - count + 1  # the candidates are multiples of 10**step
        step_num, step_den = (_ten(step), 1) if step >= 0 else (1, _ten(-step))
        # A candidate k * 10**step, against v / scale: k * step_num * scale against v * step_den.
        below = (v * step_den) // (step_num * scale)
        best: tuple[int, int] | None = None
        for k in (below, below + 1):
            position = k * step_num * scale
            lo, hi = low * step_den, high * step_den
            inside = lo < position < hi or (inclusive and (position == lo or position == hi))
            if inside and k > 0:
                distance = abs(position - v * step_den)
                # Of two as near, the even one.
                if best is None or distance < best[1] or (distance == best[1] and k % 2 == 0):
                    best = (k, distance)
        if best is not None:
            text = str(best[0])
            stripped = text.rstrip("0")
            return stripped, step + len(text) - 1
    raise AssertionError("a double always has a 17-digit form")


def _at_least(v: int, scale: int, exponent: int) -> bool:
    """Whether ``v / scale`` is at least ``10**exponent``."""
    if exponent >= 0:
        return v >= _ten(exponent) * scale
    return v * _ten(-exponent) >= scale


def _ten(exponent: int) -> int:
    """10 to a power of zero or more, as an int."""
    return int(10**exponent)


def number_text(value: int | Decimal | float) -> str:
    """A number as the reference's Python prints it: an int (or a Decimal written without a point or an
    exponent) as an integer, any other Decimal as the double it reads as, a float as itself."""
    if isinstance(value, Decimal):
        if value.is_finite() and value.as_tuple().exponent == 0:
            return int.__repr__(int(value))
        return float_repr(value)
    if isinstance(value, int):
        return int.__repr__(value)
    return float.__repr__(value)
