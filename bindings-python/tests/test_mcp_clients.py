"""The example weather Tools (examples/python) served to MCP clients with
``python -m weather_tools --mcp``, driven by the official clients through
tests/mcp/clients/drive.py and its plan tests/mcp/clients/plans/python-weather.json:
the Python SDK's Client in both eras and the TypeScript SDK's Client with
StdioClientTransport. drive.py checks every result, the era, the cancel and the
lines both ways (see its doc); the clients come from `make mcp-servers`. Any
argument but ``--mcp`` is a usage error, exit status 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import EXAMPLE, REPO

MCP_PYTHON = REPO / ".venv-mcp" / "bin" / "python"
TS_SDK = REPO / "tests" / "mcp" / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json"
DRIVE = REPO / "tests" / "mcp" / "clients" / "drive.py"
PLAN = REPO / "tests" / "mcp" / "clients" / "plans" / "python-weather.json"


@pytest.mark.parametrize("client", ["python-auto", "python-legacy", "typescript"])
def test_an_official_client_lists_and_calls_every_tool(client: str) -> None:
    for path, what in [(MCP_PYTHON, "the MCP Python SDK's venv"), (TS_SDK, "the MCP TypeScript SDK")]:
        if not path.exists():
            why = f"{path} is missing: {what} is installed by `make mcp-servers` (run it from the repository root)"
            pytest.fail(why, pytrace=False)
    command = [str(MCP_PYTHON), str(DRIVE), client, str(PLAN), "--", sys.executable, "-m", "weather_tools", "--mcp"]
    run = subprocess.run(command, cwd=EXAMPLE, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, f"{run.stdout}\n{run.stderr}"
    assert run.stdout.startswith(f"ok: {client} python-weather.json"), run.stdout


def test_an_argument_other_than_mcp_is_a_usage_error() -> None:
    run = subprocess.run([sys.executable, "-m", "weather_tools", "--mpc"], cwd=EXAMPLE, capture_output=True, text=True,
                         input="", timeout=120, check=False)
    assert run.returncode == 2
    assert run.stderr.startswith("not understood: --mpc\nusage: TOOL [--mcp]"), run.stderr
