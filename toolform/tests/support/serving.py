"""Real servers for the tests: `toolform serve` started on 127.0.0.1 on a free port, and stopped.

Our server runs from the venv running the tests; the reference runs from its
own venv (`make toolform-ref`). Requests go through http.client, so a test
controls every header (Host, Content-Length) and sees every byte answered.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support.paths import REPO

OUR_TOOLFORM = Path(sys.executable).parent / "toolform"
REFERENCE_TOOLFORM = Path(os.environ.get("TOOLFORM_REF_BIN", REPO / ".venv-toolform-ref" / "bin" / "toolform"))
STARTUP_SECONDS = 60.0


def free_port() -> int:
    """A port nothing listens on now, on loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Reply:
    """One HTTP answer: status, headers (lowercase names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Server:
    """A `toolform serve` process on 127.0.0.1, stopped by ``stop`` (or the context manager)."""

    def __init__(self, executable: Path, arguments: list[str] | None = None, env: Mapping[str, str] | None = None):
        if not executable.exists():
            hint = "run `make toolform-ref`" if executable == REFERENCE_TOOLFORM else "run `make toolform-env`"
            raise RuntimeError(f"{executable} does not exist; {hint}")
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="toolform-serve-", suffix=".log", delete=False)
        environment = {k: v for k, v in os.environ.items() if not k.startswith("TOOLFORM_")}
        # Each server gets an empty local evidence store of its own unless a test gives one.
        self._store: str | None = None
        if "TOOLFORM_EVIDENCE_DIR" not in (env or {}):
            self._store = tempfile.mkdtemp(prefix="toolform-store-")
            environment["TOOLFORM_EVIDENCE_DIR"] = self._store
        environment.update(env or {})
        command = [str(executable), "serve", "--host", "127.0.0.1", "--port", str(self.port), *(arguments or [])]
        self.process = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=environment
        )
        self._wait_until_up()

    def _wait_until_up(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.output()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not listen within {STARTUP_SECONDS} s:\n{self.output()}")

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)
        if self._store is not None:
            shutil.rmtree(self._store, ignore_errors=True)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        raw: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 60.0,
    ) -> Reply:
        """Send one request; ``body`` is sent as JSON, ``raw`` as it is."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            sent_headers = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
            data = raw
            if body is not None:
                data = json.dumps(body).encode()
                sent_headers.setdefault("Content-Type", "application/json")
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent_headers.items():
                connection.putheader(name, value)
            if data is not None and not any(n.lower() == "content-length" for n in sent_headers):
                connection.putheader("Content-Length", str(len(data)))
            connection.endheaders(data)
            answer = connection.getresponse()
            return Reply(answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read())
        finally:
            connection.close()

    def get(self, path: str, **options: Any) -> Reply:
        return self.request("GET", path, **options)

    def post(self, path: str, body: object = None, **options: Any) -> Reply:
        return self.request("POST", path, body, **options)


def raw_exchange(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Write ``data`` to the server as it is and read until it closes or goes quiet."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(data)
        received = b""
        try:
            while chunk := connection.recv(65536):
                received += chunk
                if b"\r\n\r\n" in received and _complete(received):
                    break
        except TimeoutError:
            pass
        return received


def _complete(received: bytes) -> bool:
    head, _, body = received.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value.strip())
    return False
