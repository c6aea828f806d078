"""A server whose evidence is missing or damaged still starts, says so in /health, and answers 503 for it."""

from __future__ import annotations

from pathlib import Path

from support.evidence_sets import copy_evidence
from support.serving import OUR_TOOLFORM, Server


def test_missing_evidence_starts_and_says_so(tmp_path: Path) -> None:
    with Server(OUR_TOOLFORM, ["--study-dir", str(tmp_path / "none")]) as server:
        health = server.get("/api/v1/health").json()
        assert health["status"] == "ok"
        assert health["evidence_version"] is None
        assert health["evidence"]["status"] == "missing"
        assert "make toolform-evidence" in health["evidence"]["detail"]
        for path in ("/api/v1/evidence", "/api/v1/evidence/zoo", "/api/v1/facts", "/api/v1/formats",
                     "/api/v1/formats/xml_schema", "/api/v1/protocols", "/api/v1/models"):
            reply = server.get(path)
            assert reply.status == 503, path
            assert reply.json()["error"] == "evidence_unavailable"
        assert server.get("/api/v1/version").json()["evidence"] is None
        assert "the evidence routes answer 503" in server.output()


def test_the_environment_names_the_folder_too(tmp_path: Path) -> None:
    with Server(OUR_TOOLFORM, env={"TOOLFORM_STUDY_DIR": str(tmp_path / "none")}) as server:
        detail = server.get("/api/v1/health").json()["evidence"]["detail"]
        assert "TOOLFORM_STUDY_DIR" in detail and str(tmp_path / "none") in detail


def test_a_damaged_file_is_refused_alone(tmp_path: Path) -> None:
    folder = copy_evidence(tmp_path)
    (folder / "zoo.json").write_text("{}")
    with Server(OUR_TOOLFORM, ["--study-dir", str(folder)]) as server:
        health = server.get("/api/v1/health").json()
        assert health["evidence"]["status"] == "failed"
        assert "zoo.json: 2 bytes" in health["evidence"]["detail"]
        assert server.get("/api/v1/models").status == 503
        assert "zoo" in server.get("/api/v1/evidence/zoo").json()["detail"]
        assert server.get("/api/v1/protocols").status == 200
