"""yaml_text.dump: the one walk that both checks and writes answers as the check-then-write it replaces.

A document holding what the writer does not imitate (``_exotic``) goes to PyYAML
whole; any other is written by ``_lines``. The answers kept for recurring texts
are the answers computed afresh.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]
from toolform.render import yaml_text
from toolform.render.yaml_text import _exotic, _lines, _pyyaml, dump

from support import yaml_values


@pytest.mark.parametrize("seed", range(400))
def test_dump_is_pyyaml_for_exotic_documents_and_the_writer_for_the_rest(seed: int) -> None:
    value = yaml_values.value(random.Random(seed))
    expected = _pyyaml(value, flow_style=False) if _exotic(value) else "\n".join(_lines(value, 0))
    assert dump(value) == expected


def _resolves_afresh(text: str) -> bool:
    resolvers = yaml.SafeDumper.yaml_implicit_resolvers
    return any(regexp.match(text) for _, regexp in resolvers.get(text[:1], []) + resolvers.get(None, []))


def test_kept_answers_are_the_fresh_ones() -> None:
    rng = random.Random(5)
    pieces = ["", " ", "1", "0x1F", "true", "No", "a", ": ", " #", "-", "#", "x" * 150, "~", "1:20", "=", "é"]
    texts: list[Any] = ["".join(rng.choice(pieces) for _ in range(rng.randrange(1, 4))) for _ in range(3000)]
    # Asked twice each, past the most the memo keeps, so that answers come both fresh and kept.
    for text in texts + texts[::-1] + [str(n) for n in range(yaml_text._KEPT_MOST + 10)]:
        assert yaml_text._resolves_to_another_type(text) == _resolves_afresh(text)
        assert yaml_text._needs_quotes(text) == yaml_text._needs_quotes_now(text)
    assert len(yaml_text._QUOTED) <= yaml_text._KEPT_MOST
    assert all(len(text) <= yaml_text._KEPT_LONGEST for text in yaml_text._RESOLVES)
