"""Worker processes for the work one request may make long: parsing a large reply, reading tools that expand far.

A worker thread does not keep the event loop answering when the work holds the
interpreter's lock for long stretches (a regular expression or a C parser over a
million characters releases it only when it returns); a worker process does. The
pool is small and bounded (``WORKERS``); a request waits for a free worker.
Workers are started from a fresh interpreter (spawn), on first use, with the
server's schema node limit.

Each piece of work has a time limit (``toolform serve --parse-timeout``): past it
the worker is killed and replaced, and the request is answered 413 naming the
bound. A worker that runs out of memory answers 413 the same way and is replaced;
one that dies answers 500. The event loop only waits for a worker's pipe to become
readable, so it never blocks on a worker.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from toolform.errors import PayloadTooLarge, ToolFormError
from toolform.limits import DEFAULT_MAX_SCHEMA_NODES, set_schema_node_limit

#: Worker processes at most: the machine's cores are shared with the event loop and the thread pool.
WORKERS = 2
#: How much lower a worker's scheduling priority is than the server's (nice): on a busy machine the event loop
#: gets the cores first, so /health and every small request are answered while workers grind.
WORKER_NICENESS = 10
#: Seconds one piece of work may take in a worker by default (``toolform serve --parse-timeout``).
DEFAULT_TIMEOUT_S = 30.0

_schema_node_limit = DEFAULT_MAX_SCHEMA_NODES
_timeout_s = DEFAULT_TIMEOUT_S

_READY = "ready"
_MEMORY = "memory"


def configure(schema_node_limit: int, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
    """The schema node limit every worker is started with (the server's own), and each work's time limit."""
    global _schema_node_limit, _timeout_s
    _schema_node_limit = schema_node_limit
    _timeout_s = timeout_s
    # What starting the first worker imports (the spawn machinery, its resource tracker), imported now: on the
    # event loop, at the first large request, the imports' file lookups held /health for tens of milliseconds
    # on a busy machine.
    import multiprocessing.popen_spawn_posix  # noqa: F401
    import multiprocessing.resource_tracker  # noqa: F401


def _serve(connection: Connection, schema_node_limit: int) -> None:
    # In the worker: one piece of work at a time, until the server closes the pipe.
    os.nice(WORKER_NICENESS)
    set_schema_node_limit(schema_node_limit)
    connection.send(_READY)
    while True:
        answer: tuple[str, Any]
        try:
            work, arguments = connection.recv()
        except EOFError:
            return
        except MemoryError:
            # The work is larger than this process can hold. The rest of it is still in the pipe, where the next
            # message could not be told from it: the worker says so and ends (the server replaces it).
            connection.send((_MEMORY, None))
            return
        try:
            answer = ("ok", work(*arguments))
        except ToolFormError as error:  # an SDK error comes back as its shape
            answer = ("error", error.to_dict())
        except MemoryError:  # doing the work; the worker is replaced
            answer = (_MEMORY, None)
        except Exception as error:  # a bug: its traceback goes to the server's log, through its redaction
            import traceback

            answer = ("bug", "".join(traceback.format_exception(error)))
        connection.send(answer)


class WorkerError(Exception):
    """A ToolFormError raised in a worker, carried back as its shape and status."""

    def __init__(self, shape: dict[str, Any]) -> None:
        super().__init__(str(shape.get("detail")))
        self.shape = shape
        status = shape.get("status")
        self.status = status if isinstance(status, int) else 500


class WorkerBug(Exception):
    """A bug in a worker (the traceback, as text), or a worker that ended without answering."""


class _Worker:
    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_serve, args=(child, _schema_node_limit), daemon=True, name="toolform-parse-worker"
        )
        self.process.start()
        child.close()
        self.ready = False

    def stop(self) -> None:
        """Kill the process and reap it once it has ended, without the event loop waiting for it."""
        self.process.kill()
        self.connection.close()
        self._reap()

    def _reap(self) -> None:
        self.process.join(timeout=0)
        if self.process.exitcode is None:
            asyncio.get_running_loop().call_later(0.2, self._reap)


async def _readable(connection: Connection, timeout: float | None) -> bool:
    """Whether ``connection`` has something to read (or was closed) within ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    fd = connection.fileno()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    try:
        await asyncio.wait_for(ready, timeout)
        return True
    except TimeoutError:
        return False
    finally:
        loop.remove_reader(fd)
        # uvloop leaves a watched descriptor non-blocking; the pipe's whole-message send and recv need it blocking.
        os.set_blocking(fd, True)


class _Pool:
    """The idle workers and the slots of one event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.slots = asyncio.Semaphore(WORKERS)
        self.idle: list[_Worker] = []

    async def run(self, work: Callable[..., Any], arguments: tuple[Any, ...]) -> Any:
        async with self.slots:
            worker = self.idle.pop() if self.idle else _Worker()
            keep = False
            try:
                if not worker.ready:
                    # Started from a fresh interpreter: its imports take a moment, never the loop's.
                    if not await _readable(worker.connection, None) or worker.connection.recv() != _READY:
                        raise WorkerBug("a parse worker did not start")
                    worker.ready = True
                # Written and read in a thread: a large request or answer fills the pipe, and the worker, at its
                # lower priority, may take a while to be scheduled and drain it; the event loop never waits on it.
                try:
                    await asyncio.to_thread(worker.connection.send, (work, arguments))
                except OSError:
                    pass  # the worker ended before reading it all: its answer, if it gave one, says why
                if not await _readable(worker.connection, _timeout_s):
                    raise PayloadTooLarge(
                        f"parsing this request took longer than {_timeout_s:g} s, the limit (parse_timeout, "
                        "`toolform serve --parse-timeout`), in a worker process, which was stopped: send a "
                        "shorter reply or fewer tools, or parse it with the SDK"
                    )
                kind, value = await asyncio.to_thread(worker.connection.recv)
            except (EOFError, OSError):
                worker.process.join(timeout=0.1)  # its exit status, for the log
                raise WorkerBug(
                    f"the worker parsing this request ended without answering (exit status {worker.process.exitcode}"
                    "; out of memory, or killed)"
                ) from None
            else:
                if kind == _MEMORY:
                    raise PayloadTooLarge(
                        "the request needed more memory than its worker could get; its worker was replaced: send "
                        "fewer or smaller tools, or a shorter reply"
                    )
                keep = True
                if kind == "error":
                    raise WorkerError(value)
                if kind == "bug":
                    raise WorkerBug(value)
                return value
            finally:
                # A worker that timed out, ran out of memory, died or was interrupted mid-way is replaced.
                if keep:
                    self.idle.append(worker)
                else:
                    worker.stop()


_pools: dict[int, _Pool] = {}


async def run(work: Callable[..., Any], *arguments: Any) -> Any:
    """``work(*arguments)`` in a worker process, within the time limit.

    Its ToolFormError is raised here as a WorkerError with the same shape; a time limit passed or memory run
    out is PayloadTooLarge naming the bound; a bug in the worker is WorkerBug with its traceback.
    """
    loop = asyncio.get_running_loop()
    pool = _pools.get(id(loop))
    if pool is None or pool.loop is not loop:
        pool = _pools[id(loop)] = _Pool()
    return await pool.run(work, arguments)
