"""Where the study's evidence is read from: ``--study-dir``, then ``TOOLFORM_STUDY_DIR``, then the package.

``--evidence-dir`` names something else: the local evidence store that measurements
are written to (``toolform.evidence.local``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: The environment variable that names the study's evidence folder when no ``--study-dir`` does.
ENV_VAR = "TOOLFORM_STUDY_DIR"


def default_dir() -> Path:
    """The folder the setup fetches the evidence into: ``evidence_data`` inside the package.

    It is gitignored in the repository; a wheel built after the fetch carries it.
    """
    return Path(__file__).resolve().parent.parent / "evidence_data"


@dataclass(frozen=True)
class EvidenceLocation:
    """A folder that should hold the evidence, and what chose it (for messages)."""

    directory: Path
    chosen_by: str


def locate(override: str | os.PathLike[str] | None = None) -> EvidenceLocation:
    """The study's folder: ``override`` (``--study-dir``), else ``TOOLFORM_STUDY_DIR``, else the default."""
    if override is not None and str(override) != "":
        return EvidenceLocation(Path(override).expanduser(), "--study-dir")
    from_env = os.environ.get(ENV_VAR, "")
    if from_env:
        return EvidenceLocation(Path(from_env).expanduser(), ENV_VAR)
    return EvidenceLocation(default_dir(), "the default")
