"""JSON responses as the routes write them: Starlette's JSONResponse bytes, and Decimals with every digit."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from fastapi.responses import JSONResponse

from toolform.jsontext import dumps


def json_bytes(content: Any) -> bytes:
    """``content`` as Starlette's ``JSONResponse`` writes it."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


#: What orjson refuses, so that the standard writer answers it as it always did: dataclasses, dates and
#: subclasses of str, int, dict and list, which the standard writer reads otherwise or not at all.
_ORJSON_OPTIONS = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_SUBCLASS
#: The only floats orjson writes otherwise than Python's repr: below 1e-4 (Python: 1e-05, orjson: 0.00001 or
#: 1e-5). Text that looks like them only sends the value to the standard writer.
_SHORT_FLOAT_FORMS = re.compile(rb"e-[1-9](?![0-9])|0\.0000")


def fast_json_bytes(content: Any) -> bytes:
    """``json_bytes(content)``, byte for byte, written by orjson where it writes the same.

    For a value holding no non-finite float only: orjson writes NaN and infinities as null, where
    ``json_bytes`` refuses them. A route's answer made from a request body read by ``parse_body``
    (which refuses them) and from the SDK's text, integers and booleans holds none.
    """
    try:
        written = orjson.dumps(content, option=_ORJSON_OPTIONS)
    except TypeError:  # an integer beyond 64 bits, a Decimal, a key that is not text, ...
        return json_bytes(content)
    if _SHORT_FLOAT_FORMS.search(written) is not None:
        return json_bytes(content)
    return written


def exact_json_bytes(content: Any) -> bytes:
    """``content`` as ``json_bytes`` writes it, and a Decimal with its own digits (``toolform.jsontext.dumps``)."""
    # The C encoder writes the same text for every value but a Decimal (or a non-finite float), which it
    # refuses: try it first, and let the exact writer answer what it refuses, as it always did.
    try:
        return json_bytes(content)
    except (TypeError, ValueError):
        return dumps(content).encode("utf-8")


class ExactJSONResponse(JSONResponse):
    """``JSONResponse`` whose body is ``exact_json_bytes``: a Decimal's own digits, never a float's."""

    def render(self, content: Any) -> bytes:
        return exact_json_bytes(content)
