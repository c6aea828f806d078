"""Balanced spans found by jumping to the characters that matter read exactly as a walk of every character.

The walk below is the plain reading (one character at a time); the parser's
``balanced_end`` and ``spans`` must agree with it on every seeded text, brackets,
quotes, escapes and apostrophes mixed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from toolform.parse.literals import balanced_end, load_jsonish, loaded_spans, spans

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


def _json_texts(seed: int, count: int) -> Iterator[str]:
    """Texts of JSON values and near misses: trailing commas, single quotes, escapes, NaN, deep nesting, prose."""
    rng = random.Random(seed)
    pieces = [
        '{"a": 1}', '[1, 2.50, -0.0, 1e400]', '{"s": "x\\"y}", "t": "\\\\"}', '{"a": [1, {"b": null}],}',
        "{'a': 'b'}", '{"a": NaN}', '[Infinity]', '{"a": true, "b": false}', '{"c": "it\'s"}', "[" * 30 + "]" * 30,
        "[" * 1200 + "]" * 1200, '{"u": "\\ud800"}', '{"a": 1', "}", "]", "(", "Sure: ", " and ", "\n", "{", "[",
        '"', "'", "x", '{"a": "\u0001"}', '{"n": 12345678901234567890123, "f": 0.1000000000000000055511151231257827}',
    ]  # fmt: skip
    for _ in range(count):
        yield "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))


def test_loaded_spans_read_each_span_as_load_jsonish() -> None:
    read = 0
    for text in _json_texts(3, 1500):
        for openers in ("{[", "{"):
            expected = [(start, end, *load_jsonish(text[start:end])) for start, end in spans(text, openers)]
            found = list(loaded_spans(text, openers))
            assert repr(found) == repr(expected), (text, openers)
            read += sum(1 for _, _, ok, _ in found if ok)
    assert read > 1500
