"""The reference's SDK in a subprocess of its own venv (toolform/reference/driver.py), asked a JSON line at a time."""

from __future__ import annotations

import json
import subprocess
from typing import Any

from support.paths import TOOLFORM
from support.serving import REFERENCE_TOOLFORM

REFERENCE_PYTHON = REFERENCE_TOOLFORM.parent / "python"
# Outside tests/: it imports the reference's package, which the type check of ours must not read.
DRIVER = TOOLFORM / "reference" / "driver.py"


class ReferenceRefused(Exception):
    """The reference refused: its exception's class name and message."""


class ReferenceSdk:
    """One long-lived reference process; ``ask`` sends a request and returns its answer (or raises)."""

    def __init__(self) -> None:
        if not REFERENCE_PYTHON.exists():
            raise RuntimeError(f"{REFERENCE_PYTHON} does not exist; run `make toolform-ref`")
        self.process = subprocess.Popen(
            [str(REFERENCE_PYTHON), str(DRIVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"},
        )

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer as ``{"ok": value}`` or ``{"error": class name, "detail": message}``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the reference driver exited with {self.process.wait()}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def stop(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> ReferenceSdk:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
