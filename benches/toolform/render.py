"""Render/compare of 200 tools over every format: ours against the reference, in one run.

    .venv/bin/python benches/toolform/render.py [--tools 200] [--runs 7]

Both servers get the same POST /api/v1/render/compare body in turns: every
format of the registry (all 133, not only the study's 129), default options,
and 200 tools from the differential harness's generator (toolsets.py:
``$ref`` chains, unions, enums, constraints, deep nesting). See versus.py for
how each is timed. Not part of `make test`.
"""

from __future__ import annotations

import argparse
import json
import sys

from versus import REPO, RUNS, versus

# isort: split
from support import toolsets  # toolform/tests, which importing versus put on the path


def format_ids() -> list[str]:
    """Every format id of the registry (the evidence's formats.json, keyed by id)."""
    formats = json.loads((REPO / "toolform" / "src" / "toolform" / "evidence_data" / "formats.json").read_text())
    return list(formats["data"])


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tools", type=int, default=200)
    parser.add_argument("--runs", type=int, default=RUNS)
    arguments = parser.parse_args()
    ids = format_ids()
    body = {
        "tools": {"source": "openai", "payload": toolsets.openai_list(toolsets.tool_set(7, arguments.tools))},
        "formats": ids,
        "options": {},
    }
    versus(
        "tf.render",
        f"render/compare of {arguments.tools} tools over {len(ids)} formats",
        "/api/v1/render/compare",
        body,
        arguments.runs,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
