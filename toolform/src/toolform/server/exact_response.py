"""JSON responses as the routes write them: Starlette's JSONResponse bytes, and Decimals with every digit."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from fastapi.responses import JSONResponse

from toolform.jsontext import dumps


def json_bytes(content: Any) -> bytes:
    """``content`` as Starlette's ``JSONResponse`` writes it, and a lone surrogate as its JSON escape.

    A reply's text may hold an escaped lone surrogate (``"\\ud800"``) that its JSON reading turns into one;
    UTF-8 cannot carry it, so it is written back as the escape it came as.
    """
    return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode(
        "utf-8", "backslashreplace"
    )


#: What orjson refuses, so that the standard writer answers it as it always did: dataclasses, dates and
#: subclasses of str, int, dict and list, which the standard writer reads otherwise or not at all.
_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
#: The only floats orjson writes otherwise than Python's repr are below 1e-4 (Python: 1e-05, orjson: 0.00001
#: or 1e-5). These find where one could be; text in a string ("X-Trace-9") is told apart by what is around it.
#: Two searches, not one alternation, which the regular expression engine tries at every byte.
_ONE_DIGIT_NEGATIVE_EXPONENT = re.compile(rb"e-[1-9](?![0-9])")
_FIVE_PLACES = re.compile(rb"0\.0000")
_NUMBER_BYTES = frozenset(b"0123456789.eE+-")


def _is_number_token(written: bytes, start: int, end: int) -> bool:
    """Whether the bytes around ``written[start:end]`` are a whole number of the JSON text, not part of a string."""
    while start > 0 and written[start - 1] in _NUMBER_BYTES:
        start -= 1
    while end < len(written) and written[end] in _NUMBER_BYTES:
        end += 1
    # Outside a string a number follows ":", "," or "[" and ends at ",", "]" or "}"; text inside a string
    # that looks so is taken for a number, which only sends the value to the standard writer.
    return (start == 0 or written[start - 1] in b":,[") and (end == len(written) or written[end] in b",]}")


def _orjson(content: Any) -> bytes | None:
    """``content`` written by orjson, or None where orjson refuses it or wrote a float otherwise than repr."""
    try:
        written = orjson.dumps(content, option=_ORJSON_OPTIONS)
    except TypeError:  # an integer beyond 64 bits, a Decimal, a key that is not text, ...
        return None
    for pattern in (_FIVE_PLACES, _ONE_DIGIT_NEGATIVE_EXPONENT):
        for found in pattern.finditer(written):
            if _is_number_token(written, found.start(), found.end()):
                return None
    return written


def fast_json_bytes(content: Any) -> bytes:
    """``json_bytes(content)``, byte for byte, written by orjson where it writes the same.

    For a value holding no non-finite float only: orjson writes NaN and infinities as null, where
    ``json_bytes`` refuses them. A route's answer made from a request body read by ``parse_body``
    (which refuses them) and from the SDK's text, integers and booleans holds none.
    """
    return _orjson(content) or json_bytes(content)


def exact_json_bytes(content: Any) -> bytes:
    """``content`` as ``json_bytes`` writes it, and a Decimal with its own digits (``toolform.jsontext.dumps``)."""
    written = _orjson(content)
    # A NaN or an infinity is written by orjson as null: where a null is written, the writers below decide.
    if written is not None and b"null" not in written:
        return written
    # The C encoder writes the same text for every value but a Decimal (or a non-finite float), which it
    # refuses: try it first, and let the exact writer answer what it refuses, as it always did.
    try:
        return json_bytes(content)
    except (TypeError, ValueError):
        return dumps(content).encode("utf-8", "backslashreplace")


class ExactJSONResponse(JSONResponse):
    """``JSONResponse`` whose body is ``exact_json_bytes``: a Decimal's own digits, never a float's."""

    def render(self, content: Any) -> bytes:
        return exact_json_bytes(content)
