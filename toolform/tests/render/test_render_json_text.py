"""indented_json writes what json.dumps with an indent writes, character for character."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from toolform.render.values import indented_json

_STRINGS = ["", "a", 'q"uote', "back\\slash", "tab\tline\nbreak", "Naïve café, 東京", "\u2028", "\x00", "😀"]


def _value(rng: random.Random, depth: int) -> Any:
    choice = rng.randrange(10 if depth < 4 else 6)
    if choice == 0:
        return rng.choice(_STRINGS)
    if choice == 1:
        return rng.choice([0, -1, 7, 10**30, True, False, None])
    if choice == 2:
        return rng.choice([0.5, -0.0, 1e300, 1.5e-7, float("nan"), float("inf"), float("-inf")])
    if choice in (3, 4, 5):
        return rng.choice(_STRINGS) + str(rng.randrange(100))
    if choice in (6, 7):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    if choice == 8:
        return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(3)))
    return {rng.choice(_STRINGS) + str(i): _value(rng, depth + 1) for i in range(rng.randrange(4))}


@pytest.mark.parametrize("seed", range(300))
def test_same_as_json_dumps(seed: int) -> None:
    rng = random.Random(seed)
    value = _value(rng, 0)
    for indent in (2, 4):
        for ensure_ascii in (True, False):
            assert indented_json(value, indent, ensure_ascii) == json.dumps(
                value, indent=indent, ensure_ascii=ensure_ascii
            )


def test_what_is_not_plain_json_is_left_to_json_dumps() -> None:
    assert indented_json({1: [None], "a": {2.5: True}}, 2) == json.dumps({1: [None], "a": {2.5: True}}, indent=2)
    with pytest.raises(TypeError):
        indented_json({"a": object()}, 2)


def test_subclasses_of_the_plain_types_are_written_as_json_dumps_writes_them() -> None:
    import enum
    from collections import OrderedDict

    class Level(enum.IntEnum):
        HIGH = 3

    class Name(str):
        pass

    value = OrderedDict([(Name("k"), [Level.HIGH, Name("v"), {"n": Name("w")}]), ("t", (1.5, float("nan")))])
    for ensure_ascii in (True, False):
        assert indented_json(value, 2, ensure_ascii) == json.dumps(value, indent=2, ensure_ascii=ensure_ascii)
