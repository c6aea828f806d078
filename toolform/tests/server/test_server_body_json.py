"""parse_body reads with orjson where it reads as json.loads does, and answers as before everywhere.

Seeded JSON texts full of what the two readers could read apart (numbers of every
spelling and size, escapes, surrogates, literals that are not JSON, byte order
marks, deep nesting) are held to the json.loads reading it replaces: the same
document, or the same refusal.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.exceptions import HTTPException
from toolform.server.exact_json import _ORJSON_DEEPEST, _parse_body_json, parse_body

_NUMBERS = ["0", "-0", "1", "-1", "0.1", "-0.0", "1e5", "1E-5", "2.5e+3", "1e400", "-1e400", "1e-400", "NaN",
            "Infinity", "-Infinity", "9223372036854775807", "9223372036854775808", "18446744073709551615",
            "18446744073709551616", "123456789012345678901234567890", "0.30000000000000004", "4.9e-324",
            "1.7976931348623157e308", "1.7976931348623159e308", "123456789012345678",
            "1234567890123456789"]  # fmt: skip
_STRINGS = ['"a"', '""', '"\\u00e9"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\udc00x"', '"é東"', '"\\n\\t\\"\\\\"',
            '"\\u0000"', '"12345678901234567890"', '"a\x01b"',
            '"\xed\xa0\x80"']  # fmt: skip


def _number(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(_NUMBERS)
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 22)))
    digits = digits.lstrip("0") or "0"
    if rng.random() < 0.5:
        digits += "." + "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 20)))
    if rng.random() < 0.3:
        digits += rng.choice("eE") + rng.choice(["", "+", "-"]) + str(rng.randint(0, 330))
    return rng.choice(["", "-"]) + digits


def _text(rng: random.Random, depth: int) -> str:
    choice = rng.randrange(7 if depth < 5 else 4)
    if choice == 0:
        return _number(rng)
    if choice == 1:
        return rng.choice(_STRINGS)
    if choice == 2:
        return rng.choice(["true", "false", "null"])
    if choice == 3:
        return _number(rng)
    if choice == 4:
        return "[" + ", ".join(_text(rng, depth + 1) for _ in range(rng.randrange(4))) + "]"
    members = (f"{rng.choice(_STRINGS)}: {_text(rng, depth + 1)}" for _ in range(rng.randrange(4)))
    return "{" + ",".join(members) + "}"


def _answer(read: Any, body: bytes) -> tuple[str, str]:
    try:
        return "read", repr(read(body))
    except HTTPException as refusal:
        return "refused", f"{refusal.status_code} {refusal.detail}"
    except (ValueError, RecursionError) as error:
        return "error", type(error).__name__


@pytest.mark.parametrize("seed", range(40))
def test_the_same_document_or_the_same_refusal(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import orjson

    read_by_orjson: list[bytes] = []
    orjson_loads = orjson.loads

    def counted(body: bytes) -> Any:
        document = orjson_loads(body)
        read_by_orjson.append(body)
        return document

    monkeypatch.setattr(orjson, "loads", counted)
    rng = random.Random(seed)
    for _ in range(100):
        body = _text(rng, 0).encode("utf-8", "surrogatepass")
        body = rng.choice([b"", b"", b" ", b"\xef\xbb\xbf"]) + body
        assert _answer(parse_body, body) == _answer(_parse_body_json, body), body
    # Both readings answered: orjson many bodies, json.loads the rest.
    assert 10 < len(read_by_orjson) < 90


def test_deep_and_wide_bodies_read_as_json_loads_reads_them() -> None:
    for depth in (_ORJSON_DEEPEST, _ORJSON_DEEPEST + 1, 900, 1000, 1100, 5000):
        body = ("[" * depth + "1" + "]" * depth).encode()
        assert _answer(parse_body, body) == _answer(_parse_body_json, body), depth
    wide = b"[" + b"1," * 10_000 + b"1]"
    assert _answer(parse_body, wide) == _answer(_parse_body_json, wide)


def test_many_brackets_nested_little_are_read_by_orjson_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolform.server.exact_json as exact_json

    # A long reply of brackets in a string, many shallow arrays, and nesting to the deepest orjson is given.
    deepest = "[" * (_ORJSON_DEEPEST - 1) + "1" + "]" * (_ORJSON_DEEPEST - 1)
    bodies = [json.dumps({"text": "{" * 100_000 + '"\\"[' * 1000}).encode(), b"[" + b"[1]," * 5000 + b"[1]]",
              f"[{deepest}, {'[], ' * 300}[]]".encode()]  # fmt: skip
    expected = [_answer(_parse_body_json, body) for body in bodies]

    def not_called(body: bytes) -> Any:
        raise AssertionError("read by json.loads")

    monkeypatch.setattr(exact_json, "_parse_body_json", not_called)
    for body, answer in zip(bodies, expected, strict=True):
        assert _answer(parse_body, body) == answer
