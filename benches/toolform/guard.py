"""The guard over 1,000 tools: ours against the reference, in one run, over the same transport.

    .venv/bin/python benches/toolform/guard.py [--tools 1000] [--runs 7]

Both servers get the same POST /api/v1/guard body (strict, strip) in turns;
see versus.py for how each is timed. The tools are OpenAI tools whose prose
comes from the guard's differential pool (plants and documentation mixed), so
the catalogue repeats its sentences as real ones do, more than most: say so
beside the figure. Not part of `make test`.
"""

from __future__ import annotations

import argparse
import sys

from versus import RUNS, versus

# isort: split
from support import guard_generated  # toolform/tests, which importing versus put on the path


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=RUNS)
    arguments = parser.parse_args()
    body = {
        "tools": {"source": "openai", "payload": guard_generated.catalogue(arguments.tools, guard_generated.pool())},
        "strictness": "strict",
        "action": "strip",
    }
    versus("tf.guard", f"guard over {arguments.tools} tools, strict, strip", "/api/v1/guard", body, arguments.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
