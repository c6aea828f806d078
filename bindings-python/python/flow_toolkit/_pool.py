"""The threads that run plain (``def``) handlers.

A lean stand-in for ``ThreadPoolExecutor``: the runtime needs no Future per
call (a handler replies through its ``Call``), and ``submit`` there costs a
Future, two locks and a Python-level semaphore per call. Here a call is one
``SimpleQueue.put`` (C, no Python-level lock) and one ``get`` on a worker.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class HandlerPool(Generic[T]):
    """Runs ``run(job)`` for each submitted job on up to ``size`` threads,
    started as jobs need them (``ThreadPoolExecutor``'s default size by
    default) and kept until :meth:`shutdown`."""

    def __init__(self, run: Callable[[T], None], size: int | None = None, name: str = "flow-tool") -> None:
        if size is not None and size <= 0:
            raise ValueError("max_workers must be greater than 0")
        self._run = run
        self._size = size if size is not None else min(32, (os.cpu_count() or 1) + 4)
        self._name = name
        self._jobs: queue.SimpleQueue[T | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        # Threads waiting for a job, or about to: a job put while one waits
        # needs no new thread.
        self._idle = 0
        self._threads: list[threading.Thread] = []

    def submit(self, job: T) -> None:
        """Queues `job`; starts a thread when none is free and the pool is not full."""
        self._jobs.put(job)
        with self._lock:
            if self._idle > 0:
                self._idle -= 1  # that thread takes this job
                return
            if len(self._threads) >= self._size:
                return  # the next thread that finishes takes it
            thread = threading.Thread(target=self._work, name=f"{self._name}_{len(self._threads)}", daemon=True)
            self._threads.append(thread)
        thread.start()

    def _work(self) -> None:
        jobs, run, lock = self._jobs, self._run, self._lock
        while True:
            job = jobs.get()
            if job is None:
                return
            run(job)
            with lock:
                self._idle += 1

    def shutdown(self) -> None:
        """Waits for every queued job to run, then for every thread to end."""
        with self._lock:
            threads = list(self._threads)
        for _ in threads:
            self._jobs.put(None)
        for thread in threads:
            thread.join()
