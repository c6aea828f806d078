"""Worker processes for the work one request may make long: parsing a large reply.

A worker thread does not keep the event loop answering when the work holds the
interpreter's lock for long stretches (a regular expression or a C parser over a
million characters releases it only when it returns); a worker process does. The
pool is small and bounded (``WORKERS``); a request waits for a free worker.
Workers are started from a fresh interpreter (spawn), on first use, with the
server's schema node limit.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from threading import Lock
from typing import Any

from toolform.errors import ToolFormError
from toolform.limits import DEFAULT_MAX_SCHEMA_NODES, set_schema_node_limit

#: Worker processes at most: the machine's cores are shared with the event loop and the thread pool.
WORKERS = 2

_pool: ProcessPoolExecutor | None = None
_schema_node_limit = DEFAULT_MAX_SCHEMA_NODES
_lock = Lock()


def configure(schema_node_limit: int) -> None:
    """The schema node limit every worker is started with (the server's own)."""
    global _schema_node_limit
    _schema_node_limit = schema_node_limit


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(
                WORKERS,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=set_schema_node_limit,
                initargs=(_schema_node_limit,),
            )
        return _pool


def _reset(broken: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is broken:
            _pool = None
    broken.shutdown(wait=False, cancel_futures=True)


class WorkerError(Exception):
    """A ToolFormError raised in a worker, carried back as its shape and status."""

    def __init__(self, shape: dict[str, Any]) -> None:
        super().__init__(str(shape.get("detail")))
        self.shape = shape
        status = shape.get("status")
        self.status = status if isinstance(status, int) else 500


def _call(work: Callable[..., Any], arguments: tuple[Any, ...]) -> tuple[bool, Any]:
    # In the worker: an SDK error comes back as its shape, which pickles whatever its class keeps.
    try:
        return True, work(*arguments)
    except ToolFormError as error:
        return False, error.to_dict()


async def run(work: Callable[..., Any], *arguments: Any) -> Any:
    """``work(*arguments)`` in a worker process; its ToolFormError is raised here with the same shape."""
    pool = _executor()
    try:
        ok, value = await asyncio.get_running_loop().run_in_executor(pool, _call, work, arguments)
    except BrokenProcessPool:
        # A worker died (out of memory, killed): the next request starts a new pool; this one is a 500.
        _reset(pool)
        raise
    if not ok:
        raise WorkerError(value)
    return value
