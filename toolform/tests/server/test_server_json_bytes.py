"""The fast JSON writers write exactly the bytes of the standard ones, or hand the value to them.

Seeded values of every JSON kind (floats of every magnitude, integers past 64
bits, control characters, non-ASCII text, deep nesting, keys that are not
text) and a guard report of generated catalogues are written both ways.
"""

from __future__ import annotations

import random
import struct
from typing import Any

import pytest
from toolform.guard import guard
from toolform.jsontext import dumps
from toolform.loaders import load
from toolform.server.exact_response import _orjson, exact_json_bytes, fast_json_bytes, json_bytes

from support.guard_generated import openai_tools, pool


def _float(rng: random.Random) -> float:
    kind = rng.randrange(3)
    if kind == 0:
        value: float = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
        return value if value == value and abs(value) != float("inf") else 0.5
    if kind == 1:
        return rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30)
    return round(rng.uniform(-1000, 1000), rng.randint(0, 6)) * 10.0 ** rng.randint(-12, 18)


def _text(rng: random.Random) -> str:
    pieces = ["a", "Z", " ", '"', "\\", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "\u2028", "日本", "😀",
              "e-5", "0.0000", "1e-07", "</script>"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return _float(rng)
    if kind == 1:
        return rng.choice([0, -1, 2**63 - 1, -(2**63), 2**64 - 1, 2**64, -(2**64) - 5, 10**30, rng.randint(-999, 999)])
    if kind == 2:
        return _text(rng)
    if kind == 3:
        return rng.choice([True, False, None])
    if kind in (4, 5):
        return _text(rng)
    if kind == 6:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if kind == 7:
        return {_text(rng): _value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    return {rng.choice([1, 2.5, True, None, "k"]): _value(rng, depth + 1)}


def _both(value: Any) -> tuple[object, object]:
    outcomes: list[object] = []
    for write in (fast_json_bytes, json_bytes):
        try:
            outcomes.append(write(value))
        except Exception as error:  # noqa: BLE001 - the same refusal is the point
            outcomes.append(type(error))
    return outcomes[0], outcomes[1]


@pytest.mark.parametrize("seed", range(4))
def test_seeded_values_are_written_as_json_bytes_writes_them(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(3000):
        value = _value(rng)
        fast, standard = _both(value)
        assert fast == standard, value


def test_deep_nesting_and_lone_surrogates_are_answered_as_before() -> None:
    deep: Any = 1
    for _ in range(400):
        deep = [deep]
    for value in (deep, {"a": "\ud800"}, ["x", 1e-05, 5e-324]):
        fast, standard = _both(value)
        assert fast == standard


def test_a_guard_report_is_written_byte_for_byte() -> None:
    prose = pool()
    tools = [tool for seed in range(20) for tool in openai_tools(seed, prose)]
    for index, tool in enumerate(tools):
        tool["function"]["name"] = f"tool_{index:04d}"
    loaded = load("openai", tools)
    report = guard(loaded.toolset, strictness="strict", action="strip").to_dict()
    written = fast_json_bytes(report)
    assert written == json_bytes(report) and len(written) > 10_000
    # Written by orjson, though its prose holds text like a short float ("X-Trace-9").
    assert _orjson(report) == written and b"X-Trace-9" in written


def test_text_that_looks_like_a_short_float_is_not_taken_for_one() -> None:
    texts: list[Any] = [{"a": "X-Trace-9"}, ["0.00001"], {"e-5": "1e-5,"}, ["v 0.0000 v"]]
    for value in texts:
        assert _orjson(value) == json_bytes(value)
    floats: list[Any] = [{"a": 1e-05}, [0.00001, "x"], 1.5e-9, {"a": [1, -2.5e-07]}]
    for value in floats:
        assert _orjson(value) is None and fast_json_bytes(value) == json_bytes(value)


def _standard_exact(content: Any) -> bytes:
    try:
        return json_bytes(content)
    except (TypeError, ValueError):
        return dumps(content).encode("utf-8")


@pytest.mark.parametrize("seed", range(4))
def test_the_exact_writer_writes_what_the_standard_writers_write_nan_and_decimals_too(seed: int) -> None:
    from decimal import Decimal

    rng = random.Random(seed)
    odd = [float("nan"), float("inf"), -float("inf"), Decimal("0.1000000000000000000001"), Decimal("1E+3"), None]
    for _ in range(3000):
        value = [_value(rng), rng.choice(odd)] if rng.random() < 0.3 else _value(rng)
        outcomes: list[object] = []
        for write in (exact_json_bytes, _standard_exact):
            try:
                outcomes.append(write(value))
            except Exception as error:  # noqa: BLE001 - the same refusal is the point
                outcomes.append(type(error))
        assert outcomes[0] == outcomes[1], value
