"""Seeded random YAML documents full of what YAML quotes or escapes, for the YAML writers' tests."""

from __future__ import annotations

import random
from typing import Any

#: Pieces of strings: indicators at every place, words YAML reads as other types, quotes, spaces, non-ASCII,
#: controls, line breaks, a byte order mark, private and astral characters.
PIECES = [
    "", "a", "word", " ", "  ", "-", "- ", "--", "---", "...", "?", ":", ": ", "#", " #", "#x", ",", "[", "]",
    "{", "}", "&", "*", "!", "|", ">", "'", '"', "%", "@", "`", "true", "No", "null", "~", "1", "-2", "0x1F",
    "1:20", "1e3", "1.5", ".inf", "=", "<<", "2001-12-14", "café", "東京", "😀", "\xa0", "\x7f", "\x85",
    "\t", "\n", "\x00", "\ufeff", "\ue000", "\u2028", "\u2029", "\u2000", "\U0010ffff", "\U000e0001", "x" * 40,
]


def text(rng: random.Random) -> str:
    """One to three pieces joined."""
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 4)))


def value(rng: random.Random, depth: int = 0) -> Any:
    """A document: strings of pieces, numbers at the edges, lists and mappings nested up to five deep."""
    choice = rng.randrange(9 if depth < 4 else 5)
    if choice in (0, 1):
        return text(rng)
    if choice == 2:
        return rng.choice([0, -1, 7, 10**30, True, False, None])
    if choice == 3:
        return rng.choice([0.5, -0.0, 1e300, 1.5e-7, 123456.789, float("nan"), float("inf"), float("-inf")])
    if choice == 4:
        return rng.choice([[], {}])
    if choice in (5, 6):
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {text(rng) + str(i) * rng.choice([1, 1, 1, 120]): value(rng, depth + 1) for i in range(rng.randrange(4))}
