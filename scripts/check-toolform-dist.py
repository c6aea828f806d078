"""Checks that ToolForm's wheel and sdist carry the study's evidence, verified.

``python scripts/check-toolform-dist.py ARCHIVE...`` (make dist runs it on
dist/python/'s flow_toolform wheel and sdist). In each archive the evidence
folder ``toolform/evidence_data/`` must hold the pinned manifest (its sha256
is the one toolform.evidence.pinned names), every file the manifest lists
with its size and sha256, and the evidence's LICENSE and NOTICE. Exits 1
naming every archive and file that fails.
"""

from __future__ import annotations

import hashlib
import sys
import tarfile
import zipfile
from pathlib import Path

from toolform.evidence.manifest import ManifestError, check_file, parse_manifest
from toolform.evidence.pinned import EVIDENCE_VERSION, MANIFEST_SHA256

EVIDENCE_DIR = "toolform/evidence_data/"


def members(archive: Path) -> dict[str, bytes]:
    """The evidence folder's files in ``archive`` (a wheel or an sdist), by file name."""
    found: dict[str, bytes] = {}
    if archive.name.endswith(".whl"):
        with zipfile.ZipFile(archive) as wheel:
            for name in wheel.namelist():
                if name.startswith(EVIDENCE_DIR):
                    found[name[len(EVIDENCE_DIR):]] = wheel.read(name)
    elif archive.name.endswith(".tar.gz"):
        with tarfile.open(archive) as sdist:
            for member in sdist.getmembers():
                # An sdist holds one top folder, then the source tree: src/toolform/...
                _, _, inner = member.name.partition("/")
                if member.isfile() and inner.startswith("src/" + EVIDENCE_DIR):
                    stream = sdist.extractfile(member)
                    assert stream is not None
                    found[inner[len("src/" + EVIDENCE_DIR):]] = stream.read()
    else:
        raise ValueError(f"{archive}: neither a wheel (.whl) nor an sdist (.tar.gz)")
    return found


def problems(archive: Path) -> list[str]:
    """What is wrong with the evidence in ``archive``; empty when it is the pinned set, whole."""
    files = members(archive)
    manifest_raw = files.get("manifest.json")
    if manifest_raw is None:
        return [f"no {EVIDENCE_DIR}manifest.json: build it after `make toolform-evidence`"]
    digest = hashlib.sha256(manifest_raw).hexdigest()
    if digest != MANIFEST_SHA256:
        pinned = f"the pinned manifest (evidence {EVIDENCE_VERSION}) {MANIFEST_SHA256}"
        return [f"manifest.json has sha256 {digest}, {pinned}"]
    try:
        manifest = parse_manifest(manifest_raw)
    except ManifestError as error:
        return [f"manifest.json: {error}"]
    found: list[str] = []
    for entry in manifest.entries:
        content = files.get(entry.path)
        if content is None:
            found.append(f"{entry.path}: missing")
            continue
        problem = check_file(entry, content)
        if problem is not None:
            found.append(str(problem))
    found += [f"{name}: missing" for name in ("LICENSE", "NOTICE") if not files.get(name)]
    return found


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: check-toolform-dist.py ARCHIVE...", file=sys.stderr)
        return 2
    failed = False
    for name in argv:
        archive = Path(name)
        found = problems(archive)
        if found:
            failed = True
            print(f"check-toolform-dist: {archive.name}:\n  " + "\n  ".join(found), file=sys.stderr)
        else:
            print(f"check-toolform-dist: {archive.name}: evidence {EVIDENCE_VERSION} whole and pinned", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
