"""Jobs kept in SQLite: a restart loses neither a job nor a record; a failed write is an error, not a loss."""

from __future__ import annotations

import csv
import io
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from toolform.errors import JobStoreError
from toolform.measure import MeasureSpec, generated_tasks
from toolform.measure.job_store import INTERRUPTED, JOB_STORE_FILE, JobStore
from toolform.measure.jobs import JobManager
from toolform.server.routes.measure import CSV_COLUMNS, csv_cell, records_csv

from support.scripted_endpoint import Answer, Prompt, ScriptedEndpoint
from support.serving import OUR_TOOLFORM, Server

WAIT_S = 120.0


def _wait(check: Any, what: str) -> Any:
    """Poll ``check`` until it answers something true; fail naming ``what`` after WAIT_S."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    def script(_: Prompt) -> Answer:
        return Answer("No tool applies here.", delay_s=0.02)

    with ScriptedEndpoint(script, models=("canned-model",)) as chat:
        yield chat


def _spec(endpoint: ScriptedEndpoint, n_requests: int, concurrency: int = 2) -> MeasureSpec:
    return MeasureSpec(
        model="canned-model", base_url=endpoint.base_url, task_set=generated_tasks(n_requests, 3, 1, 0),
        formats=("xml_schema", "json_minimal"), concurrency=concurrency, retry_delays=(),
    )


def test_a_finished_job_and_every_record_outlive_the_manager(endpoint: ScriptedEndpoint, tmp_path: Path) -> None:
    store = JobStore.beside(tmp_path)
    first = JobManager(store_dir=tmp_path, job_store=store)
    job = first.submit(_spec(endpoint, 3))
    _wait(lambda: getattr(store.get(job.id), "status", None) == "done", "the job to be kept as done")
    before = first.view(job.id, with_records=True)
    assert len(before["result"]["records"]) == 6

    again = JobManager(store_dir=tmp_path, job_store=JobStore.beside(tmp_path))
    after = again.view(job.id, with_records=True)
    assert after == before
    # The records as graded: the report's, in the order they finished.
    graded = again.records(job.id)
    key = lambda record: (record["format_id"], record["instance_id"])  # noqa: E731
    assert sorted(graded, key=key) == sorted(before["result"]["records"], key=key)
    assert again.records(job.id, after=4) == graded[4:]
    assert all(record["reason"] for record in after["result"]["records"])
    listed = again.history()
    assert [(entry["id"], entry["status"], entry["done"]) for entry in listed] == [(job.id, "done", 6)]
    assert listed[0]["evidence_file"] is not None  # the finished job went to the local evidence store too


def test_an_unfinished_job_is_marked_interrupted_with_its_records(tmp_path: Path) -> None:
    store = JobStore.beside(tmp_path)
    store.create("abc", "running", "2026-12-07T12:00:00Z", 10, "m", ("xml_schema",), "main", "generated")
    for seq in range(3):
        store.add_record("abc", seq, {"format_id": "xml_schema", "request": f"request {seq}", "correct": True})
    store.create("queued1", "queued", "2026-12-07T12:00:01Z", 4, "m", ("xml_schema",), "main", "generated")
    store.close()

    manager = JobManager(store_dir=tmp_path, job_store=JobStore.beside(tmp_path))
    running = manager.view("abc")
    assert (running["status"], running["done"], running["total"]) == (INTERRUPTED, 3, 10)
    assert "3 graded requests are kept" in running["error"]
    assert [record["request"] for record in manager.records("abc")] == ["request 0", "request 1", "request 2"]
    assert manager.view("queued1")["status"] == INTERRUPTED
    # Cancelling what an earlier server left is answered with the job, unchanged.
    assert manager.job_store is not None and manager.job_store.get("abc") is not None


def test_a_store_that_does_not_open_refuses_new_jobs(endpoint: ScriptedEndpoint, tmp_path: Path) -> None:
    (tmp_path / JOB_STORE_FILE).mkdir()  # a folder where the database should be
    with pytest.raises(JobStoreError) as opened:
        JobStore.beside(tmp_path)
    manager = JobManager(store_dir=tmp_path, job_store=opened.value)
    with pytest.raises(JobStoreError) as refused:
        manager.submit(_spec(endpoint, 1))
    assert JOB_STORE_FILE in refused.value.detail and refused.value.status == 503


class _FailingStore(JobStore):
    """Refuses the record after ``good`` have been written, as a full disk would."""

    def __init__(self, path: Path, good: int) -> None:
        super().__init__(path)
        self.good = good

    def add_record(self, job_id: str, seq: int, record: Any) -> None:
        if seq >= self.good:
            raise JobStoreError(f"the job store {self.path} could not write record {seq} (disk full)")
        super().add_record(job_id, seq, record)


def test_a_record_that_cannot_be_written_fails_the_job_with_that_error(
    endpoint: ScriptedEndpoint, tmp_path: Path
) -> None:
    manager = JobManager(store_dir=tmp_path, job_store=_FailingStore(tmp_path / JOB_STORE_FILE, good=2))
    job = manager.submit(_spec(endpoint, 5, concurrency=1))
    store = manager.job_store
    assert store is not None
    _wait(lambda: getattr(store.get(job.id), "status", None) == "failed", "the job to be kept as failed")
    answer = manager.view(job.id)
    assert answer["status"] == "failed"
    assert answer["error"].startswith("job_store_error:") and "disk full" in answer["error"]
    reopened = JobStore.beside(tmp_path)
    assert len(reopened.records(job.id)) == 2
    assert reopened.get(job.id) is not None and reopened.get(job.id).status == "failed"  # type: ignore[union-attr]


def test_the_csv_has_a_row_per_record_and_defuses_formulas() -> None:
    records = [
        {"format_id": "xml_schema", "request": "=HYPERLINK(\"x\")", "reply": "a, \"quoted\"\nreply", "correct": True},
        {"format_id": "json_minimal", "request": "plain", "reply": "", "correct": False, "prompt_tokens": None},
    ]
    rows = list(csv.reader(io.StringIO(records_csv(records))))
    assert rows[0] == list(CSV_COLUMNS)
    assert rows[1][:6] == ["xml_schema", "", "", "'=HYPERLINK(\"x\")", "a, \"quoted\"\nreply", "true"]
    assert rows[2][CSV_COLUMNS.index("correct")] == "false" and rows[2][CSV_COLUMNS.index("prompt_tokens")] == ""
    assert csv_cell("-1") == "'-1" and csv_cell(3) == "3"


def _slow_endpoint_server(endpoint: ScriptedEndpoint, store: Path) -> Server:
    arguments = ["--endpoint", endpoint.base_url, "--endpoint-model", "canned-model", "--evidence-dir", str(store)]
    return Server(OUR_TOOLFORM, arguments, env={"TOOLFORM_EVIDENCE_DIR": str(store)})


@pytest.mark.parametrize("stop", ["kill", "terminate"])
def test_a_server_stopped_during_a_job_loses_no_record(tmp_path: Path, stop: str) -> None:
    def script(_: Prompt) -> Answer:
        return Answer("No tool applies here.", delay_s=0.05)

    with ScriptedEndpoint(script, models=("canned-model",)) as slow:
        server = _slow_endpoint_server(slow, tmp_path)
        try:
            started = server.post("/api/v1/ab-test", {"n_requests": 200, "concurrency": 1, "formats": ["xml_schema"]})
            assert started.status == 202, started.body
            job_id = started.json()["job_id"]
            _wait(lambda: server.get(f"/api/v1/ab-test/{job_id}").json()["done"] >= 5, "five graded requests")
            seen = server.get(f"/api/v1/ab-test/{job_id}/records").json()["records"]
            if stop == "kill":
                server.process.send_signal(signal.SIGKILL)
            else:
                server.process.send_signal(signal.SIGTERM)
            server.process.wait(timeout=30)
        finally:
            server.stop()
        # The database as the stopped server left it: every record it had served is there.
        with sqlite3.connect(tmp_path / JOB_STORE_FILE) as db:
            kept = [row[0] for row in db.execute("SELECT seq FROM records WHERE job_id = ? ORDER BY seq", (job_id,))]
            status = db.execute("SELECT status FROM jobs WHERE id = ?", (job_id,)).fetchone()[0]
        assert kept == list(range(len(kept))) and len(kept) >= len(seen) >= 5
        # SIGTERM lets the server keep the job as interrupted itself; SIGKILL leaves that to the next start.
        assert status == (INTERRUPTED if stop == "terminate" else "running")

        with _slow_endpoint_server(slow, tmp_path) as again:
            job = again.get(f"/api/v1/ab-test/{job_id}").json()
            assert job["status"] == INTERRUPTED
            assert job["done"] == len(kept) and job["total"] == 200
            records = again.get(f"/api/v1/ab-test/{job_id}/records").json()["records"]
            assert records[: len(seen)] == seen and len(records) == len(kept)
            listed = again.get("/api/v1/ab-test").json()["jobs"]
            assert [(entry["id"], entry["status"]) for entry in listed] == [(job_id, INTERRUPTED)]
            report = again.get(f"/api/v1/ab-test/{job_id}/report?format=csv")
            assert report.status == 200 and report.headers["content-type"].startswith("text/csv")
            assert len(list(csv.reader(io.StringIO(report.body.decode())))) == len(kept) + 1
            cancelled = again.request("DELETE", f"/api/v1/ab-test/{job_id}")
            assert cancelled.status == 200 and cancelled.json()["status"] == INTERRUPTED


def test_a_job_store_that_cannot_be_written_is_a_503_in_the_error_shape(
    endpoint: ScriptedEndpoint, tmp_path: Path
) -> None:
    (tmp_path / JOB_STORE_FILE).mkdir()
    with _slow_endpoint_server(endpoint, tmp_path) as server:
        answer = server.post("/api/v1/ab-test", {"n_requests": 1})
        assert answer.status == 503
        body = answer.json()
        assert (body["error"], body["status"]) == ("job_store_error", 503)
        assert JOB_STORE_FILE in body["detail"]


def test_a_reply_utf8_cannot_carry_is_kept_and_served_exactly(tmp_path: Path) -> None:
    # A lone surrogate reaches Python from an endpoint's JSON ("\ud800"); UTF-8 and SQLite's text cannot hold it.
    reply = "half a pair \ud800, \"quoted\", it's <b>"

    def script(_: Prompt) -> Answer:
        return Answer(reply)

    with ScriptedEndpoint(script, models=("canned-model",)) as odd, _slow_endpoint_server(odd, tmp_path) as server:
        job_id = server.post("/api/v1/ab-test", {"n_requests": 2, "formats": ["xml_schema"]}).json()["job_id"]
        _wait(lambda: server.get(f"/api/v1/ab-test/{job_id}").json()["status"] == "done", "the job to finish")
        records = server.get(f"/api/v1/ab-test/{job_id}/records").json()["records"]
        assert [record["reply"] for record in records] == [reply, reply]
        result = server.get(f"/api/v1/ab-test/{job_id}?records=true").json()["result"]
        assert {record["reply"] for record in result["records"]} == {reply}
        report = server.get(f"/api/v1/ab-test/{job_id}/report?format=csv")
        assert report.status == 200 and "half a pair \\ud800" in report.body.decode("utf-8")
    assert {record["reply"] for record in JobStore.beside(tmp_path).records(job_id)} == {reply}
