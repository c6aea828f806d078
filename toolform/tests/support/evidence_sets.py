"""Evidence folders made for a test: a copy of the fetched set, then damaged on purpose."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from support.evidence_files import EVIDENCE_DIR


def copy_evidence(into: Path) -> Path:
    """A copy of the fetched evidence (the JSON files) in ``into``/evidence."""
    folder = into / "evidence"
    folder.mkdir()
    for path in EVIDENCE_DIR.glob("*.json"):
        shutil.copy(path, folder / path.name)
    return folder


def rewrite_with_manifest(folder: Path, name: str, content: bytes) -> None:
    """Replace one file and update the manifest to match it, as a self-consistent local set would."""
    (folder / f"{name}.json").write_bytes(content)
    manifest = json.loads((folder / "manifest.json").read_text())
    for entry in manifest["files"]:
        if entry["name"] == name:
            entry["sha256"] = hashlib.sha256(content).hexdigest()
            entry["bytes"] = len(content)
    (folder / "manifest.json").write_text(json.dumps(manifest))
