"""Measurement jobs kept in SQLite, so that a restart loses neither a job nor one of its records.

The database is ``jobs.sqlite3`` in the local evidence store's folder (the store
reads only its ``.json`` files, so the two never mix). A job's row is written
when it is queued and again at every change of state; each request's record is
written the moment it is graded, in its own transaction. When the server starts
again, a job the last process left queued or running is marked ``interrupted``,
with every record it had written kept and served.

Text is stored as ASCII JSON (``\\u`` escapes), so a reply with a lone surrogate,
which a model endpoint's JSON can carry and UTF-8 cannot, is kept exactly.

Every failed write raises JobStoreError (503 job_store_error): a job that cannot
be written is refused, and a running job whose record cannot be written fails
with that error, rather than going on with a record lost.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from toolform.errors import JobStoreError

#: The database's file name, beside the local evidence store's measurement files.
JOB_STORE_FILE = "jobs.sqlite3"
#: The state of a job the server stopped under (a restart, SIGTERM) before it finished.
INTERRUPTED = "interrupted"
UNFINISHED = ("queued", "running")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    done INTEGER NOT NULL,
    total INTEGER NOT NULL,
    model TEXT NOT NULL,
    formats TEXT NOT NULL,
    rule TEXT NOT NULL,
    source TEXT NOT NULL,
    result TEXT,
    error TEXT,
    evidence_file TEXT
);
CREATE TABLE IF NOT EXISTS records (
    job_id TEXT NOT NULL REFERENCES jobs(id),
    seq INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (job_id, seq)
);
"""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class StoredJob:
    """A job as the store holds it; ``to_dict`` has the shape of GET /api/v1/ab-test/{job_id}."""

    id: str
    status: str
    created_at: str
    updated_at: str
    done: int
    total: int
    model: str
    formats: tuple[str, ...]
    rule: str
    source: str
    result: dict[str, Any] | None
    error: str | None
    evidence_file: str | None

    def to_dict(self, with_records: bool = False) -> dict[str, Any]:
        result = None
        if self.result is not None:
            result = {**self.result, "records": self.result.get("records", []) if with_records else []}
        return {
            "id": self.id, "status": self.status, "done": self.done, "total": self.total, "result": result,
            "error": self.error, "created_at": self.created_at,
        }

    def summary(self) -> dict[str, Any]:
        """The job in the list of GET /api/v1/ab-test: its state and what it measured, without the result."""
        verdict = self.result.get("verdict") if self.result else None
        winner = self.result.get("winner") if self.result else None
        return {
            "id": self.id, "status": self.status, "done": self.done, "total": self.total,
            "created_at": self.created_at, "updated_at": self.updated_at, "model": self.model,
            "formats": list(self.formats), "rule": self.rule, "source": self.source, "verdict": verdict,
            "winner": winner, "error": self.error, "evidence_file": self.evidence_file,
        }


class JobStore:
    """One SQLite database of jobs and their records, shared by the server's threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # One connection for every thread, serialised by the lock; autocommit off, so each write is
            # one transaction that commits whole or not at all.
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level="DEFERRED")
            # WAL with synchronous=NORMAL: a committed record survives the process being killed (the WAL is
            # in the OS's hands); only a power cut or an OS crash can lose the last few, and then the job
            # still reads back with exactly the records that are there. FULL's fsync per record cost 28
            # times as much (5.3 against 0.19 ms a record here), in the event loop that runs the requests.
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._db.commit()
        except (OSError, sqlite3.Error) as error:
            raise JobStoreError(self._failed("open", error)) from error

    @classmethod
    def beside(cls, store_dir: str | Path) -> JobStore:
        """The job store in the local evidence store's folder ``store_dir``."""
        return cls(Path(store_dir) / JOB_STORE_FILE)

    def _failed(self, action: str, error: BaseException) -> str:
        return (f"the job store {self.path} could not {action} ({error}); check that its folder is writable and "
                "its disk not full, or start the server with another --evidence-dir")

    @contextmanager
    def _writing(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                with self._db:  # commits on success, rolls back on an exception
                    yield self._db
            except sqlite3.Error as error:
                raise JobStoreError(self._failed(action, error)) from error

    def _reading(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return list(self._db.execute(sql, parameters).fetchall())
            except sqlite3.Error as error:
                raise JobStoreError(self._failed("be read", error)) from error

    def create(self, job_id: str, status: str, created_at: str, total: int, model: str, formats: tuple[str, ...],
               rule: str, source: str) -> None:
        """Write a new job's row; raises JobStoreError when it cannot be written."""
        with self._writing(f"write job {job_id}") as db:
            db.execute(
                "INSERT INTO jobs (id, status, created_at, updated_at, done, total, model, formats, rule, source) "
                "VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?)",
                (job_id, status, created_at, _now(), total, model, json.dumps(list(formats)), rule, source),
            )

    def update(self, job_id: str, status: str, done: int, result: Mapping[str, Any] | None = None,
               error: str | None = None, evidence_file: str | None = None) -> None:
        """Write a job's new state; a finished job's result is kept whole, its records in the report's order."""
        result_text = None if result is None else json.dumps(dict(result))
        with self._writing(f"write job {job_id}") as db:
            db.execute(
                "UPDATE jobs SET status = ?, done = MAX(done, ?), result = COALESCE(?, result), error = ?, "
                "evidence_file = COALESCE(?, evidence_file), updated_at = ? WHERE id = ?",
                (status, done, result_text, error, evidence_file, _now(), job_id),
            )

    def add_record(self, job_id: str, seq: int, record: Mapping[str, Any]) -> None:
        """Write one graded request of a job, and the job's count of finished requests with it."""
        with self._writing(f"write record {seq} of job {job_id}") as db:
            db.execute("INSERT INTO records (job_id, seq, record) VALUES (?, ?, ?)",
                       (job_id, seq, json.dumps(dict(record))))
            db.execute("UPDATE jobs SET done = MAX(done, ?), updated_at = ? WHERE id = ?", (seq + 1, _now(), job_id))

    def interrupt_unfinished(self) -> list[str]:
        """Mark every queued or running job interrupted (the process that ran it is gone); their ids."""
        with self._writing("mark unfinished jobs interrupted") as db:
            ids = [row[0] for row in db.execute("SELECT id FROM jobs WHERE status IN (?, ?)", UNFINISHED)]
            for job_id in ids:
                kept = db.execute("SELECT COUNT(*) FROM records WHERE job_id = ?", (job_id,)).fetchone()[0]
                db.execute(
                    "UPDATE jobs SET status = ?, done = ?, error = ?, updated_at = ? WHERE id = ?",
                    (INTERRUPTED, kept, interrupted_detail(kept), _now(), job_id),
                )
        return ids

    def get(self, job_id: str) -> StoredJob | None:
        rows = self._reading(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job_id,))
        return _job(rows[0]) if rows else None

    def jobs(self, limit: int = 100) -> list[StoredJob]:
        """The latest ``limit`` jobs, newest first."""
        rows = self._reading(f"SELECT {_COLUMNS} FROM jobs ORDER BY created_at DESC, rowid DESC LIMIT ?", (limit,))
        return [_job(row) for row in rows]

    def records(self, job_id: str, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The job's records from number ``after`` on, in the order they were graded."""
        rows = self._reading(
            "SELECT record FROM records WHERE job_id = ? AND seq >= ? ORDER BY seq LIMIT ?",
            (job_id, after, -1 if limit is None else limit),
        )
        return [json.loads(row[0]) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def interrupted_detail(kept: int | None = None) -> str:
    """The error of an interrupted job: what happened and what was kept (``kept`` records, when known)."""
    count = "" if kept is None else f"{kept} "
    return (f"interrupted: the server stopped before this measurement finished; its {count}graded requests are "
            "kept (GET its records); start it again to measure the rest")


_COLUMNS = "id, status, created_at, updated_at, done, total, model, formats, rule, source, result, error, evidence_file"


def _job(row: tuple[Any, ...]) -> StoredJob:
    (job_id, status, created_at, updated_at, done, total, model, formats, rule, source, result, error,
     evidence_file) = row
    return StoredJob(
        id=job_id, status=status, created_at=created_at, updated_at=updated_at, done=done, total=total, model=model,
        formats=tuple(json.loads(formats)), rule=rule, source=source,
        result=None if result is None else json.loads(result), error=error, evidence_file=evidence_file,
    )
