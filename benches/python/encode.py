"""Canonical encoding of the 20,000 decoded records: flow_toolkit vs a correct
pure-Python encoder (json with Decimal, plain decimal notation, sorted keys,
sets sorted, None fields left out) and vs orjson.dumps(OPT_SORT_KEYS), which is
not canonical and is lossy: it refuses Decimal and ints past 64 bits, so it
gets the nearest data it accepts (Decimals and 30-digit ints as floats)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import orjson
from corpus import READINGS, Reading, corpus
from timing import REPEAT, best_ms_each, record, row


def plain(d: Decimal) -> str:
    """Decimal in canonical number text: no exponent, no trailing zeros."""
    text = format(d.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def to_json(value: Any) -> Any:
    if isinstance(value, Reading):
        fields = {
            "name": value.name, "id": value.id, "serial": value.serial, "reading": value.reading,
            "tags": sorted(value.tags), "matrix": [list(m) for m in value.matrix],
            "comment": value.comment, "delta": value.delta,
        }
        return {k: to_json(v) for k, v in fields.items() if v is not None}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    return value


def write(value: Any, out: list[str]) -> None:
    """Canonical text: sorted keys, no whitespace, exact plain numbers; strings
    escaped as json.dumps does with ensure_ascii=False (the canonical escapes)."""
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, Decimal):
        out.append(plain(value))
    elif isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, list):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            write(item, out)
        out.append("]")
    else:
        out.append("{")
        for i, key in enumerate(sorted(value)):
            if i:
                out.append(",")
            out.append(json.dumps(key, ensure_ascii=False))
            out.append(":")
            write(value[key], out)
        out.append("}")


def pure_python(records: list[Reading]) -> str:
    out: list[str] = []
    write(to_json(records), out)
    return "".join(out)


def main() -> None:
    records = READINGS.decode(corpus(20_000))
    canonical = READINGS.encode(records)
    size = len(canonical.encode())
    assert pure_python(records) == canonical, "the pure-Python encoder must agree byte for byte"
    lossy = [
        {k: float(v) if isinstance(v, Decimal) or (isinstance(v, int) and abs(v) >= 2**63) else v
         for k, v in r.items()}
        for r in to_json(records)
    ]
    print(f"20,000 records, canonical text {size:,} bytes; best of {REPEAT} runs, CPU time;")
    print("flow_toolkit and orjson in turns, the pure-Python encoder (slow: it would cool their caches) apart")
    ours = "flow_toolkit TypeCodec.encode (canonical)"
    theirs = "orjson.dumps(OPT_SORT_KEYS) on lossy dicts (not canonical)"
    best = best_ms_each({
        ours: lambda: READINGS.encode(records),
        theirs: lambda: orjson.dumps(lossy, option=orjson.OPT_SORT_KEYS),
    })
    pure = "pure Python encoder, exact Decimals, sorted (canonical)"
    best |= best_ms_each({pure: lambda: pure_python(records)})
    for what, ms in best.items():
        row(what, ms, size)
    print(f"flow_toolkit's time / orjson's: {best[ours] / best[theirs]:.2f}x")
    for id, what in (("flow", ours), ("orjson", theirs), ("pure", pure)):
        record("py.encode", id, what, "ms", best[what], bytes=size)

if __name__ == "__main__":
    main()
