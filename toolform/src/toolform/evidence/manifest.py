"""The evidence manifest: which files make up the study's evidence, and each file's sha256."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


class ManifestError(ValueError):
    """A manifest that is not the shape the evidence's manifests have."""


@dataclass(frozen=True)
class ManifestEntry:
    """One evidence file as the manifest lists it."""

    name: str
    path: str
    sha256: str
    size: int
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Manifest:
    """The parsed manifest, with the document itself kept to be served as it is."""

    evidence_version: str
    toolform_version: str
    built_at: str
    entries: tuple[ManifestEntry, ...]
    document: Mapping[str, object]

    def entry(self, name: str) -> ManifestEntry | None:
        """The entry called ``name``, or None."""
        for entry in self.entries:
            if entry.name == name:
                return entry
        return None


@dataclass(frozen=True)
class FileProblem:
    """An evidence file that is missing or is not the file the manifest describes."""

    name: str
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def _text(document: Mapping[str, object], key: str, where: str) -> str:
    value = document.get(key)
    if not isinstance(value, str) or not value:
        raise ManifestError(f"{where}.{key} must be a non-empty string, found {value!r}")
    return value


def _entry(raw: object, index: int) -> ManifestEntry:
    where = f"$.files[{index}]"
    if not isinstance(raw, dict):
        raise ManifestError(f"{where} must be an object, found {type(raw).__name__}")
    name = _text(raw, "name", where)
    path = _text(raw, "path", where)
    # The path is joined to the evidence folder: only a plain file name may stay inside it.
    if Path(path).name != path or path in {".", ".."}:
        raise ManifestError(f"{where}.path must be a plain file name, found {path!r}")
    sha256 = _text(raw, "sha256", where)
    if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
        raise ManifestError(f"{where}.sha256 must be 64 lowercase hex digits, found {sha256!r}")
    size = raw.get("bytes")
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ManifestError(f"{where}.bytes must be a non-negative integer, found {size!r}")
    sources = raw.get("source", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        raise ManifestError(f"{where}.source must be a list of strings, found {sources!r}")
    return ManifestEntry(name, path, sha256, size, tuple(sources))


def parse_manifest(raw: bytes) -> Manifest:
    """Parse the manifest's bytes; raises ManifestError naming the member that is wrong."""
    try:
        document = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ManifestError(f"manifest.json is not JSON: {error}") from error
    if not isinstance(document, dict):
        raise ManifestError(f"$ must be an object, found {type(document).__name__}")
    files = document.get("files")
    if not isinstance(files, list):
        raise ManifestError("$.files must be a list of files")
    entries = tuple(_entry(raw_entry, index) for index, raw_entry in enumerate(files))
    names = [entry.name for entry in entries]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ManifestError(f"$.files names {', '.join(duplicates)} more than once")
    return Manifest(
        evidence_version=_text(document, "evidence_version", "$"),
        toolform_version=_text(document, "toolform_version", "$"),
        built_at=_text(document, "built_at", "$"),
        entries=entries,
        document=document,
    )


def check_file(entry: ManifestEntry, content: bytes) -> FileProblem | None:
    """Whether ``content`` is the file ``entry`` describes: its size, then its sha256."""
    if len(content) != entry.size:
        return FileProblem(
            entry.name, entry.path, f"{len(content)} bytes, the manifest says {entry.size}"
        )
    digest = hashlib.sha256(content).hexdigest()
    if digest != entry.sha256:
        return FileProblem(
            entry.name, entry.path, f"sha256 {digest}, the manifest says {entry.sha256}"
        )
    return None
