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


@pytest.mark.parametrize("unit", ["\\\\", "\\a", '"\\"', "a\\ ", "'\\'"])
def test_a_long_word_of_escapes_is_read_once(unit: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    from toolform.parse.protocols import line_calls

    # shlex added each character to a copy of the word so far: a word of 100,000 escapes took seconds.
    line = unit * 50_000
    words = line_calls._SHELL_WORD
    read: list[int] = []

    class Counted:
        def match(self, text: str, position: int) -> re.Match[str] | None:
            found = words.match(text, position)
            read.append((found.end() if found is not None else position) - position + 1)
            return found

    expected = _shlex(unit * 50)  # shlex's answer for a short line of the same unit, scaled

    def character_at_a_time(line: str) -> list[str]:
        raise AssertionError("read by shlex's loop")

    monkeypatch.setattr(shlex, "split", character_at_a_time)
    monkeypatch.setattr(line_calls, "_SHELL_WORD", Counted())
    answer: list[str] | str
    try:
        answer = line_calls._shell_words(line)
    except ValueError as error:
        answer = f"ValueError: {error}"
    if isinstance(expected, str):
        assert answer == expected
    else:
        assert answer == [word * 1000 for word in expected]
    assert sum(read) <= len(line) + len(read), sum(read)
