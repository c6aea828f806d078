"""A JSON response that writes Decimals with every digit (tool sets read from JSON text keep theirs)."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from toolform.jsontext import dumps


class ExactJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return dumps(content).encode("utf-8")
