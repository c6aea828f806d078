"""Command lines split without shlex's loop split as shlex splits them: seeded lines of quotes and spaces."""

from __future__ import annotations

import random
import shlex

import pytest
from toolform.parse.protocols.line_calls import _shell_words

PIECES = [
    "get_forecast", "--city", "--days", "=", "Denver", '"Denver"', '"New York"', "''", '""', "'it'", '"it\'s"',
    "'a \"b\" c'", '"', "'", "\\", '"a\\"b"', " ", "  ", "\t", "\r", "\n", "\x0b", "\u00a0", "#", "$", "é東", "a=b",
    '--city="Den ver"', "|", ";", "&&",
]  # fmt: skip


def _shlex(line: str) -> list[str] | str:
    try:
        return shlex.split(line)
    except ValueError as error:
        return f"ValueError: {error}"


def test_lines_split_as_shlex_splits_them() -> None:
    rng = random.Random(31)
    split = 0
    for _ in range(20_000):
        line = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 10)))
        expected = _shlex(line)
        if isinstance(expected, str):
            with pytest.raises(ValueError):
                _shell_words(line)
            continue
        assert _shell_words(line) == expected, line
        split += 1
    assert split > 10_000
