"""Local evidence in use: a measurement written to a temporary store is what recommend, /evidence and /facts show."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from fastapi.testclient import TestClient
from toolform.advisor import Situation, recommend
from toolform.evidence import Evidence
from toolform.evidence.local import FormatScore, LocalMeasurement, StoredMeasurement, open_store, write_measurement
from toolform.server.app import create_app
from toolform.server.settings import Settings

from support.serving import OUR_TOOLFORM

MODEL = "acme/tiny-7b"


def _measure(store: Path, n_tools: int = 8, tier: int = 3, rule: str = "main") -> StoredMeasurement:
    return write_measurement(
        store,
        LocalMeasurement(
            model=MODEL,
            endpoint_host="127.0.0.1:8000",
            date="2026-12-01T23:40:00Z",
            toolset_fingerprint="5f1c0ffee0ddba11",
            rule=rule,
            seed=7,
            formats=(
                FormatScore("json_schema_openai", "json_object", 40, 31, prompt_tokens=52000, completion_tokens=2400),
                FormatScore("xml_schema", "xml_call", 40, 36, prompt_tokens=61000, completion_tokens=2600),
            ),
            n_tools=n_tools,
            tier=tier,
        ),
    )


def test_without_a_measurement_the_unknown_model_rests_on_the_pooled_table(evidence: Evidence, tmp_path: Path) -> None:
    answer = recommend(evidence, Situation(model=MODEL), store=open_store(tmp_path)).to_dict()
    assert answer["basis"] == "pooled" and "local" not in answer


def test_a_local_measurement_of_the_model_is_the_basis_and_says_so(evidence: Evidence, tmp_path: Path) -> None:
    stored = _measure(tmp_path)
    answer = recommend(evidence, Situation(model=MODEL), store=open_store(tmp_path)).to_dict()
    assert answer["basis"] == f"local:{stored.file}"
    assert (answer["format_id"], answer["protocol_id"]) == ("xml_schema", "xml_call")
    assert answer["expected_accuracy"] == 90.0
    assert answer["interval"] == [76.95, 96.04] and answer["interval_kind"] == "wilson95"
    assert [item["source"] for item in answer["evidence"]] == [f"local:{stored.file}"]
    assert "36 of 40 correct" in answer["evidence"][0]["note"]
    assert [alt["format_id"] for alt in answer["alternatives"]] == ["json_schema_openai"]
    assert any(f"local:{stored.file}" in warning and "not on the study" in warning for warning in answer["warnings"])
    assert answer["local"]["source"] == f"local:{stored.file}"
    assert f"local:{stored.file}" in answer["summary"]


def test_a_measurement_at_another_count_is_named_but_not_used(evidence: Evidence, tmp_path: Path) -> None:
    stored = _measure(tmp_path, n_tools=32)
    answer = recommend(evidence, Situation(model=MODEL, n_tools=8), store=open_store(tmp_path)).to_dict()
    assert answer["basis"] == "pooled"
    assert any(f"local:{stored.file}" in w and "the study is used" in w for w in answer["warnings"])


def test_a_measurement_under_another_rule_is_named_with_the_way_to_use_it(evidence: Evidence, tmp_path: Path) -> None:
    stored = _measure(tmp_path, rule="symmetric")
    answer = recommend(evidence, Situation(model=MODEL, rule="main"), store=open_store(tmp_path)).to_dict()
    assert answer["basis"] == "pooled"
    (hint,) = [w for w in answer["warnings"] if stored.source in w]
    assert "symmetric rule" in hint and '"rule": "symmetric"' in hint and "--rule symmetric" in hint
    followed = recommend(evidence, Situation(model=MODEL, rule="symmetric"), store=open_store(tmp_path)).to_dict()
    assert followed["basis"] == stored.source
    assert not any("graded under the" in w for w in followed["warnings"])


def test_without_any_measurement_nothing_is_hinted(evidence: Evidence, tmp_path: Path) -> None:
    _measure(tmp_path, rule="symmetric")
    answer = recommend(evidence, Situation(model="acme/other-3b"), store=open_store(tmp_path)).to_dict()
    assert not any("graded under the" in w for w in answer["warnings"])


def test_a_damaged_measurement_is_never_served(evidence: Evidence, tmp_path: Path) -> None:
    stored = _measure(tmp_path)
    path = tmp_path / stored.file
    path.write_text(path.read_text().replace('"correct": 36', '"correct": 40'))
    answer = recommend(evidence, Situation(model=MODEL), store=open_store(tmp_path)).to_dict()
    assert answer["basis"] == "pooled"


def test_the_server_recommends_and_lists_both_sources(tmp_path: Path) -> None:
    stored = _measure(tmp_path)
    client = TestClient(create_app(Settings(evidence_dir=str(tmp_path))), base_url="http://127.0.0.1")
    answer = client.post("/api/v1/recommend", json={"situation": {"model": MODEL}}).json()
    assert answer["basis"] == f"local:{stored.file}"
    listing = client.get("/api/v1/evidence").json()
    assert listing["evidence_version"] and listing["files"]
    assert [f["source"] for f in listing["local"]["files"]] == [f"local:{stored.file}"]
    facts = client.get("/api/v1/facts").json()["facts"]
    local = [f for f in facts if f["source"].startswith("local:")]
    assert {f["id"] for f in local} == {f"local:{stored.file}:xml_schema", f"local:{stored.file}:json_schema_openai"}
    assert any(f["source"] == "paper:tab_selection" for f in facts)
    assert next(f for f in local if f["id"].endswith(":xml_schema"))["interval"] == [76.95, 96.04]


def test_the_servers_answer_names_a_measurement_under_another_rule(tmp_path: Path) -> None:
    stored = _measure(tmp_path, rule="symmetric")
    client = TestClient(create_app(Settings(evidence_dir=str(tmp_path))), base_url="http://127.0.0.1")
    answer = client.post("/api/v1/recommend", json={"situation": {"model": MODEL}}).json()
    assert answer["basis"] == "pooled"
    assert any(stored.source in w and '"rule": "symmetric"' in w for w in answer["warnings"])
    followed = client.post("/api/v1/recommend", json={"situation": {"model": MODEL, "rule": "symmetric"}}).json()
    assert followed["basis"] == stored.source


def test_the_server_reads_a_measurement_written_after_it_started(tmp_path: Path) -> None:
    client = TestClient(create_app(Settings(evidence_dir=str(tmp_path))), base_url="http://127.0.0.1")
    assert client.post("/api/v1/recommend", json={"situation": {"model": MODEL}}).json()["basis"] == "pooled"
    stored = _measure(tmp_path)
    assert client.post("/api/v1/recommend", json={"situation": {"model": MODEL}}).json()["basis"] == stored.source


def _toolform(*arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TOOLFORM_")}
    return subprocess.run(
        [str(OUR_TOOLFORM), *arguments], capture_output=True, text=True, env=environment, timeout=60, check=False
    )


def test_the_cli_recommends_from_the_store_and_lists_it(tmp_path: Path) -> None:
    stored = _measure(tmp_path)
    done = _toolform("recommend", "--model", MODEL, "--evidence-dir", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["basis"] == stored.source
    listing = _toolform("evidence", "--list", "--evidence-dir", str(tmp_path))
    assert listing.returncode == 0 and stored.file in listing.stdout and "Local evidence" in listing.stdout
    facts = json.loads(_toolform("evidence", "--json", "--evidence-dir", str(tmp_path)).stdout)["facts"]
    assert any(f["source"] == stored.source for f in facts)


def test_the_cli_names_a_measurement_under_another_rule_and_follows_it(tmp_path: Path) -> None:
    stored = _measure(tmp_path, rule="symmetric")
    hinted = _toolform("recommend", "--model", MODEL, "--evidence-dir", str(tmp_path))
    assert hinted.returncode == 0, hinted.stderr
    assert stored.source in hinted.stdout + hinted.stderr and "--rule symmetric" in hinted.stdout + hinted.stderr
    followed = _toolform("recommend", "--model", MODEL, "--rule", "symmetric", "--evidence-dir", str(tmp_path),
                         "--json")
    assert json.loads(followed.stdout)["basis"] == stored.source
