"""The study's evidence: located, verified against its manifest, read.

>>> evidence = open_evidence()          # --study-dir, TOOLFORM_STUDY_DIR, or the default
>>> evidence.status, evidence.version   # ("ok", "2026-09-25.3") once fetched
"""

from toolform.evidence.figure import Figure
from toolform.evidence.installed import given_or_installed, installed_evidence
from toolform.evidence.locate import ENV_VAR, EvidenceLocation, default_dir, locate
from toolform.evidence.manifest import FileProblem, Manifest, ManifestEntry, ManifestError
from toolform.evidence.store import Evidence, EvidenceStatus, open_evidence, open_evidence_at

__all__ = [
    "ENV_VAR",
    "Evidence",
    "EvidenceLocation",
    "EvidenceStatus",
    "Figure",
    "FileProblem",
    "Manifest",
    "ManifestEntry",
    "ManifestError",
    "default_dir",
    "given_or_installed",
    "installed_evidence",
    "locate",
    "open_evidence",
    "open_evidence_at",
]
