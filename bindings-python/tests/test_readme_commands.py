"""The runnable command blocks of the README and the book (docs/), run exactly
as written: every fenced block right after a ``<!-- runnable ... -->`` line, each line in one bash
(``set -e``), in a fresh Tool repository holding the weather listing as
``weather.tools.json`` and ``flow.tools.json``. The binaries ``make test``
built (flow-gen, flow-host, flow-test-tool) come first on PATH, then this
venv's ``python3``; ``$EDITOR`` is a
stand-in that writes the example implementation where the block says to edit,
so the commands after it run real handlers. About a second a block."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLE, REPO, WEATHER_LISTING, binary

BLOCK = re.compile(r"^<!-- runnable\b[^\n]*-->\n```(?:sh|bash)\n(.*?)^```$", re.MULTILINE | re.DOTALL)

# The stand-in editor: "fills in" a generated implementation scaffold with the
# example's implementation of the same file name.
EDITOR = f"""#!/bin/sh
set -e
cp "{EXAMPLE}/weather_tools/$(basename "$1")" "$1"
"""


def runnable_blocks() -> list[str]:
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    blocks = [block for page in pages for block in BLOCK.findall(page.read_text(encoding="utf-8"))]
    assert blocks, "neither the README nor docs/ marks a runnable block"
    return blocks


def test_every_runnable_readme_block_runs_as_written(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    editor = bin_dir / "editor"
    editor.write_text(EDITOR, encoding="utf-8")
    editor.chmod(0o755)
    path = os.pathsep.join([str(binary("flow-gen").parent), str(binary("flow-host").parent),
                            str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    for i, block in enumerate(runnable_blocks()):
        repo = tmp_path / f"repo-{i}"
        repo.mkdir()
        shutil.copy(WEATHER_LISTING, repo / "weather.tools.json")
        shutil.copy(WEATHER_LISTING, repo / "flow.tools.json")
        run = subprocess.run(["bash", "-e", "-c", block], cwd=repo, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PATH": path, "EDITOR": str(editor)}, check=False)
        assert run.returncode == 0, f"block {i} failed ({run.returncode}):\n{block}\n{run.stdout}\n{run.stderr}"
        # A block that calls a Tool shows an outcome that a handler gave.
        if "flow-host call" in block:
            assert re.search(r'\{"(Ok|Failed)":', run.stdout), run.stdout + run.stderr
