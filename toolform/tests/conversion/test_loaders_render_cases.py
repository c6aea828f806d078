"""Acceptance: the IR loaded from each render_cases input equals the fixture's IR."""

from __future__ import annotations

from typing import Any

import pytest

from support.tools_evidence import render_cases
from toolform import loaders


@pytest.mark.parametrize("case", render_cases(), ids=lambda c: c["id"])
@pytest.mark.parametrize("source", ["openai", "auto"])
def test_the_ir_loaded_from_each_input_is_the_fixtures(case: dict[str, Any], source: str) -> None:
    result = loaders.load(source, case["openai"])
    assert result.kind == "openai"
    assert result.toolset.to_dict() == case["ir"]
    assert result.warnings == []


@pytest.mark.parametrize("case", render_cases(), ids=lambda c: c["id"])
def test_the_fixtures_ir_reads_back_as_itself(case: dict[str, Any]) -> None:
    result = loaders.load("auto", case["ir"])
    assert result.kind == "ir"
    assert result.toolset.to_dict() == case["ir"]
