"""The ``flow-host`` console script runs the flow-host binary with its arguments
and exit status (here, the checkout's build that the editable install finds)."""

import subprocess
import sys

from conftest import binary

LAUNCH = "import flow_toolkit_host; flow_toolkit_host.main()"


def launch(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", LAUNCH, *args], capture_output=True, text=True, check=False)


def test_flow_host_runs_with_its_arguments() -> None:
    done = launch("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("flow-host "), done.stdout


def test_flow_host_exit_status_and_output_are_the_binary_s() -> None:
    direct = subprocess.run([binary("flow-host"), "no-such-command"], capture_output=True, text=True, check=False)
    done = launch("no-such-command")
    assert direct.returncode != 0
    assert (done.returncode, done.stderr) == (direct.returncode, direct.stderr)
