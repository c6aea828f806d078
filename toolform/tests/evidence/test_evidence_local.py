"""The local evidence store: writing measurements, reading them back, refusing damage."""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

import pytest
from toolform.errors import BadRequest
from toolform.evidence.local import (
    STORE_ENV_VAR,
    STORE_MANIFEST,
    FormatScore,
    LocalMeasurement,
    endpoint_host_of,
    locate_store,
    open_store,
    wilson_interval,
    write_measurement,
)


def measurement(
    model: str = "acme/tiny-7b", date: str = "2026-12-01T23:40:00Z", rule: str = "main"
) -> LocalMeasurement:
    return LocalMeasurement(
        model=model,
        endpoint_host="127.0.0.1:8000",
        date=date,
        toolset_fingerprint="5f1c0ffee0ddba11",
        rule=rule,
        seed=7,
        formats=(
            FormatScore("json_schema_openai", "json_object", 40, 31, prompt_tokens=52000, completion_tokens=2400),
            FormatScore("xml_schema", "xml_call", n=40, correct=36, prompt_tokens=61000, completion_tokens=2600),
        ),
        n_tools=8,
        tier=3,
    )


@pytest.mark.parametrize(
    ("correct", "n", "interval"),
    # Known values of the 95% Wilson score interval (Newcombe 1998, table I, and direct computation).
    [(8, 10, (49.02, 94.33)), (0, 10, (0.0, 27.75)), (10, 10, (72.25, 100.0)), (81, 263, (25.53, 36.62))],
)
def test_wilson_interval_matches_known_values(correct: int, n: int, interval: tuple[float, float]) -> None:
    low, high = wilson_interval(correct, n)
    assert low == pytest.approx(interval[0], abs=0.005) and high == pytest.approx(interval[1], abs=0.005)


def test_wilson_interval_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="n must be positive"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson_interval(11, 10)


def test_endpoint_host_drops_credentials_paths_and_queries() -> None:
    assert endpoint_host_of("https://user:sk-secret@api.example.com:8443/v1?key=sk-2") == "api.example.com:8443"
    assert endpoint_host_of("http://[::1]:8000/v1") == "[::1]:8000"
    assert endpoint_host_of("localhost:8000") == "localhost:8000"
    with pytest.raises(BadRequest, match="has no host"):
        endpoint_host_of("/v1/chat")


def test_a_url_or_key_is_never_accepted_as_the_endpoint_host() -> None:
    for host in ("http://127.0.0.1:8000/v1", "user:sk-secret@host", "host/v1", ""):
        with pytest.raises(BadRequest, match=r"\$\.endpoint_host"):
            LocalMeasurement("m", host, "2026-12-01T23:40:00Z", "f", "main", None, measurement().formats)


def test_bad_scores_name_the_member_and_the_rule() -> None:
    with pytest.raises(BadRequest, match=r"\$\.correct: must be between 0 and n \(4\)"):
        FormatScore("xml_schema", "xml_call", n=4, correct=5)
    with pytest.raises(BadRequest, match=r"\$\.n: must be at least 1"):
        FormatScore("xml_schema", "xml_call", n=0, correct=0)
    with pytest.raises(BadRequest, match=r"\$\.rule"):
        LocalMeasurement("m", "h", "2026-12-01T23:40:00Z", "f", "loose", None, measurement().formats)
    with pytest.raises(BadRequest, match=r"\$\.date"):
        LocalMeasurement("m", "h", "yesterday", "f", "main", None, measurement().formats)


def test_a_written_measurement_reads_back_equal_with_its_manifest(tmp_path: Path) -> None:
    stored = write_measurement(tmp_path / "store", measurement())
    assert stored.file == "20261201T234000Z-acme-tiny-7b-5f1c0ffee0dd.json"
    assert stored.source == f"local:{stored.file}"
    manifest = json.loads((tmp_path / "store" / STORE_MANIFEST).read_text())
    assert manifest["files"] == [
        {"name": stored.file, "sha256": stored.sha256, "bytes": (tmp_path / "store" / stored.file).stat().st_size}
    ]
    store = open_store(tmp_path / "store")
    assert store.status == "ok" and store.problems == ()
    assert store.measurements == (stored,)
    written = json.loads((tmp_path / "store" / stored.file).read_text())
    assert written["formats"][1] == {
        "format_id": "xml_schema", "protocol_id": "xml_call", "n": 40, "correct": 36, "accuracy": 90.0,
        "interval": [76.95, 96.04], "interval_kind": "wilson95", "prompt_tokens": 61000, "completion_tokens": 2600,
    }
    assert written["endpoint_host"] == "127.0.0.1:8000"


def test_the_same_measurement_twice_gets_two_files(tmp_path: Path) -> None:
    first = write_measurement(tmp_path, measurement())
    second = write_measurement(tmp_path, measurement())
    assert first.file != second.file and second.file.endswith("-2.json")
    assert len(open_store(tmp_path).measurements) == 2


def test_concurrent_writers_lose_no_entry(tmp_path: Path) -> None:
    threads = [
        threading.Thread(target=write_measurement, args=(tmp_path, measurement(model=f"m{i}"))) for i in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store = open_store(tmp_path)
    assert store.status == "ok"
    assert sorted(s.measurement.model for s in store.measurements) == [f"m{i}" for i in range(8)]


def test_a_changed_file_is_reported_and_not_served(tmp_path: Path) -> None:
    kept = write_measurement(tmp_path, measurement(model="kept"))
    changed = write_measurement(tmp_path, measurement(model="changed"))
    path = tmp_path / changed.file
    path.write_text(path.read_text().replace('"correct": 36', '"correct": 40'))
    store = open_store(tmp_path)
    assert store.status == "failed"
    assert [s.file for s in store.measurements] == [kept.file]
    assert [p.file for p in store.problems] == [changed.file]
    assert "differs from the manifest's" in store.problems[0].reason


def test_a_consistent_but_invalid_file_is_reported(tmp_path: Path) -> None:
    stored = write_measurement(tmp_path, measurement())
    path = tmp_path / stored.file
    document = json.loads(path.read_text())
    document["formats"][0]["accuracy"] = 99.0
    # Rewrite the manifest to match, as a careless hand edit would: the derived figure still disagrees.
    content = (json.dumps(document, indent=2) + "\n").encode()
    path.write_bytes(content)
    manifest = json.loads((tmp_path / STORE_MANIFEST).read_text())
    manifest["files"][0].update(sha256=hashlib.sha256(content).hexdigest(), bytes=len(content))
    (tmp_path / STORE_MANIFEST).write_text(json.dumps(manifest))
    store = open_store(tmp_path)
    assert store.measurements == ()
    assert str(store.problems[0]) == f"{stored.file}: $.formats[0].accuracy: must be 77.5, correct/n in percent"


def test_missing_and_unlisted_files_are_reported(tmp_path: Path) -> None:
    stored = write_measurement(tmp_path, measurement())
    (tmp_path / stored.file).rename(tmp_path / "stray.json")
    store = open_store(tmp_path)
    reasons = {p.file: p.reason for p in store.problems}
    assert reasons[stored.file] == "missing, though the manifest lists it"
    assert reasons["stray.json"].startswith("not listed in the store's manifest")


def test_a_damaged_manifest_serves_nothing_and_refuses_writes(tmp_path: Path) -> None:
    write_measurement(tmp_path, measurement())
    (tmp_path / STORE_MANIFEST).write_text("{not json")
    store = open_store(tmp_path)
    assert store.measurements == () and store.problems[0].file == STORE_MANIFEST
    with pytest.raises(BadRequest, match="manifest .* is damaged"):
        write_measurement(tmp_path, measurement())


def test_an_absent_store_is_empty_not_an_error(tmp_path: Path) -> None:
    store = open_store(tmp_path / "never-written")
    assert store.status == "empty" and store.measurements == () and "no local measurements" in store.detail


def test_for_model_matches_names_and_rule_newest_first(tmp_path: Path) -> None:
    old = write_measurement(tmp_path, measurement(model="Acme/Tiny-7B", date="2026-11-01T00:00:00Z"))
    new = write_measurement(tmp_path, measurement(model="acme/tiny-7b", date="2026-12-01T00:00:00Z"))
    symmetric = write_measurement(tmp_path, measurement(date="2026-12-02T00:00:00Z", rule="symmetric"))
    store = open_store(tmp_path)
    assert [s.file for s in store.for_model("ACME/tiny-7b", rule="main")] == [new.file, old.file]
    assert [s.file for s in store.for_model("acme/tiny-7b")][0] == symmetric.file
    assert store.for_model("other", None) == []


def test_the_store_is_located_by_flag_then_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STORE_ENV_VAR, str(tmp_path / "env"))
    assert locate_store(tmp_path / "flag") == (tmp_path / "flag", "--evidence-dir")
    assert locate_store(None) == (tmp_path / "env", STORE_ENV_VAR)
    monkeypatch.delenv(STORE_ENV_VAR)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert locate_store(None) == (tmp_path / "xdg" / "toolform" / "evidence", "the default")


def test_best_prefers_accuracy_then_fewer_tokens() -> None:
    assert measurement().best().format_id == "xml_schema"
