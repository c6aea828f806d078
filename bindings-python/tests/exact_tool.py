"""A Tool process for test_exact_decimal.py: Decimal arithmetic in handlers,
sync and async, under the runtime's exact decimal context
(``python3 exact_tool.py`` serves it)."""

from __future__ import annotations

import decimal
import json
from decimal import Decimal
from typing import Any

import flow_toolkit
from flow_toolkit._dynamic import classes_for


def _tool(name: str) -> dict[str, Any]:
    return {"tool": f"t/exact.flow.{name}", "doc": None, "generic": [],
            "params": [{"name": "a", "type": "Decimal"}, {"name": "b", "type": "Decimal"}],
            "ok": "Decimal", "err": "Never"}


NAMES = ["sub", "div", "div_async", "sub_async", "div_rounded"]
LISTING = json.dumps({"data": "0.1", "tools": [_tool(n) for n in NAMES], "declarations": {}})


def sub(a: Decimal, b: Decimal, *, ctx: flow_toolkit.CallContext) -> Decimal:
    return a - b


def div(a: Decimal, b: Decimal, *, ctx: flow_toolkit.CallContext) -> Decimal:
    return a / b


async def div_async(a: Decimal, b: Decimal, *, ctx: flow_toolkit.CallContext) -> Decimal:
    return a / b


async def sub_async(a: Decimal, b: Decimal, *, ctx: flow_toolkit.CallContext) -> Decimal:
    return a - b


def div_rounded(a: Decimal, b: Decimal, *, ctx: flow_toolkit.CallContext) -> Decimal:
    # Rounding asked for, in a local context: the documented way.
    with decimal.localcontext(traps=[]):
        return (a / b).quantize(Decimal("0.01"), rounding=decimal.ROUND_HALF_EVEN)


def main() -> None:
    entries = [(tool, fingerprint, flow_toolkit.tool_signature(LISTING, tool))
               for tool, fingerprint in flow_toolkit.fingerprints(LISTING)]
    codec = flow_toolkit.Codec(LISTING, classes_for(LISTING))
    flow_toolkit.serve(codec, entries, [sub, div, div_async, sub_async, div_rounded])


if __name__ == "__main__":
    main()
