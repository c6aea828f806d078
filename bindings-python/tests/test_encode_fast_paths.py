"""The encoder's fast paths (ints and Decimals read without their str, the
result built as a str of the right kind) against a plain reference: the same
text, a str equal to Python's own, and the same refusals."""

from __future__ import annotations

import json
import random
from decimal import Decimal, localcontext
from typing import Any

import pytest

import flow_toolkit

EMPTY = json.dumps({"data": "0.1", "tools": [], "declarations": {}})
C = flow_toolkit.codec_for(EMPTY)


def at(term: Any) -> flow_toolkit.TypeCodec:
    return C.type_of(json.dumps(term))


def plain(d: Decimal) -> str:
    """Canonical number text, the slow and obvious way (exact: no context)."""
    text = format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "0") else text


def random_decimals(count: int) -> list[Decimal]:
    rng = random.Random(7)
    out = []
    for _ in range(count):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 90)))
        sign = rng.choice(["", "-"])
        exponent = rng.randint(-120, 120)
        out.append(Decimal(f"{sign}{digits}E{exponent}"))
    return out


EDGE_DECIMALS = [
    "0", "-0", "0E+9", "-0E-9", "0.000", "1", "-1", "10", "1.0", "1.50", "100E-2", "1E+3", "-1E+3",
    "9999999999999999999", "10000000000000000000", "-10000000000000000000.0000000000000000000",
    "0.1234567890123456789", "1234567890123456789.1234567890123456789012345678901234567890",
    "1" * 76, "1" * 77, "9" * 76 + "E-40", "4.2E-30", "-7.000E+2",
]


@pytest.mark.parametrize("text", EDGE_DECIMALS)
def test_edge_decimals(text: str) -> None:
    d = Decimal(text)
    assert at("Decimal").encode(d) == plain(d)


def test_random_decimals_match_the_reference() -> None:
    values = random_decimals(3000)
    assert at({"List": "Decimal"}).encode(values) == "[" + ",".join(plain(d) for d in values) + "]"


def test_decimals_made_by_arithmetic() -> None:
    with localcontext() as ctx:
        ctx.prec = 200
        values = [Decimal(1) / Decimal(7), Decimal(2).sqrt(), Decimal("1e-100") * 3, Decimal(10) ** 60]
    assert at({"List": "Decimal"}).encode(values) == "[" + ",".join(plain(d) for d in values) + "]"


def test_a_decimal_subclass_takes_the_checked_path() -> None:
    class Money(Decimal):
        pass

    assert at("Decimal").encode(Money("12.50")) == "12.5"


@pytest.mark.parametrize("text", ["1E+5000", "-1E-5000", "1" * 4301])
def test_decimals_past_the_digit_limit_are_refused(text: str) -> None:
    with pytest.raises(flow_toolkit.EncodeError) as refused:
        at({"List": "Decimal"}).encode([Decimal(1), Decimal(text)])
    assert refused.value.path == "$[1]"
    assert "digits" in refused.value.reason


@pytest.mark.parametrize("text", ["NaN", "-sNaN", "Infinity", "-Infinity"])
def test_decimals_that_are_no_number_are_refused(text: str) -> None:
    with pytest.raises(flow_toolkit.EncodeError, match="no number"):
        at("Decimal").encode(Decimal(text))


def test_a_float_is_refused_where_a_decimal_is_declared() -> None:
    with pytest.raises(flow_toolkit.EncodeError, match="float"):
        at({"List": "Decimal"}).encode([Decimal("1.5"), 1.5])


EDGE_INTS = [
    0, 1, -1, 9, 10, 99, 100, 2**31, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**64, -(2**64),
    10**19, 10**20 - 1, 2**127 - 1, -(2**127), 2**127, -(2**127) - 1, 2**128, 10**38, 10**39, 10**60,
    -(10**60) + 1,
]


def test_ints_of_every_size() -> None:
    assert at({"List": "Int"}).encode(EDGE_INTS) == "[" + ",".join(map(str, EDGE_INTS)) + "]"
    rng = random.Random(3)
    values = [rng.randint(-(2**200), 2**200) >> rng.randint(0, 200) for _ in range(3000)]
    assert at({"List": "Int"}).encode(values) == "[" + ",".join(map(str, values)) + "]"


def test_int_subclasses_and_bools() -> None:
    import enum

    class Level(enum.IntEnum):
        HIGH = 2**70

    assert at("Int").encode(Level.HIGH) == str(2**70)
    with pytest.raises(flow_toolkit.EncodeError, match="bool"):
        at("Int").encode(True)


@pytest.mark.parametrize(
    "text",
    ["", "ascii only", "Zürich", "ÿ" * 40, "東京" * 20, "emoji 🌧 late " * 9 + "🌧", "a\nb\"c\\d\x01", "é東🌧" * 30],
)
def test_text_of_each_kind_is_a_proper_str(text: str) -> None:
    for value, term in ((text, "Text"), ([text, "x" * 37, text], {"List": "Text"})):
        encoded = at(term).encode(value)
        expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        assert type(encoded) is str
        assert encoded == expected
        assert len(encoded) == len(expected)
        assert hash(encoded) == hash(expected)
        assert {encoded: 1}[expected] == 1


@pytest.mark.parametrize("alphabet", ["é", "é東", "é東🌧", "ÿ🌧", "東"])
def test_random_text_mixing_ascii_runs_and_wider_characters(alphabet: str) -> None:
    rng = random.Random(alphabet)
    values = []
    for _ in range(300):
        parts = []
        for _ in range(rng.randint(0, 12)):
            parts.append("a" * rng.randint(0, 40))
            parts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3))))
        values.append("".join(parts))
    encoded = at({"List": "Text"}).encode(values)
    expected = json.dumps(values, ensure_ascii=False, separators=(",", ":"))
    assert encoded == expected
    assert hash(encoded) == hash(expected)
