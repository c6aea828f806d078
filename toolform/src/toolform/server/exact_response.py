"""A JSON response that writes Decimals with every digit (tool sets read from JSON text keep theirs)."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from toolform.jsontext import dumps


class ExactJSONResponse(JSONResponse):
    """``JSONResponse`` whose body is ``toolform.jsontext.dumps``: a Decimal's own digits, never a float's."""

    def render(self, content: Any) -> bytes:
        return dumps(content).encode("utf-8")
