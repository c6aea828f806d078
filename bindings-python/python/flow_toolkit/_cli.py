"""The ``flow-gen`` console script: the generator compiled into the native module."""

import sys

from flow_toolkit import _native


def main() -> None:
    """Runs ``flow-gen`` with this process's arguments and exits with its status."""
    sys.exit(_native.flow_gen_main(["flow-gen", *sys.argv[1:]]))
