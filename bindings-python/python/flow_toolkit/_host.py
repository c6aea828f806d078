"""The ``flow-host`` console script: runs the flow-host binary shipped in the wheel.

flow-host is a process that starts, watches and stops Tool processes, so it
ships as its own binary (``flow_toolkit/_bin/flow-host``) rather than inside
the native module; this script replaces itself with it (``exec``), keeping
its arguments, signals and exit status.
"""

import os
import sys
from pathlib import Path

BINARY = Path(__file__).parent / "_bin" / "flow-host"


def main() -> None:
    """Replaces this process with flow-host, or explains why it cannot."""
    if not os.access(BINARY, os.X_OK):
        sys.stderr.write(
            f"flow-host: not in this installation ({BINARY} is missing).\n"
            "It ships in the prebuilt flow-toolkit wheels; an install built from the\n"
            "source distribution has flow-gen only. Build it from a flow-toolkit checkout\n"
            "with `cargo build --release -p flow-toolkit-host` (target/release/flow-host),\n"
            "or, once the crate is published, `cargo install flow-toolkit-host`.\n"
        )
        sys.exit(127)
    os.execv(BINARY, ["flow-host", *sys.argv[1:]])
