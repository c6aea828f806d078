"""The benchmark corpus of benches/src/corpus.rs, written the same way (the same
xorshift seed and steps), and the dataclass flow-gen writes for its record.
`python corpus.py --check` prints its size and decodes it."""

from __future__ import annotations

import dataclasses
import sys
from decimal import Decimal
from pathlib import Path

import flow_toolkit

LISTING = (Path(__file__).resolve().parents[1] / "corpus.tools.json").read_text(encoding="utf-8")
MASK = (1 << 64) - 1

WORDS = [
    "Zürich", "東京", "naïve", "line\\nbreak", "tab\\there", 'quote\\"d', "emoji 🌧", "plain", "Ελλάδα",
    "\\u00e9t\\u00e9", "back\\\\slash", "ascii",
]


class XorShift:
    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        x = self.state
        x ^= (x << 13) & MASK
        x ^= x >> 7
        x ^= (x << 17) & MASK
        self.state = x
        return x

    def below(self, n: int) -> int:
        return self.next() % n

    def digits(self, n: int) -> str:
        out = [chr(ord("1") + self.below(9))]
        out += [chr(ord("0") + self.below(10)) for _ in range(1, n)]
        return "".join(out)


def corpus(count: int) -> str:
    """A JSON array of `count` records, with whitespace and unsorted keys."""
    rng = XorShift(0x9E3779B97F4A7C15)
    out = ["[\n"]
    for i in range(count):
        if i > 0:
            out.append(",\n")
        small = rng.below(100_000)
        big = rng.digits(30)
        decimal = f"{rng.digits(10)}.{rng.digits(12)}"
        name = WORDS[rng.below(len(WORDS))]
        note = WORDS[rng.below(len(WORDS))]
        out.append(
            f'  {{"name": "{name} {i}", "id": {small}, "serial": {big}, "reading": {decimal}, '
            f'"tags": ["{note}", "t{small}"]'
        )
        out.append(', "matrix": [')
        for r in range(3):
            if r > 0:
                out.append(", ")
            out.append(f"[{rng.below(1000)}, {rng.digits(18)}, -{rng.below(50)}]")
        out.append("]")
        if rng.below(2) == 0:
            out.append(f', "comment": "{note} ✓"')
        if rng.below(3) == 0:
            out.append(f', "delta": -{rng.below(100)}.{rng.digits(6)}0')
        out.append("}")
    out.append("\n]\n")
    return "".join(out)


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Reading:
    """What `flow-gen --lang python` writes for the corpus's record."""

    name: str
    id: int
    serial: int
    reading: Decimal
    tags: flow_toolkit.FlowSet[str]
    matrix: list[tuple[int, int, int]]
    comment: str | None = None
    delta: Decimal | None = None


CODEC = flow_toolkit.Codec(LISTING, {"github.com/flow-toolkit/bench@0.1.0/corpus.flow.Reading": Reading})
READINGS = CODEC.type_of('{"List": {"Named": {"declaration": "1", "args": []}}}')

if __name__ == "__main__" and "--check" in sys.argv:
    text = corpus(20_000)
    print(len(text.encode()), "bytes;", len(READINGS.decode(text)), "records")
