"""How the runtime runs plain handlers: one thread while they compute, more
while they block (a handler that blocks holds up the calls beside it only
until the pool grows), never more than ``max_workers`` at once, and every
call answered once. Served through scheduling_tool.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def call_line(call: str, tool: str, n: int) -> str:
    return (f'{{"jsonrpc":"2.0","method":"call","params":{{"run":"r","call":"{call}",'
            f'"tool":"t/sched.flow.{tool}","args":{{"n":{n}}}}}}}\n')


class Tool:
    def __init__(self, max_workers: int, parties: int = 1) -> None:
        self.process = subprocess.Popen([sys.executable, str(HERE / "scheduling_tool.py"), str(max_workers),
                                         str(parties)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def reply(self) -> tuple[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, self.stop()
        params = json.loads(line)["params"]
        return params["call"], params["outcome"]

    def stop(self) -> str:
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        code = self.process.wait(60)
        err = self.process.stderr.read()
        assert code == 0, err
        return err


def test_a_blocking_handler_does_not_hold_up_the_calls_beside_it() -> None:
    tool = Tool(max_workers=4)
    tool.send(call_line("blocked", "blocks", 60))
    fast = 500
    tool.send("".join(call_line(f"c{i}", "thread", i) for i in range(fast)))
    # Every fast call is answered while the first still blocks its thread.
    answered = dict(tool.reply() for _ in range(fast))
    assert set(answered) == {f"c{i}" for i in range(fast)}
    assert all("Ok" in outcome for outcome in answered.values()), answered
    tool.send('{"jsonrpc":"2.0","method":"cancel","params":{"run":"r","call":"blocked"}}\n')
    assert tool.reply() == ("blocked", {"Ok": True})
    tool.stop()


def test_the_pool_grows_to_max_workers_while_handlers_block() -> None:
    # Four calls meet at a barrier of four: all four ran at once.
    tool = Tool(max_workers=4, parties=4)
    tool.send("".join(call_line(f"m{i}", "meet", 30) for i in range(4)))
    assert sorted(tool.reply() for _ in range(4)) == [(f"m{i}", {"Ok": True}) for i in range(4)]
    tool.stop()


def test_no_more_than_max_workers_run_at_once() -> None:
    # Three calls at a barrier of three with two threads: the two wait for a
    # third that never starts, give up, and the third finds the barrier broken.
    tool = Tool(max_workers=2, parties=3)
    tool.send("".join(call_line(f"m{i}", "meet", 1) for i in range(3)))
    assert sorted(tool.reply() for _ in range(3)) == [(f"m{i}", {"Ok": False}) for i in range(3)]
    tool.stop()


def test_handlers_that_compute_share_few_threads() -> None:
    # A thousand calls at once, none blocking: the pool does not grow beyond
    # a thread or two (more only when the machine deschedules one for longer
    # than the pool's growth delay), and every call is answered once.
    tool = Tool(max_workers=16)
    calls = 1000
    tool.send("".join(call_line(f"c{i}", "thread", i) for i in range(calls)))
    answered = dict(tool.reply() for _ in range(calls))
    assert set(answered) == {f"c{i}" for i in range(calls)}
    threads = {outcome["Ok"] for outcome in answered.values()}
    assert len(threads) <= 4, threads
    tool.stop()
