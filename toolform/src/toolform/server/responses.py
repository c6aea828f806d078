"""The error statuses each route documents in /openapi.json, all with the one error shape."""

from __future__ import annotations

from typing import Any

from toolform.server.schemas import ErrorBody

_DESCRIPTIONS: dict[int, str] = {
    400: "A value the route cannot use, or a Content-Length that is not a number",
    404: "An unknown format, protocol, evidence file or route",
    409: "ab-test with no model endpoint configured",
    413: "More tools, text or bytes than the server's limits",
    421: "A Host header the server does not answer to",
    422: "The tools could not be read, or the body does not match the schema",
    429: "As many measurements wait as may run (max_jobs)",
    500: "A bug; the detail says only that the server log has it, unless TOOLFORM_DEBUG is set",
    502: "The model endpoint refused or failed",
    503: "The study's evidence is missing or failed its check, or the job store could not be written",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` of a route: every status any route can give, plus ``statuses``."""
    chosen = sorted({400, 413, 421, 422, 500, *statuses})
    return {status: {"model": ErrorBody, "description": _DESCRIPTIONS[status]} for status in chosen}
