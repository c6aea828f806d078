"""The decimal context handlers run in: exact, or an exception.

Python's default context rounds every result to 28 significant digits and
says nothing, so ``have - amount`` on two 30-digit Decimals silently loses
digits, which Flow's exact Decimal never does. While a handler runs, the
runtime makes this context current instead:

- precision 8,600 digits: twice the 4,300 a Decimal may have at the boundary,
  so a sum, difference or product of two values that crossed is exact;
- ``Inexact`` and ``Rounded`` trapped, with ``InvalidOperation``,
  ``DivisionByZero`` and ``Overflow``: an operation whose exact result does
  not fit, such as ``Decimal(1) / 3``, raises ``decimal.Inexact`` (the call
  is Unknown, the traceback logged) instead of returning a rounded value.

The trade-off: rounding becomes something a handler asks for, never something
that happens to it. Code that means to round says so in a local context::

    with decimal.localcontext(traps=[]):
        share = (total / 3).quantize(Decimal("0.01"), rounding=decimal.ROUND_HALF_EVEN)

``exact_context()`` gives a copy, for code outside a handler (tests, tools)
that wants the same rule.
"""

from __future__ import annotations

import decimal

#: Twice the boundary's 4,300 digits (decisions.md, section 2).
PRECISION = 8600

#: The template; never made current itself (``decimal.localcontext`` and
#: :func:`exact_context` copy it), so no handler can change it.
EXACT_TEMPLATE = decimal.Context(
    prec=PRECISION,
    rounding=decimal.ROUND_HALF_EVEN,
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow, decimal.Inexact, decimal.Rounded],
)


def exact_context() -> decimal.Context:
    """A fresh copy of the context handlers run in: 8,600 digits, and an
    exception (``decimal.Inexact``, ``decimal.Rounded``) rather than a rounded
    result."""
    return EXACT_TEMPLATE.copy()
