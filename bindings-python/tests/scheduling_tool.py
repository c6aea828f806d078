"""A Tool process for test_scheduling.py: plain handlers that compute, block
until cancelled, or meet at a barrier, to see how the runtime's pool runs
them (``python3 scheduling_tool.py MAX_WORKERS PARTIES`` serves it: at most
MAX_WORKERS plain handlers at once, PARTIES calls of ``meet`` at the barrier)."""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

import flow_toolkit
from flow_toolkit._dynamic import classes_for


def _tool(name: str, ok: str) -> dict[str, Any]:
    return {"tool": f"t/sched.flow.{name}", "doc": None, "generic": [],
            "params": [{"name": "n", "type": "Int"}], "ok": ok, "err": "Never"}


LISTING = json.dumps({"data": "0.1", "tools": [_tool("thread", "Int"), _tool("blocks", "Bool"),
                                               _tool("meet", "Bool")], "declarations": {}})


def main() -> None:
    max_workers, parties = int(sys.argv[1]), int(sys.argv[2])
    barrier = threading.Barrier(parties)

    def thread(n: int, *, ctx: flow_toolkit.CallContext) -> int:
        """The thread that ran the call."""
        return threading.get_ident()

    def blocks(n: int, *, ctx: flow_toolkit.CallContext) -> bool:
        """Holds its thread until the call is cancelled (at most n seconds)."""
        return ctx.wait_cancelled(n)

    def meet(n: int, *, ctx: flow_toolkit.CallContext) -> bool:
        """Whether PARTIES calls ran at once within n seconds."""
        try:
            barrier.wait(n)
        except threading.BrokenBarrierError:
            return False
        return True

    entries = [(tool, fingerprint, flow_toolkit.tool_signature(LISTING, tool))
               for tool, fingerprint in flow_toolkit.fingerprints(LISTING)]
    codec = flow_toolkit.Codec(LISTING, classes_for(LISTING))
    flow_toolkit.serve(codec, entries, [thread, blocks, meet], max_workers=max_workers, args=[])


if __name__ == "__main__":
    main()
