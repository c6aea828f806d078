"""The pool that runs plain handlers: every job runs once, a blocked handler
does not hold up the others while a thread is left, no more than `size` run
at once, and shutdown waits for every queued job."""

from __future__ import annotations

import threading

import pytest

from flow_toolkit._pool import HandlerPool


def test_every_job_runs_once_and_shutdown_waits_for_them() -> None:
    done: list[int] = []
    lock = threading.Lock()

    def run(job: int) -> None:
        with lock:
            done.append(job)

    pool: HandlerPool[int] = HandlerPool(run, 4)
    for job in range(2000):
        pool.submit(job)
    pool.shutdown()
    assert sorted(done) == list(range(2000))


def test_a_blocked_handler_does_not_hold_up_the_next_job() -> None:
    release = threading.Event()
    second_ran = threading.Event()

    def run(job: str) -> None:
        if job == "blocks":
            # Waits until the second job has run on another thread: with one
            # thread for both this would never end (bounded by the timeout).
            assert release.wait(30)
        else:
            second_ran.set()
            release.set()

    pool: HandlerPool[str] = HandlerPool(run, 2)
    pool.submit("blocks")
    pool.submit("next")
    assert second_ran.wait(30)
    pool.shutdown()


def test_no_more_than_size_jobs_run_at_once() -> None:
    size = 3
    running = 0
    most = 0
    lock = threading.Lock()
    gate = threading.Barrier(size)

    def run(job: int) -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        if job < size:
            gate.wait(30)  # the first `size` jobs meet: all of them ran at once
        with lock:
            running -= 1

    pool: HandlerPool[int] = HandlerPool(run, size)
    for job in range(50):
        pool.submit(job)
    pool.shutdown()
    assert most == size


def test_a_size_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="max_workers must be greater than 0"):
        HandlerPool(lambda job: None, 0)
