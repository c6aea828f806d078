"""A Flow Tool process for the call loop's tests: Decimal subtraction, exact (``python3 flow_exact_tool.py``).

``LISTING`` is its listing (``flow tools`` JSON); ``t/exact.flow`` is the table
a flow.toml binds it under.
"""

from __future__ import annotations

import json
from decimal import Decimal

import flow_toolkit
from flow_toolkit._dynamic import classes_for

TABLE = "t/exact.flow"
LISTING = json.dumps(
    {
        "data": "0.1",
        "tools": [
            {
                "tool": f"{TABLE}.subtract",
                "doc": "a minus b, exactly.",
                "generic": [],
                "params": [{"name": "a", "type": "Decimal"}, {"name": "b", "type": "Decimal"}],
                "ok": "Decimal",
                "err": "Never",
            }
        ],
        "declarations": {},
    }
)


def subtract(a: Decimal, b: Decimal, *, ctx: flow_toolkit.CallContext) -> Decimal:
    return a - b


def main() -> None:
    entries = [
        (tool, fingerprint, flow_toolkit.tool_signature(LISTING, tool))
        for tool, fingerprint in flow_toolkit.fingerprints(LISTING)
    ]
    flow_toolkit.serve(flow_toolkit.Codec(LISTING, classes_for(LISTING)), entries, [subtract])


if __name__ == "__main__":
    main()
