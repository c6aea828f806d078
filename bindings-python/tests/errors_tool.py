"""A Tool process for test_raised_errors.py: five Tools that differ only in
their declared error type (an enum, a record, Text, Option of the enum,
Never), each raising what its ``kind`` argument names, with the classes
``codec_for`` makes at run time (``python3 errors_tool.py`` serves it)."""

from __future__ import annotations

import json
from typing import Any

import flow_toolkit
from flow_toolkit._dynamic import classes_for


def _tool(name: str, err: Any) -> dict[str, Any]:
    return {"tool": f"t/errs.flow.{name}", "doc": None, "generic": [],
            "params": [{"name": "kind", "type": "Text"}], "ok": "Unit", "err": err}


ENUM = {"Named": {"declaration": "1", "args": []}}
RECORD = {"Named": {"declaration": "2", "args": []}}
LISTING = json.dumps({
    "data": "0.1",
    "tools": [_tool("enum_err", ENUM), _tool("record_err", RECORD), _tool("text_err", "Text"),
              _tool("option_err", {"Option": ENUM}), _tool("never_err", "Never")],
    "declarations": {
        "1": {"name": "E", "identity": "t/errs.flow.E", "lexical_ordinal": 1, "generic": [], "opaque": False,
              "kind": "enum", "doc": None, "constructors": [
                  {"name": "Busy", "doc": None, "payload": None},
                  {"name": "Gone", "doc": None, "payload": {"positional": ["Text"]}},
                  {"name": "Bad", "doc": None, "payload": {"named": [{"name": "code", "type": "Int", "doc": None}]}},
              ]},
        "2": {"name": "R", "identity": "t/errs.flow.R", "lexical_ordinal": 2, "generic": [], "opaque": False,
              "kind": "record", "doc": None, "fields": [
                  {"name": "code", "type": "Int", "doc": None},
                  {"name": "note", "type": {"Option": "Text"}, "doc": None},
              ]},
    },
})

CLASSES = classes_for(LISTING)
BUSY, GONE, BAD = CLASSES["t/errs.flow.E"]
R = CLASSES["t/errs.flow.R"]

RAISED: dict[str, Any] = {
    "busy": lambda: BUSY(),
    "gone": lambda: GONE("away"),
    "bad": lambda: BAD(code=7),
    "r": lambda: R(code=1, note=None),
    "r-not-encodable": lambda: R(code="one", note=None),
    "plain": lambda: RuntimeError("the model is down"),
    "failed-busy": lambda: flow_toolkit.Failed(BUSY()),
    "failed-text": lambda: flow_toolkit.Failed("why"),
}


def handler(kind: str, *, ctx: flow_toolkit.CallContext) -> None:
    raise RAISED[kind]()


async def async_handler(kind: str, *, ctx: flow_toolkit.CallContext) -> None:
    raise RAISED[kind]()


def main() -> None:
    entries = [(tool, fingerprint, flow_toolkit.tool_signature(LISTING, tool))
               for tool, fingerprint in flow_toolkit.fingerprints(LISTING)]
    codec = flow_toolkit.Codec(LISTING, CLASSES)
    # option_err's handler is async: the same rules on asyncio.
    flow_toolkit.serve(codec, entries, [handler, handler, handler, async_handler, handler])


if __name__ == "__main__":
    main()
