"""A JSON response that writes Decimals with every digit (tool sets read from JSON text keep theirs)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.responses import JSONResponse

from toolform.jsontext import dumps


class ExactJSONResponse(JSONResponse):
    """``JSONResponse`` whose body is ``toolform.jsontext.dumps``: a Decimal's own digits, never a float's."""

    def render(self, content: Any) -> bytes:
        # The C encoder writes the same text for every value but a Decimal (or a non-finite float), which it
        # refuses: try it first, and let the exact writer answer what it refuses, as it always did.
        try:
            return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
        except (TypeError, ValueError):
            return dumps(content).encode("utf-8")
