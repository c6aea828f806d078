"""The ``flow-host`` console script: runs the flow-host binary shipped in the wheel.

flow-host is a process that starts, watches and stops Tool processes, so it
ships as its own binary (``flow_toolkit/_bin/flow-host``) rather than inside
the native module; this script replaces itself with it (``exec``), keeping
its arguments, signals and exit status. A module of its own beside
``flow_toolkit``, so that starting flow-host does not import the toolkit
(about 80 ms): it only finds where the package is.
"""

import importlib.util
import os
import sys
from pathlib import Path


def main() -> None:
    """Replaces this process with flow-host, or explains why it cannot."""
    spec = importlib.util.find_spec("flow_toolkit")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    name = "flow-host.exe" if os.name == "nt" else "flow-host"
    binaries = [Path(location) / "_bin" / name for location in locations]
    # An editable install from a checkout (maturin develop): the checkout's build.
    checkouts = [Path(location).parents[2] / "target" for location in locations if len(Path(location).parents) > 2]
    binaries += [target / profile / name for target in checkouts for profile in ("debug", "release")]
    for binary in binaries:
        if os.access(binary, os.X_OK):
            if os.name == "nt":
                # Windows has no exec that keeps the process: run it and pass on its status.
                import subprocess

                sys.exit(subprocess.call([str(binary), *sys.argv[1:]]))
            os.execv(binary, ["flow-host", *sys.argv[1:]])
    sys.stderr.write(
        "flow-host: not in this installation (no flow_toolkit/_bin/flow-host).\n"
        "It ships in the prebuilt flow-toolkit wheels; an install built from the\n"
        "source distribution has flow-gen only. Build it from a flow-toolkit checkout\n"
        "with `cargo build --release -p flow-toolkit-host` (target/release/flow-host),\n"
        "or, once the crate is published, `cargo install flow-toolkit-host`.\n"
    )
    sys.exit(127)
