"""The render parity fixtures, read through the package's own evidence reader."""

from __future__ import annotations

from functools import cache
from typing import Any

from toolform.evidence import open_evidence


@cache
def fixture(name: str) -> Any:
    """The ``data`` of one verified evidence file (the default location, or TOOLFORM_STUDY_DIR)."""
    evidence = open_evidence()
    assert evidence.status == "ok", evidence.detail
    return evidence.data(name)


def render_cases() -> list[dict[str, Any]]:
    """render_cases.json: six tool sets, each with its IR and its renders in the eight core formats."""
    cases: list[dict[str, Any]] = fixture("render_cases")["cases"]
    return cases


def sample_renders() -> dict[str, Any]:
    """sample_renders.json: the sample tool's IR and its render in each of the 133 formats."""
    data: dict[str, Any] = fixture("sample_renders")
    return data
