"""Python-style calls read without Python's parser give what the parser gives: seeded argument texts.

``_simple_call`` reads the commonest calls (keyword arguments of plain literals)
itself; whenever it reads one, the call and where it ends must be those of
``balanced_end`` and ``_read_call`` (Python's parser and ``python_value``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from toolform.loaders import load
from toolform.parse.literals import balanced_end
from toolform.parse.protocols import Context
from toolform.parse.protocols.python_calls import _read_call, _simple_call, python_calls

from support.parse_corpus import TOOLS

NAMES = ["city", "days", "a", "_x", "class", "True", "None", "__debug__", "match", "b2", "é", "if"]
LITERALS = [
    '"Denver"', '""', '"a, b=(c)"', '"it\'s"', '"x\\"y"', '"tab\there"', '"new\nline"', '"\x00"', '"東京"',
    '"\ud800"', '"class=1"', '"]"', "0", "3", "-7", "-0", "007", "00", "1_000", "1" * 45, "2.5", "0.10", "-2.5",
    "1.", ".5", "1e3", "3j", "-0.12345678901234567890123456789012", "0.12345678901234567890123456789012",
    "True", "False", "None", "true", "false", "null", "none", "TRUE", "Denver", "[1]", "{'a': 1}", "(1)",
]  # fmt: skip
SPACES = ["", " ", "  ", "\t", "\n", "\r", "\x0c"]


def _argument_texts(seed: int, count: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        parts = []
        for position in range(rng.randint(0, 4)):
            if position:
                parts.append(rng.choice([",", ", ", " ,", ";", ""]))
            space = rng.choice(SPACES)
            if rng.random() < 0.9:
                parts.append(f"{space}{rng.choice(NAMES)}{rng.choice(SPACES)}={rng.choice(SPACES)}")
            parts.append(rng.choice(LITERALS) + space)
        if rng.random() < 0.2:
            parts.append(",")
        yield "(" + "".join(parts) + rng.choice([")", ")", ")", "", ") tail"])


def test_simple_calls_read_as_python_reads_them() -> None:
    context = Context(load("openai", TOOLS).toolset)
    read = 0
    for text in _argument_texts(17, 20_000):
        simple = _simple_call("get_forecast", text, 0)
        if simple is None:
            continue
        read += 1
        end = balanced_end(text, 0)
        assert simple[1] == end, text
        expected = _read_call("get_forecast", text[:end], context)
        assert expected is not None, text
        assert repr(simple[0]) == repr(expected), text
    assert read > 2000


def test_replies_read_as_without_the_simple_path() -> None:
    context = Context(load("openai", TOOLS).toolset)
    rng = random.Random(23)
    texts = list(_argument_texts(29, 3000))
    for _ in range(500):
        reply = " and ".join(f"[get_forecast{rng.choice(texts)}]" for _ in range(rng.randint(1, 4)))
        found = python_calls(reply, context)
        calls = []
        i = 0
        while (start := reply.find("get_forecast(", i)) >= 0:
            end = balanced_end(reply, start + len("get_forecast"))
            call = _read_call("get_forecast", reply[start + len("get_forecast") : end], context) if end > 0 else None
            if call is None:
                i = start + len("get_forecast(")
                continue
            calls.append(call)
            i = end
        assert repr(found) == repr(calls), reply
