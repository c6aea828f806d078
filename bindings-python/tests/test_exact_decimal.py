"""Handlers compute Decimals in an exact context: a difference of two
30-digit values keeps every digit (Python's default context would round it to
28), and a quotient that does not terminate raises decimal.Inexact (the call
is Unknown) instead of being rounded; rounding asked for in a local context
works. Sync and async handlers alike. Served through exact_tool.py."""

from __future__ import annotations

import decimal
import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import flow_toolkit

HERE = Path(__file__).resolve().parent
HAVE = "123456789012345678901234567890.05"
AMOUNT = "0.07"


def serve_calls(calls: list[tuple[str, str, str, str]]) -> tuple[dict[str, Any], str]:
    """Sends each ``(call id, tool, a, b)``, ends stdin,
    and returns the outcomes by call id and the process's stderr. The args are
    JSON numbers written from the strings, so no float is involved."""
    lines = "".join(
        f'{{"jsonrpc":"2.0","method":"call","params":{{"run":"r","call":"{call}","tool":"t/exact.flow.{tool}",'
        f'"args":{{"a":{a},"b":{b}}}}}}}\n'
        for call, tool, a, b in calls
    )
    run = subprocess.run([sys.executable, str(HERE / "exact_tool.py")], input=lines, capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    outcomes = {}
    for line in run.stdout.splitlines():
        params = json.loads(line, parse_float=Decimal)["params"]
        outcomes[params["call"]] = params["outcome"]
    assert len(outcomes) == len(calls), run.stdout + run.stderr
    return outcomes, run.stderr


def test_the_default_context_would_have_lost_digits() -> None:
    # What this guards against: 28 digits, silently.
    with decimal.localcontext(decimal.Context()):
        assert str(Decimal(HAVE) - Decimal(AMOUNT)) == "1.234567890123456789012345679E+29"


def test_handlers_are_exact_or_raise() -> None:
    outcomes, log = serve_calls([
        ("sub", "sub", HAVE, AMOUNT), ("sub_async", "sub_async", HAVE, AMOUNT),
        ("quarter", "div", "1", "4"), ("third", "div", "1", "3"), ("third_async", "div_async", "1", "3"),
        ("rounded", "div_rounded", "10", "3"),
    ])
    assert outcomes["sub"] == {"Ok": Decimal("123456789012345678901234567889.98")}
    assert outcomes["sub_async"] == {"Ok": Decimal("123456789012345678901234567889.98")}
    assert outcomes["quarter"] == {"Ok": Decimal("0.25")}
    assert outcomes["rounded"] == {"Ok": Decimal("3.33")}
    raised = "the handler failed: it raised Inexact: [<class 'decimal.Inexact'>, <class 'decimal.Rounded'>]"
    assert outcomes["third"] == {"Unknown": raised}
    assert outcomes["third_async"] == {"Unknown": raised}
    assert log.count("decimal.Inexact: ") == 2, log


def test_exact_context_is_a_fresh_copy_with_the_traps() -> None:
    context = flow_toolkit.exact_context()
    assert context.prec == 8600
    assert context.traps[decimal.Inexact] and context.traps[decimal.Rounded]
    context.prec = 5
    assert flow_toolkit.exact_context().prec == 8600
