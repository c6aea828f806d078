"""The study's evidence as read from one folder: every file checked against the manifest.

Opening never raises: a missing or damaged evidence set is a state the server and
the CLI report (``status``, ``detail``, ``problems``), and only the files that
passed their check are served.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Literal

from toolform.errors import EvidenceUnavailable, UnknownEvidence
from toolform.evidence.locate import EvidenceLocation, locate
from toolform.evidence.manifest import (
    FileProblem,
    Manifest,
    ManifestError,
    check_file,
    parse_manifest,
)
from toolform.evidence.pinned import MANIFEST_SHA256

MANIFEST_FILE = "manifest.json"
MANIFEST_NAME = "manifest"

EvidenceStatus = Literal["ok", "missing", "failed"]

_FETCH_HINT = (
    "fetch it with `make toolform-evidence` (or `python -m toolform.evidence.fetch`), "
    "or point --study-dir or TOOLFORM_STUDY_DIR at a folder holding manifest.json"
)


@dataclass
class Evidence:
    """The evidence of one folder, verified when it was opened.

    ``contents`` holds the bytes of each file that passed its check, by name; what
    is served is exactly what was verified, even if the folder changes later.
    """

    location: EvidenceLocation
    manifest: Manifest | None
    problems: tuple[FileProblem, ...]
    contents: dict[str, bytes]
    manifest_sha256: str | None
    _parsed: dict[str, object] = field(default_factory=dict, repr=False)

    @property
    def status(self) -> EvidenceStatus:
        """ok: every file matches the manifest; missing: no manifest; failed: some file does not."""
        if self.manifest is None and not self.problems:
            return "missing"
        return "failed" if self.problems else "ok"

    @property
    def version(self) -> str | None:
        """The manifest's ``evidence_version``, or None without a readable manifest."""
        return self.manifest.evidence_version if self.manifest else None

    @property
    def is_pinned(self) -> bool:
        """Whether the manifest is byte for byte the one this ToolForm was built against."""
        return self.manifest_sha256 == MANIFEST_SHA256

    @property
    def detail(self) -> str:
        """One sentence on the state, for /health, doctor and error messages."""
        where = f"{self.location.directory} (chosen by {self.location.chosen_by})"
        if self.status == "missing":
            return f"no study evidence at {where}; {_FETCH_HINT}"
        if self.status == "failed":
            listed = "; ".join(str(problem) for problem in self.problems)
            return f"the evidence at {where} fails its check: {listed}"
        assert self.manifest is not None
        count = len(self.manifest.entries)
        return f"evidence {self.manifest.evidence_version}: {count} files match the manifest at {where}"

    def names(self) -> list[str]:
        """Every name /evidence/{name} answers to: the manifest, then its files in its order."""
        if self.manifest is None:
            return []
        return [MANIFEST_NAME, *(entry.name for entry in self.manifest.entries)]

    def document(self, name: str) -> object:
        """The parsed JSON of one evidence file (the manifest included), as verified.

        Raises UnknownEvidence for a name the manifest does not list and
        EvidenceUnavailable for a file that is missing or failed its check.
        """
        if self.manifest is None:
            raise EvidenceUnavailable(self.detail)
        if name in self._parsed:
            return self._parsed[name]
        if name == MANIFEST_NAME:
            document: object = dict(self.manifest.document)
        else:
            if self.manifest.entry(name) is None:
                known = ", ".join(self.names())
                raise UnknownEvidence(f"no evidence file '{name}'; known: {known}")
            content = self.contents.get(name)
            if content is None:
                problem = next(p for p in self.problems if p.name == name)
                raise EvidenceUnavailable(f"evidence file '{name}' is not served: {problem}")
            try:
                document = json.loads(content)
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                raise EvidenceUnavailable(
                    f"evidence file '{name}' matches its sha256 but is not JSON: {error}"
                ) from error
        self._parsed[name] = document
        return document

    def data(self, name: str) -> object:
        """The ``data`` member of an evidence file's envelope."""
        document = self.document(name)
        if not isinstance(document, dict) or "data" not in document:
            raise EvidenceUnavailable(f"evidence file '{name}' has no data member")
        return document["data"]


def open_evidence(override: str | os.PathLike[str] | None = None) -> Evidence:
    """Locate the evidence (flag, environment, default) and verify every file of it."""
    return open_evidence_at(locate(override))


def open_evidence_at(location: EvidenceLocation) -> Evidence:
    """Verify the evidence in ``location``: the manifest first, then each file it lists."""
    manifest_path = location.directory / MANIFEST_FILE
    try:
        raw_manifest = manifest_path.read_bytes()
    except FileNotFoundError:
        return Evidence(location, None, (), {}, None)
    except OSError as error:
        problem = FileProblem(MANIFEST_NAME, MANIFEST_FILE, f"cannot be read: {error.strerror}")
        return Evidence(location, None, (problem,), {}, None)
    manifest_sha256 = hashlib.sha256(raw_manifest).hexdigest()
    try:
        manifest = parse_manifest(raw_manifest)
    except ManifestError as error:
        problem = FileProblem(MANIFEST_NAME, MANIFEST_FILE, str(error))
        return Evidence(location, None, (problem,), {}, manifest_sha256)
    problems: list[FileProblem] = []
    contents: dict[str, bytes] = {}
    for entry in manifest.entries:
        try:
            content = (location.directory / entry.path).read_bytes()
        except FileNotFoundError:
            problems.append(FileProblem(entry.name, entry.path, "missing"))
            continue
        except OSError as error:
            problems.append(FileProblem(entry.name, entry.path, f"cannot be read: {error.strerror}"))
            continue
        mismatch = check_file(entry, content)
        if mismatch is None:
            contents[entry.name] = content
        else:
            problems.append(mismatch)
    return Evidence(location, manifest, tuple(problems), contents, manifest_sha256)
