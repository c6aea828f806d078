"""A list is decoded item by item (each item's trees made, built in Python and
freed before the next is read); `TypeCodec._decode_whole` reads the whole
text into one tree first. Both must give the same outcome on everything: the
same value, or the same refusal (class, rule, path, message), on every shared
vector, on each vector's input as items of a list, and on random lists with
random damage (a syntax error, an item of the wrong type, both)."""

from __future__ import annotations

import dataclasses
import json
import random
from decimal import Decimal
from typing import Any

import pytest
from test_vectors import cases, codec

import flow_toolkit
from conftest import REPO

CORPUS_LISTING = (REPO / "benches" / "corpus.tools.json").read_text(encoding="utf-8")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    name: str
    id: int
    serial: int
    reading: Decimal
    tags: flow_toolkit.FlowSet[str]
    matrix: list[tuple[int, int, int]]
    comment: str | None = None
    delta: Decimal | None = None


READINGS = flow_toolkit.Codec(
    CORPUS_LISTING, {"github.com/flow-toolkit/bench@0.1.0/corpus.flow.Reading": Reading}
).type_of('{"List": {"Named": {"declaration": "1", "args": []}}}')


def outcome(run: Any, data: str | bytes, **limits: int) -> tuple[str, Any]:
    """What a decode gives: the value's canonical text and the value itself,
    or the refusal's class, rule, path and message."""
    try:
        value = run(data, **limits)
    except flow_toolkit.FlowError as refused:
        return "refused", (type(refused).__name__, refused.rule, refused.path, str(refused))
    return "value", value


def same_outcome(codec_: flow_toolkit.TypeCodec, data: str | bytes, **limits: int) -> None:
    fast = outcome(codec_.decode, data, **limits)
    slow = outcome(codec_._decode_whole, data, **limits)
    assert fast[0] == slow[0], (fast, slow)
    if fast[0] == "value":
        # The same Python form (classes, field values, set and map order),
        # and the same canonical text; `==` is not defined for every value
        # (a host token has no order, so a FlowMap holding one cannot compare).
        assert type(fast[1]) is type(slow[1])
        assert repr(fast[1]) == repr(slow[1])
        assert codec_.encode(fast[1]) == codec_.encode(slow[1])
    else:
        assert fast == slow


def vector_input(case: dict[str, Any]) -> str | bytes:
    return case["input"] if "input" in case else bytes.fromhex(case["input_hex"])


def codec_or_none(listing_text: str, term: Any) -> flow_toolkit.TypeCodec | None:
    try:
        return codec(listing_text).type_of(json.dumps(term))
    except flow_toolkit.DecodeError:
        return None  # a type refused before any value: no decode to compare


@pytest.mark.parametrize(("listing_text", "case"), cases("decode"))
def test_every_vector_decodes_alike(listing_text: str, case: dict[str, Any]) -> None:
    type_codec = codec_or_none(listing_text, case["type"])
    if type_codec is not None:
        same_outcome(type_codec, vector_input(case), **case.get("limits", {}))


@pytest.mark.parametrize(("listing_text", "case"), cases("decode"))
def test_every_vector_as_list_items_decodes_alike(listing_text: str, case: dict[str, Any]) -> None:
    type_codec = codec_or_none(listing_text, {"List": case["type"]})
    data = vector_input(case)
    if type_codec is None or isinstance(data, bytes):
        return
    # The item twice, and between good and bad neighbours: a refusal in one
    # item must win over what came before and after it, as in the whole tree.
    for text in (f"[{data}]", f"[{data}, {data}]", f"[\n{data},\n{data}\n]", f"[{data}, {{]", f"[{data}, 1e5000]"):
        same_outcome(type_codec, text, **case.get("limits", {}))


def random_record(rng: random.Random, i: int) -> dict[str, Any]:
    record: dict[str, Any] = {
        "name": rng.choice(["Zürich", "東京", "emoji 🌧", "a\nb", 'q"d', "plain"]) + f" {i}",
        "id": rng.randint(-(10**6), 10**6),
        "serial": int("".join(rng.choice("0123456789") for _ in range(rng.randint(1, 40)))),
        "reading": f"{rng.randint(0, 10**12)}.{rng.randint(0, 10**9):09d}",
        "tags": sorted({rng.choice("abcdef") for _ in range(rng.randint(0, 4))}),
        "matrix": [[rng.randint(-99, 99) for _ in range(3)] for _ in range(rng.randint(0, 3))],
    }
    if rng.random() < 0.5:
        record["comment"] = rng.choice(["ok ✓", "", "x"])
    if rng.random() < 0.3:
        record["delta"] = f"-{rng.randint(0, 99)}.{rng.randint(0, 999999)}0"
    return record


def record_text(record: dict[str, Any]) -> str:
    parts = []
    for key, value in record.items():
        if key in ("reading", "delta"):
            parts.append(f'"{key}": {value}')  # the number as written, not as a float
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{" + ", ".join(parts) + "}"


DAMAGE = [
    lambda r: r.update(id="7"),  # a string where an Int is declared
    lambda r: r.update(tags=["a", "a"]),  # a duplicate Set element
    lambda r: r.pop("name"),  # a missing field
    lambda r: r.update(matrix=[[1, 2]]),  # a tuple of the wrong length
    lambda r: r.update(extra=1),  # a member the record does not have
]


@pytest.mark.parametrize("seed", range(40))
def test_random_lists_decode_alike(seed: int) -> None:
    rng = random.Random(seed)
    records = [random_record(rng, i) for i in range(rng.randint(0, 30))]
    if records and seed % 3:
        rng.choice(DAMAGE)(records[rng.randrange(len(records))])
    text = "[" + ",\n".join(record_text(r) for r in records) + "]"
    same_outcome(READINGS, text)
    if text != "[]":
        # Broken text after the items (or inside them): the text's refusal
        # comes first, whatever the items were.
        cut = rng.randrange(1, len(text))
        same_outcome(READINGS, text[:cut])
        same_outcome(READINGS, text[:cut] + "]" + text[cut:])
    same_outcome(READINGS, text, max_depth=3)
    same_outcome(READINGS, text, max_digits=20)


def test_a_list_of_lists_and_options_decodes_alike() -> None:
    empty = flow_toolkit.codec_for(json.dumps({"data": "0.1", "tools": [], "declarations": {}}))
    rng = random.Random(11)
    for term in ({"List": {"List": "Int"}}, {"List": {"Option": "Text"}}, {"List": "Decimal"}, {"List": "json.Value"}):
        type_codec = empty.type_of(json.dumps(term))
        for _ in range(30):
            items = []
            for _ in range(rng.randint(0, 8)):
                items.append(rng.choice(["[]", "[1, 2]", "null", '"x"', "1.5", "{}", '{"a": [1]}', "-0", "[[]]"]))
            same_outcome(type_codec, "[" + ", ".join(items) + "]")


def test_the_corpus_decodes_alike_to_dataclasses() -> None:
    rng = random.Random(5)
    text = "[" + ",".join(record_text(random_record(rng, i)) for i in range(500)) + "]"
    fast = READINGS.decode(text)
    assert len(fast) == 500 and all(type(r) is Reading for r in fast)
    assert fast == READINGS._decode_whole(text)
