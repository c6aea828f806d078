"""The parity fixtures the tools tests read, found the way the package finds its evidence.

``TOOLFORM_STUDY_DIR`` names the folder, else the package's ``evidence_data``
(``make toolform-evidence`` fetches it). A missing file fails the test that needs
it with the fix, never skips it.
"""

from __future__ import annotations

import json
from typing import Any

from toolform.evidence.locate import locate


def fixture(name: str) -> Any:
    """The ``data`` of evidence file ``name`` (``render_cases``, ``sample_renders``, ...)."""
    where = locate()
    path = where.directory / f"{name}.json"
    if not path.is_file():
        raise AssertionError(
            f"{path} is missing (the evidence folder was chosen by {where.chosen_by}); "
            "run `make toolform-evidence`, or set TOOLFORM_STUDY_DIR to a folder holding the reference's data files"
        )
    return json.loads(path.read_text(encoding="utf-8"))["data"]


def render_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = fixture("render_cases")["cases"]
    assert len(cases) == 6, f"render_cases holds {len(cases)} cases, the evidence 2026-09-25.3 has 6"
    return cases
