"""Typed decoding of the 20,000-record corpus into generated dataclasses
(flow_toolkit) vs pydantic v2's TypeAdapter(list[Model]).validate_json on the
same JSON, and what each does with a 22-digit decimal."""

from __future__ import annotations

from decimal import Decimal

import pydantic
from corpus import READINGS, corpus
from timing import REPEAT, best_ms_each, record, row


class Model(pydantic.BaseModel):
    name: str
    id: int
    serial: int
    reading: Decimal
    tags: frozenset[str]
    matrix: list[tuple[int, int, int]]
    comment: str | None = None
    delta: Decimal | None = None


def main() -> None:
    text = corpus(20_000)
    data = text.encode()
    adapter = pydantic.TypeAdapter(list[Model])
    print(f"corpus: 20,000 records, {len(data):,} bytes; best of {REPEAT} runs each, in turns, CPU time")
    ours = "flow_toolkit TypeCodec.decode (List<Reading> -> dataclasses)"
    theirs = "pydantic TypeAdapter(list[Model]).validate_json"
    best = best_ms_each({
        ours: lambda: READINGS.decode(data),
        theirs: lambda: adapter.validate_json(data),
    })
    for what, ms in best.items():
        row(what, ms, len(data))
    record("py.decode", "flow", ours, "ms", best[ours], bytes=len(data))
    record("py.decode", "pydantic", theirs, "ms", best[theirs], bytes=len(data))
    exact = '[{"name":"x","id":1,"serial":1,"reading":0.7309454633826060586516,"tags":[],"matrix":[]}]'
    print("0.7309454633826060586516 read by flow_toolkit:", READINGS.decode(exact)[0].reading)
    print("0.7309454633826060586516 read by pydantic:    ", adapter.validate_json(exact)[0].reading)


if __name__ == "__main__":
    main()
