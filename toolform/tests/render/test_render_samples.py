"""sample_renders.json: the sample tool in each of the 133 registered formats, byte for byte."""

from __future__ import annotations

from typing import Any

import pytest
from toolform.render import render_block, tokens_estimate
from toolform.render.instructions import INSTRUCTIONS
from toolform.render.sample import format_sample

from support.render_fixtures import sample_renders

#: The fixture's ``chars`` for json_schema_draft2020 is 1456, but its own text has
#: 1454 characters, as the reference's /render answers for it; chars is len(text).
STALE_CHARS = {"json_schema_draft2020": 1456}


def _renders() -> list[Any]:
    return [pytest.param(expected, id=expected["format_id"]) for expected in sample_renders()["renders"]]


def test_the_fixture_covers_133_formats() -> None:
    assert len(_renders()) == 133


@pytest.mark.parametrize("expected", _renders())
def test_sample_render_is_byte_identical(expected: dict[str, Any]) -> None:
    ir = {"tools": [sample_renders()["tool"]]}
    text = render_block(ir, expected["format_id"])
    assert text == expected["text"]
    assert INSTRUCTIONS[expected["default_protocol"]] == expected["instructions"]
    assert tokens_estimate(text) == expected["tokens_estimate"]
    assert len(text) == expected["chars"] or STALE_CHARS.get(expected["format_id"]) == expected["chars"]


@pytest.mark.parametrize("format_id", ["xml_schema", "names_then_schema", "typescript_compact"])
def test_the_format_sample_is_the_fixtures_render(format_id: str) -> None:
    expected = next(r for r in sample_renders()["renders"] if r["format_id"] == format_id)
    sample = format_sample(format_id)
    assert (sample["text"], sample["instructions"], sample["tokens_estimate"]) == (
        expected["text"],
        expected["instructions"],
        expected["tokens_estimate"],
    )
    assert ("note" in sample) is expected["two_stage"]
