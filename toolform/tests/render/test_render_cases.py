"""render_cases.json: six tool sets in the eight core formats, byte for byte, with their instructions."""

from __future__ import annotations

from typing import Any

import pytest
from toolform.evidence import Evidence
from toolform.render import render_block
from toolform.render.instructions import INSTRUCTIONS
from toolform.render.protocols import default_protocol

from support.render_fixtures import render_cases


def _cases() -> list[Any]:
    return [
        pytest.param(case["ir"], format_id, expected, id=f"{case['id']}-{format_id}")
        for case in render_cases()
        for format_id, expected in case["renders"].items()
    ]


def test_the_fixture_has_six_tool_sets_in_eight_formats() -> None:
    assert len(_cases()) == 48


@pytest.mark.parametrize(("ir", "format_id", "expected"), _cases())
def test_render_case_is_byte_identical(
    ir: dict[str, Any], format_id: str, expected: dict[str, str], evidence: Evidence
) -> None:
    assert render_block(ir, format_id) == expected["text"]
    assert INSTRUCTIONS[default_protocol(format_id, evidence)] == expected["instructions"]
