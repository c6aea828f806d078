"""The local model endpoint the tests measure: toolform/model-server/server.mjs over the fetched GGUF.

Started as `make model-serve` starts it (one inference thread, greedy
sampling), on 127.0.0.1 and a port the system picks, and stopped by the test
session. The GGUF and the server's packages come from `make model-fetch` and
`make model-server-env` (prerequisites of `make toolform-test`).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType

from support.paths import REPO, TOOLFORM

SERVER = TOOLFORM / "model-server" / "server.mjs"
MODEL_DIR = Path(os.environ.get("MODEL_DIR", REPO / ".models"))
GGUF = MODEL_DIR / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
#: The name /v1/models answers with, and the model a measurement is stored under.
MODEL_NAME = "qwen2.5-coder-0.5b-instruct-q4_k_m"
#: Loading the model took about 30 s on a 2-core machine at a load of 17; alone, a few seconds.
STARTUP_SECONDS = 240.0


class LocalModel:
    """The model server process; ``base_url`` is its OpenAI-compatible root (``http://127.0.0.1:PORT/v1``)."""

    def __init__(self) -> None:
        if not GGUF.is_file():
            raise RuntimeError(f"{GGUF} does not exist; run `make model-fetch`")
        if not (SERVER.parent / "node_modules" / "node-llama-cpp").is_dir():
            raise RuntimeError(f"{SERVER.parent}/node_modules is not installed; run `make model-server-env`")
        self.log = tempfile.NamedTemporaryFile(prefix="model-server-", suffix=".log", delete=False)
        self.process = subprocess.Popen(
            ["node", str(SERVER), "--model", str(GGUF), "--host", "127.0.0.1", "--port", "0", "--threads", "1"],
            stdout=subprocess.PIPE, stderr=self.log, text=True,
        )
        self.base_url = self._wait_for_listening()

    def _wait_for_listening(self) -> str:
        stdout = self.process.stdout
        assert stdout is not None
        found: list[str] = []
        # The first line, read on a thread so that a server that hangs while loading cannot hang the tests.
        reader = threading.Thread(target=lambda: found.append(stdout.readline()), daemon=True)
        reader.start()
        reader.join(STARTUP_SECONDS)
        line = found[0].strip() if found else ""
        prefix = "listening on "
        if not line.startswith(prefix):
            self.stop()
            log = Path(self.log.name).read_text(encoding="utf-8", errors="replace")
            raise RuntimeError(f"the model server did not start within {STARTUP_SECONDS:.0f} s; its log:\n{log}")
        return line[len(prefix):]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def __enter__(self) -> LocalModel:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()


def wait_until(condition: object, seconds: float) -> None:
    """Poll ``condition`` until it holds; AssertionError after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"not done within {seconds:.0f} s")
