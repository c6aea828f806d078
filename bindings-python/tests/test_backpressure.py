"""A host that stops reading: the Python runtime holds a bounded number of calls
(the core's in-flight bound, 1,024; a call past it is answered NotRun at once),
and once its replies fill the pipe its writes wait and it stops reading stdin,
so the pipe pushes back instead of replies piling up in memory; once the host
reads again, every call is answered exactly once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import EXAMPLE

TOOL = "github.com/acme/weather@1.2.0/weather.flow.list_stations"
CALLS = 20_000


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_host_that_stops_reading_is_pushed_back_on_and_loses_nothing(venv_path: str) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "weather_tools"],
        cwd=EXAMPLE,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PATH": venv_path},
    )
    assert process.stdin is not None and process.stdout is not None
    written = 0

    def write() -> None:
        nonlocal written
        assert process.stdin is not None
        for i in range(CALLS):
            params = {
                "run": "r",
                "call": f"c{i}",
                "tool": TOOL,
                "args": {"region": {"name": "Alps", "children": []}, "cursor": "None"},
            }
            line = json.dumps({"jsonrpc": "2.0", "method": "call", "params": params}) + "\n"
            process.stdin.write(line.encode())
            process.stdin.flush()
            written += 1
        process.stdin.close()

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        # Wait until the writer is blocked: no progress over a second.
        last = -1
        while written != last and writer.is_alive():
            last = written
            time.sleep(1)
        assert writer.is_alive(), "every call was taken while nobody read a reply"
        assert written < CALLS // 2, written
        assert rss_kib(process.pid) < 256 * 1024
        replies: dict[str, int] = {}
        for line in process.stdout:
            call = json.loads(line)["params"]["call"]
            replies[call] = replies.get(call, 0) + 1
        writer.join(timeout=60)
        assert process.wait(timeout=60) == 0
        assert len(replies) == CALLS and set(replies.values()) == {1}
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
