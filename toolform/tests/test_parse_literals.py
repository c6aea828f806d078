"""Balanced spans found by jumping to the characters that matter read exactly as a walk of every character.

The walk below is the plain reading (one character at a time); the parser's
``balanced_end`` and ``spans`` must agree with it on every seeded text, brackets,
quotes, escapes and apostrophes mixed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from toolform.parse.literals import balanced_end, spans

_CLOSERS = {"{": "}", "[": "]", "(": ")"}


def _walked_end(text: str, start: int) -> int:
    stack = [_CLOSERS[text[start]]]
    quote = ""
    i = start + 1
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            if ch == '"' or not (text[i - 1 : i].isalnum() and text[i + 1 : i + 2].isalnum()):
                quote = ch
        elif ch in _CLOSERS:
            stack.append(_CLOSERS[ch])
        elif ch in ")]}":
            if ch != stack[-1]:
                return -1
            stack.pop()
            if not stack:
                return i + 1
        i += 1
    return -1


def _walked_spans(text: str, openers: str) -> Iterator[tuple[int, int]]:
    i = 0
    while i < len(text):
        if text[i] in openers:
            end = _walked_end(text, i)
            if end > 0:
                yield i, end
                i = end
                continue
        i += 1


def _texts(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    alphabet = list("{}[]()\"'\\") + ["a", "1", " ", ",", ":", "it's", '{"a": 1}', "é"]
    for _ in range(count):
        yield "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))


def test_balanced_end_agrees_with_the_walk_at_every_opener() -> None:
    checked = 0
    for text in _texts(7, 4000):
        for start, ch in enumerate(text):
            if ch in _CLOSERS:
                assert balanced_end(text, start) == _walked_end(text, start), (text, start)
                checked += 1
    assert checked > 10_000


def test_spans_agree_with_the_walk() -> None:
    found = 0
    for text in _texts(11, 4000):
        for openers in ("{[", "{", "([{"):
            expected = list(_walked_spans(text, openers))
            assert list(spans(text, openers)) == expected, (text, openers)
            found += len(expected)
    assert found > 1000
