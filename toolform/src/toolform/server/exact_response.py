"""JSON responses as the routes write them: Starlette's JSONResponse bytes, and Decimals with every digit."""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse

from toolform.jsontext import dumps


def json_bytes(content: Any) -> bytes:
    """``content`` as Starlette's ``JSONResponse`` writes it."""
    return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


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
