"""The Python checker of the cross-language agreement run (``flow-crosslang``,
``testkit/src/agreement.rs`` describes the files): decodes and re-encodes every
value, and canonicalizes every JSON text, through ``flow_toolkit``'s public API
only. Usage: ``agree.py DIR``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from flow_toolkit import FlowError, TypeCodec, canonical, codec_for

# A listing with nothing in it: json.Value needs no declarations.
EMPTY = '{"data":"0.1","declarations":{},"tools":[]}'

Result = dict[str, Any]


def attempt(f: Callable[[Any], str], data: Any) -> Result:
    """One answer, ``f(data)``: the text, the refusal's rule and path, or why it
    crashed (anything but a FlowError is a crash: a binding bug)."""
    try:
        return {"text": f(data)}
    except FlowError as e:
        return {"rule": e.rule, "path": e.path}
    except Exception as e:  # noqa: BLE001 - reported, never hidden
        return {"crash": f"{type(e).__name__}: {e}"}


def round_trip(codec: TypeCodec, data: str | bytes) -> str:
    return codec.encode(codec.decode(data))


def values(directory: Path) -> None:
    with (directory / "values.jsonl").open(encoding="utf-8") as cases, \
            (directory / "values.python.jsonl").open("w", encoding="utf-8") as out:
        for line in cases:
            case = json.loads(line)
            results: list[Result] = []
            try:
                codec = codec_for(case["listing"]).type_of(case["type"])
            except Exception as e:  # noqa: BLE001
                results = [{"crash": f"codec: {type(e).__name__}: {e}"}] * (2 * len(case["texts"]))
            else:
                for text in case["texts"]:
                    results.append(attempt(partial(round_trip, codec), text))
                    results.append(attempt(canonical, text))
            out.write(json.dumps({"results": results}) + "\n")


def texts(directory: Path) -> None:
    value = codec_for(EMPTY).type_of('"json.Value"')
    with (directory / "json.jsonl").open(encoding="utf-8") as cases, \
            (directory / "json.python.jsonl").open("w", encoding="utf-8") as out:
        for line in cases:
            data = bytes.fromhex(json.loads(line)["hex"])
            try:
                as_str: str | bytes = data.decode("utf-8")
            except UnicodeDecodeError:
                as_str = data  # no str holds it: bytes again
            results = [
                attempt(canonical, data),
                attempt(canonical, as_str),
                attempt(partial(round_trip, value), data),
            ]
            out.write(json.dumps({"results": results}) + "\n")


if __name__ == "__main__":
    directory = Path(sys.argv[1])
    values(directory)
    texts(directory)
