"""The evidence reader: located, every file checked against the manifest, damage reported by file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toolform.errors import EvidenceUnavailable, UnknownEvidence
from toolform.evidence import ENV_VAR, ManifestError, default_dir, locate, open_evidence
from toolform.evidence.manifest import parse_manifest

from support.evidence_files import EVIDENCE_DIR, evidence_json
from support.evidence_sets import copy_evidence, rewrite_with_manifest


def test_the_fetched_evidence_is_verified_and_pinned() -> None:
    evidence = open_evidence(EVIDENCE_DIR)
    assert evidence.status == "ok" and evidence.is_pinned
    assert evidence.version == "2026-09-25.3"
    assert evidence.problems == ()
    assert evidence.document("zoo") == evidence_json("zoo")


def test_the_flag_wins_over_the_environment_which_wins_over_the_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env"))
    assert locate(tmp_path / "flag").directory == tmp_path / "flag"
    assert locate().directory == tmp_path / "env" and locate().chosen_by == ENV_VAR
    monkeypatch.delenv(ENV_VAR)
    assert locate().directory == default_dir() == EVIDENCE_DIR


def test_a_missing_folder_is_a_state_with_the_fix_not_a_crash(tmp_path: Path) -> None:
    evidence = open_evidence(tmp_path / "nowhere")
    assert evidence.status == "missing" and evidence.version is None
    assert "make toolform-evidence" in evidence.detail and str(tmp_path / "nowhere") in evidence.detail
    with pytest.raises(EvidenceUnavailable):
        evidence.document("formats")


def test_a_changed_file_fails_its_check_and_is_not_served(tmp_path: Path) -> None:
    folder = copy_evidence(tmp_path)
    original = (folder / "tiers.json").read_bytes()
    (folder / "tiers.json").write_bytes(original.replace(b"1", b"2", 1))
    (folder / "cost.json").unlink()
    evidence = open_evidence(folder)
    assert evidence.status == "failed"
    reasons = {problem.path: problem.reason for problem in evidence.problems}
    assert set(reasons) == {"tiers.json", "cost.json"}
    assert reasons["tiers.json"].startswith("sha256 ") and reasons["cost.json"] == "missing"
    with pytest.raises(EvidenceUnavailable, match="tiers"):
        evidence.document("tiers")
    # The files that passed are still served.
    assert evidence.document("zoo") == evidence_json("zoo")


def test_a_file_of_another_size_says_so(tmp_path: Path) -> None:
    folder = copy_evidence(tmp_path)
    with (folder / "ladder.json").open("ab") as stream:
        stream.write(b" ")
    (problem,) = open_evidence(folder).problems
    assert "bytes, the manifest says" in problem.reason


def test_a_self_consistent_local_set_is_verified_but_not_pinned(tmp_path: Path) -> None:
    folder = copy_evidence(tmp_path)
    rewrite_with_manifest(folder, "tiers", b'{"name": "tiers", "data": {}}')
    evidence = open_evidence(folder)
    assert evidence.status == "ok" and not evidence.is_pinned


def test_an_unknown_name_is_unknown_evidence_listing_the_known() -> None:
    with pytest.raises(UnknownEvidence, match="known: manifest, facts, formats"):
        open_evidence(EVIDENCE_DIR).document("../manifest")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m: m.pop("files"), r"\$.files must be a list"),
        (lambda m: m["files"][0].update(path="../etc/passwd"), r"\$.files\[0\].path must be a plain file name"),
        (lambda m: m["files"][1].update(sha256="XYZ"), r"\$.files\[1\].sha256 must be 64 lowercase hex digits"),
        (lambda m: m["files"][2].update(bytes=-1), r"\$.files\[2\].bytes must be a non-negative integer"),
        (lambda m: m["files"].append(dict(m["files"][0])), r"names facts more than once"),
        (lambda m: m.update(evidence_version=""), r"\$.evidence_version must be a non-empty string"),
    ],
)
def test_a_malformed_manifest_names_the_member(change: object, message: str) -> None:
    manifest = evidence_json("manifest")
    change(manifest)  # type: ignore[operator]
    with pytest.raises(ManifestError, match=message):
        parse_manifest(json.dumps(manifest).encode())


def test_a_malformed_manifest_fails_the_set(tmp_path: Path) -> None:
    folder = copy_evidence(tmp_path)
    (folder / "manifest.json").write_text("[]")
    evidence = open_evidence(folder)
    assert evidence.status == "failed" and evidence.version is None
    assert "$ must be an object" in evidence.detail
