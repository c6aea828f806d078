"""The Python checker of the cross-language agreement run (``flow-crosslang``,
``testkit/src/agreement.rs`` describes the files): decodes and re-encodes every
value, and canonicalizes every JSON text, through ``flow_toolkit``'s public API
only. For one type in ``GENERATED_EVERY``, the values also go through the
classes of a package ``flow-gen --lang python`` writes for its listing (its
``metadata.CODEC``), so generated names and classes are held to the same
bytes. Usage: ``agree.py DIR``."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from flow_toolkit import FlowError, TypeCodec, canonical, codec_for

# A listing with nothing in it: json.Value needs no declarations.
EMPTY = '{"data":"0.1","declarations":{},"tools":[]}'

Result = dict[str, Any]

# One type in this many also goes through a generated package: flow-gen runs
# once per such type.
GENERATED_EVERY = 10
FLOW_GEN = Path(sys.executable).parent / "flow-gen"


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


def made(listing: str, term: str) -> TypeCodec:
    """The codec of ``term`` with classes made at run time (``codec_for``)."""
    return codec_for(listing).type_of(term)


def generated(directory: Path, index: int, listing: str, term: str) -> TypeCodec:
    """The codec of ``term`` in a package flow-gen writes for ``listing``."""
    package = f"crosslang{index}_tools"
    source = directory / "generated" / f"{package}.json"
    source.parent.mkdir(exist_ok=True)
    source.write_text(listing, encoding="utf-8")
    run = subprocess.run(
        [str(FLOW_GEN), "--lang", "python", str(source), "--out", str(source.parent / package), "--no-manifest"],
        capture_output=True, text=True, check=False,
    )
    if run.returncode != 0:
        raise RuntimeError(f"flow-gen: {run.stderr}")
    if str(source.parent) not in sys.path:
        sys.path.insert(0, str(source.parent))
    metadata = importlib.import_module(f"{package}.metadata")
    codec: TypeCodec = metadata.CODEC.type_of(term)
    return codec


def values(directory: Path) -> None:
    with (directory / "values.jsonl").open(encoding="utf-8") as cases, \
            (directory / "values.python.jsonl").open("w", encoding="utf-8") as out:
        for index, line in enumerate(cases):
            case = json.loads(line)
            makers: list[Callable[[], TypeCodec]] = [partial(made, case["listing"], case["type"])]
            if index % GENERATED_EVERY == 0:
                makers.append(partial(generated, directory, index, case["listing"], case["type"]))
            codecs: list[TypeCodec | str] = []
            for make in makers:
                try:
                    codecs.append(make())
                except Exception as e:  # noqa: BLE001
                    codecs.append(f"codec: {type(e).__name__}: {e}")
            results: list[Result] = []
            for text in case["texts"]:
                for codec in codecs:
                    if isinstance(codec, str):
                        results.append({"crash": codec})
                    else:
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
