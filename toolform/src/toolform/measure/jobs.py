"""Measurement jobs: queued, run one at a time in a worker thread, followed, cancelled.

States: ``queued`` -> ``running`` -> ``done``, ``failed`` or ``cancelled``. A
queued job that is cancelled never starts; a running one is stopped where it
is (its requests in flight are dropped) and is ``cancelled`` at once, its
``max_jobs`` slot free. At most ``max_jobs`` jobs may be queued or running at
once; of the finished ones the newest ``max_finished`` are kept in memory, and
asking for an older one says it was dropped. With a job store
(``job_store.JobStore``), every job and each of its records is also written
to SQLite as it happens; a job the server stops under (a restart, SIGTERM) ends
``interrupted``, its records kept.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from toolform.errors import EndpointError, JobNotFound, JobStoreError, ToolFormError, TooManyJobs
from toolform.evidence import Evidence
from toolform.measure.evidence import record_measurement
from toolform.measure.job_store import INTERRUPTED, JobStore, interrupted_detail
from toolform.measure.report import MeasureReport, Record
from toolform.measure.run import Cancelled, Grader, MeasureSpec, Progress, measure, parse_grader

log = logging.getLogger("toolform.measure")
ACTIVE = ("queued", "running")
#: Finished jobs kept in memory, results and records with them; the oldest beyond it are dropped.
MAX_FINISHED_JOBS = 64
#: Ids of dropped jobs remembered, to answer for them that they were dropped rather than never existed.
_DROPPED_REMEMBERED = 10_000


@dataclass
class Job:
    """One measurement job; ``to_dict`` is what GET /api/v1/ab-test/{job_id} answers."""

    id: str
    spec: MeasureSpec
    progress: Progress
    status: str = "queued"
    result: MeasureReport | None = None
    error: str | None = None
    created_at: str = field(default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    evidence_file: str | None = None
    #: Each request's record as it is graded, in that order (the report has them too once done).
    records: list[Record] = field(default_factory=list)
    #: Stops the running measurement from any thread (set while it runs).
    _stop: Callable[[], None] | None = field(default=None, repr=False)

    def to_dict(self, with_records: bool = False) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "done": self.progress.done,
            "total": self.progress.total,
            "result": self.result.to_dict(with_records) if self.result is not None else None,
            "error": self.error,
            "created_at": self.created_at,
        }


class JobManager:
    """The server's jobs; writes each finished one to the local evidence store at ``store_dir`` (when given)."""

    def __init__(
        self,
        max_jobs: int = 4,
        store_dir: Path | None = None,
        evidence: Evidence | None = None,
        grader: Grader = parse_grader,
        job_store: JobStore | JobStoreError | None = None,
        max_finished: int = MAX_FINISHED_JOBS,
    ) -> None:
        """``job_store``: where jobs are kept across restarts; a JobStoreError (the store did not open) makes
        every new job answer that error."""
        self.max_jobs = max_jobs
        self.max_finished = max_finished
        self._dropped: OrderedDict[str, None] = OrderedDict()
        self.store_dir = store_dir
        self.evidence = evidence
        self.grader = grader
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._queue: queue.Queue[Job] = queue.Queue()
        self._worker: threading.Thread | None = None
        self._closed = False
        self.job_store = job_store if isinstance(job_store, JobStore) else None
        self._store_error = job_store if isinstance(job_store, JobStoreError) else None
        if self.job_store is not None:
            for job_id in self.job_store.interrupt_unfinished():
                log.warning("measurement %s was unfinished when the server stopped; marked interrupted", job_id)

    def submit(self, spec: MeasureSpec) -> Job:
        """Queue ``spec``; raises TooManyJobs when ``max_jobs`` jobs are queued or running."""
        with self._lock:
            active = sum(1 for job in self._jobs.values() if job.status in ACTIVE)
            if active >= self.max_jobs:
                raise TooManyJobs(
                    f"{active} measurements are queued or running, as many as this server allows (max_jobs "
                    f"{self.max_jobs}); wait for one to finish or cancel one"
                )
            if self._store_error is not None:
                raise JobStoreError(self._store_error.detail)
            job = Job(uuid.uuid4().hex, spec, Progress(spec.total))
            job.progress.on_record = lambda record: self._keep(job, record)
            if self.job_store is not None:
                self.job_store.create(job.id, job.status, job.created_at, spec.total, spec.model,
                                      tuple(spec.formats), spec.rule, spec.task_set.source)
            self._jobs[job.id] = job
            if self._worker is None or not self._worker.is_alive():
                self._worker = threading.Thread(target=self._work, name="toolform-measure", daemon=True)
                self._worker.start()
        self._queue.put(job)
        return job

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
            dropped = job is None and job_id in self._dropped
        if dropped:
            raise JobNotFound(
                f"job '{job_id[:64]}' finished and was dropped: the server keeps the newest {self.max_finished} "
                "finished jobs in memory (a finished measurement is in the local evidence store)"
            )
        if job is None:
            raise JobNotFound(f"no job '{job_id[:64]}' is running or queued in this server, nor kept in its job store")
        return job

    def view(self, job_id: str, with_records: bool = False) -> dict[str, Any]:
        """GET /api/v1/ab-test/{job_id}'s answer: the job in memory, else as the job store kept it."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is not None:
            return job.to_dict(with_records)
        stored = self.job_store.get(job_id) if self.job_store is not None else None
        if stored is None:
            self.get(job_id)  # raises JobNotFound
        assert stored is not None and self.job_store is not None
        return stored.to_dict(with_records)

    def records(self, job_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The job's records from number ``after`` on, as they were graded (a running job's so far)."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None:
                return [record.to_dict() for record in job.records[after:]]
        if self.job_store is not None and self.job_store.get(job_id) is not None:
            return self.job_store.records(job_id, after)
        self.get(job_id)  # raises JobNotFound
        return []

    def history(self, limit: int = 100) -> list[dict[str, Any]]:
        """The latest jobs, newest first: the job store's, else those in memory."""
        if self.job_store is not None:
            return [job.summary() for job in self.job_store.jobs(limit)]
        with self._lock:
            jobs = sorted(self._jobs.values(), key=lambda job: job.created_at, reverse=True)[:limit]
        return [
            {"id": job.id, "status": job.status, "done": job.progress.done, "total": job.progress.total,
             "created_at": job.created_at, "updated_at": job.created_at, "model": job.spec.model,
             "formats": list(job.spec.formats), "rule": job.spec.rule, "source": job.spec.task_set.source,
             "verdict": job.result.verdict.verdict if job.result else None,
             "winner": job.result.verdict.winner if job.result else None, "error": job.error,
             "evidence_file": job.evidence_file}
            for job in jobs
        ]

    def close(self) -> None:
        """The server is stopping: every queued or running job stops and is kept as interrupted."""
        with self._lock:
            self._closed = True
            active = [job for job in self._jobs.values() if job.status in ACTIVE]
            for job in active:
                job.progress.cancelled = True
                job.status, job.error = INTERRUPTED, interrupted_detail()
        for job in active:
            self._save(job)

    def _keep(self, job: Job, record: Record) -> None:
        # Written before it counts as done: a record the store refuses fails the job (JobStoreError).
        job.records.append(record)
        if self.job_store is not None:
            self.job_store.add_record(job.id, len(job.records) - 1, record.to_dict())

    def _save(self, job: Job) -> None:
        if self.job_store is None:
            return
        result = job.result.to_dict(with_records=True) if job.result is not None else None
        try:
            self.job_store.update(job.id, job.status, job.progress.done, result, job.error, job.evidence_file)
        except JobStoreError as error:
            log.error("measurement %s: %s", job.id, error.detail)
            job.error = f"{job.error}; {error.code}: {error.detail}" if job.error else f"{error.code}: {error.detail}"

    def cancel(self, job_id: str) -> Job:
        """Cancel a queued or running job at once, freeing its slot; a finished job is left as it is."""
        job = self.get(job_id)
        with self._lock:
            job.progress.cancelled = True
            stopped = job.status in ACTIVE
            if stopped:
                job.status = "cancelled"
                if job._stop is not None:
                    job._stop()
            self._drop_old()
        if stopped:
            self._save(job)
        return job

    def _finish(self, job: Job, status: str) -> None:
        """``job`` ends as ``status`` (unless it was cancelled meanwhile), and old finished jobs are dropped."""
        with self._lock:
            job._stop = None
            if job.status != "cancelled":
                job.status = status
            self._drop_old()

    def _drop_old(self) -> None:
        # Called with the lock held. Jobs are in submission order; the oldest finished go first.
        finished = [job_id for job_id, job in self._jobs.items() if job.status not in ACTIVE]
        for job_id in finished[: max(0, len(finished) - self.max_finished)]:
            del self._jobs[job_id]
            self._dropped[job_id] = None
        while len(self._dropped) > _DROPPED_REMEMBERED:
            self._dropped.popitem(last=False)

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            with self._lock:
                if job.status != "queued":
                    continue
                job.status = "running"
            self._save(job)
            self._run(job)
            with self._lock:
                if self._closed:  # close() has kept it as interrupted
                    job.status, job.error = INTERRUPTED, interrupted_detail()
                    continue
            self._save(job)

    def _run(self, job: Job) -> None:
        try:
            report = asyncio.run(self._measured(job))
        except (Cancelled, asyncio.CancelledError):
            self._finish(job, "cancelled")
            return
        except EndpointError as error:
            job.error = f"endpoint_error: {error.detail}"
            self._finish(job, "failed")
            return
        except ToolFormError as error:
            job.error = f"{error.code}: {error.detail}"
            self._finish(job, "failed")
            return
        except Exception as error:  # a bug: the job fails and the server log has the traceback
            log.exception("measurement %s failed", job.id)
            job.error = f"internal_error: {type(error).__name__}; the server log has it"
            self._finish(job, "failed")
            return
        if job.progress.cancelled:
            self._finish(job, "cancelled")
            return
        if report.errors == report.total_requests:
            first = next(r.error for r in report.records if r.error)
            job.error, job.result = f"every request failed; the first: {first}", report
            self._finish(job, "failed")
            return
        if self.store_dir is not None:
            try:
                stored = record_measurement(self.store_dir, report, job.id)
                job.evidence_file = stored.file if stored is not None else None
            except (OSError, ToolFormError) as error:
                log.error("measurement %s: not written to the evidence store %s: %s", job.id, self.store_dir, error)
        job.result = report
        self._finish(job, "done")

    async def _measured(self, job: Job) -> MeasureReport:
        """The measurement, run as a task that ``cancel`` stops from the server's thread."""
        task = asyncio.ensure_future(measure(job.spec, job.progress, self.evidence, self.grader))
        loop = asyncio.get_running_loop()

        def stop() -> None:
            try:
                loop.call_soon_threadsafe(task.cancel)
            except RuntimeError:  # the loop closed as the measurement ended: nothing left to stop
                pass

        with self._lock:
            if job.status == "cancelled":
                task.cancel()
            else:
                job._stop = stop
        return await task
