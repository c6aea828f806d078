"""Fetching the evidence from a wheel: checked before anything is placed, refused by name when it is not."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest
from toolform.evidence import fetch, open_evidence
from toolform.evidence.locate import EvidenceLocation

from support.evidence_files import EVIDENCE_DIR


def _wheel(path: Path, change: dict[str, bytes] | None = None) -> Path:
    """A wheel laid out as the reference's, holding the fetched evidence, with ``change`` applied."""
    with zipfile.ZipFile(path, "w") as archive:
        for file in sorted(EVIDENCE_DIR.glob("*.json")):
            content = (change or {}).get(file.name, file.read_bytes())
            archive.writestr(f"toolform/advisor/data/{file.name}", content)
        archive.writestr("toolform-0.0.1.dist-info/licenses/LICENSE", "Apache License 2.0 text")
    return path


@pytest.fixture
def pin_wheel(monkeypatch: pytest.MonkeyPatch) -> object:
    def pin(wheel: Path) -> None:
        monkeypatch.setattr(fetch, "REFERENCE_WHEEL_SHA256", hashlib.sha256(wheel.read_bytes()).hexdigest())

    return pin


def test_a_good_wheel_is_verified_and_placed_with_license_and_notice(tmp_path: Path, pin_wheel: object) -> None:
    wheel = _wheel(tmp_path / "toolform.whl")
    pin_wheel(wheel)  # type: ignore[operator]
    destination = EvidenceLocation(tmp_path / "evidence", "test")
    message = fetch.fetch(destination, wheel)
    assert "19 files verified" in message
    placed = open_evidence(destination.directory)
    assert placed.status == "ok" and placed.is_pinned
    assert (destination.directory / "LICENSE").read_text() == "Apache License 2.0 text"
    assert "Apache License, Version 2.0" in " ".join((destination.directory / "NOTICE").read_text().split())
    assert "already verified" in fetch.fetch(destination, wheel)


def test_a_wheel_with_another_sha256_is_refused(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path / "toolform.whl")
    with pytest.raises(fetch.FetchError, match="the pinned toolform-0.0.1-py3-none-any.whl has"):
        fetch.fetch(EvidenceLocation(tmp_path / "evidence", "test"), wheel)
    assert not (tmp_path / "evidence").exists()


def test_a_file_that_fails_the_manifest_is_named_and_nothing_is_placed(tmp_path: Path, pin_wheel: object) -> None:
    tiers = (EVIDENCE_DIR / "tiers.json").read_bytes()
    wheel = _wheel(tmp_path / "toolform.whl", {"tiers.json": tiers.replace(b"1", b"7", 1)})
    pin_wheel(wheel)  # type: ignore[operator]
    with pytest.raises(fetch.FetchError, match=r"toolform/advisor/data/tiers.json: sha256 [0-9a-f]{64}, the manifest"):
        fetch.fetch(EvidenceLocation(tmp_path / "evidence", "test"), wheel)
    assert not (tmp_path / "evidence").exists()


def test_a_manifest_other_than_the_pinned_one_is_refused(tmp_path: Path, pin_wheel: object) -> None:
    manifest = json.loads((EVIDENCE_DIR / "manifest.json").read_text())
    manifest["notes"] = ["changed"]
    wheel = _wheel(tmp_path / "toolform.whl", {"manifest.json": json.dumps(manifest).encode()})
    pin_wheel(wheel)  # type: ignore[operator]
    with pytest.raises(fetch.FetchError, match="the pinned manifest has"):
        fetch.fetch(EvidenceLocation(tmp_path / "evidence", "test"), wheel)


def test_a_refetch_replaces_a_damaged_folder(tmp_path: Path, pin_wheel: object) -> None:
    wheel = _wheel(tmp_path / "toolform.whl")
    pin_wheel(wheel)  # type: ignore[operator]
    destination = EvidenceLocation(tmp_path / "evidence", "test")
    fetch.fetch(destination, wheel)
    (destination.directory / "zoo.json").write_text("{}")
    assert open_evidence(destination.directory).status == "failed"
    fetch.fetch(destination, wheel)
    assert open_evidence(destination.directory).status == "ok"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
