"""evidence routes: the manifest, every file by name, the facts."""

from __future__ import annotations

import pytest

from support.evidence_files import evidence_json
from support.serving import Server

NAMES = [
    "manifest", "facts", "formats", "protocols", "core_main", "families", "protocol_crossing", "tool_count",
    "tiers", "cost", "injection", "disclosure", "selection", "ladder", "zoo", "surface", "sample_renders",
    "render_cases", "advisor_cases", "guard_cases",
]


def test_evidence_is_the_manifest(ours: Server) -> None:
    manifest = ours.get("/api/v1/evidence").json()
    # Beside the study's manifest, the local evidence store (empty for this server).
    local = manifest.pop("local")
    assert manifest == evidence_json("manifest")
    assert local["status"] == "empty" and local["files"] == [] and local["problems"] == []
    assert [f["name"] for f in manifest["files"]] == NAMES[1:]


@pytest.mark.parametrize("name", NAMES)
def test_each_evidence_file_is_served_unchanged(ours: Server, name: str) -> None:
    reply = ours.get(f"/api/v1/evidence/{name}")
    assert reply.status == 200
    assert reply.json() == evidence_json(name)


def test_an_unknown_evidence_name_is_404_listing_the_known(ours: Server) -> None:
    reply = ours.get("/api/v1/evidence/nope")
    assert reply.status == 404
    error = reply.json()
    assert error["error"] == "not_found"
    assert error["detail"] == f"no evidence file 'nope'; known: {', '.join(NAMES)}"


def test_a_path_outside_the_evidence_is_not_served(ours: Server) -> None:
    assert ours.get("/api/v1/evidence/..%2Fpyproject").status == 404
    assert ours.get("/api/v1/evidence/NOTICE").status == 404


def test_facts_carry_their_source_labels(ours: Server) -> None:
    facts = ours.get("/api/v1/facts").json()["facts"]
    assert facts == evidence_json("facts")["data"]
    assert all(fact["source"].split(":")[0] in {"paper", "export", "configs", "results"} for fact in facts)
    assert next(f for f in facts if f["id"] == "measure_eight")["value"] == 69.18
