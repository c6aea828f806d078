"""Every error the server answers with, in the API's one shape ``{"error", "detail", "status"}``.

The SDK's errors carry their own code and status; FastAPI's validation errors
keep FastAPI's detail; an unknown route is ``not_found``; anything else is a bug
and answers ``internal_error`` with its detail in the server log only, unless
TOOLFORM_DEBUG is set.
"""

from __future__ import annotations

import json
import logging
import traceback
from collections.abc import Awaitable, Callable
from http import HTTPStatus

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Send

from toolform.errors import ToolFormError

log = logging.getLogger("toolform.server")

INTERNAL_DETAIL = "an internal error; the server log has the details (set TOOLFORM_DEBUG to see them here)"

#: The code of a framework HTTP error by its status (an unknown route, a wrong method, ...).
_FRAMEWORK_CODES: dict[int, str] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
}


def error_body(code: str, detail: object, status: int, **extra: object) -> dict[str, object]:
    """The one error shape."""
    return {"error": code, "detail": detail, "status": status, **extra}


def error_response(error: ToolFormError) -> JSONResponse:
    """An SDK error as its response."""
    return JSONResponse(error.to_dict(), status_code=error.status)


async def send_error(send: Send, error: ToolFormError) -> None:
    """Answer from ASGI middleware, before any route: the error's shape and status, connection kept."""
    body = json.dumps(error.to_dict()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": error.status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def http_error_response(error: StarletteHTTPException) -> JSONResponse:
    """A framework HTTP error (raised by a route, the size limit or the body reader) as its response."""
    code = _FRAMEWORK_CODES.get(error.status_code) or HTTPStatus(error.status_code).name.lower()
    return JSONResponse(
        error_body(code, error.detail, error.status_code),
        status_code=error.status_code,
        headers=error.headers,
    )


def install(app: FastAPI, debug: bool) -> None:
    """Register the handlers that give every error the one shape."""

    async def on_toolform_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, ToolFormError)
        return error_response(error)

    async def on_validation_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, RequestValidationError)
        detail = jsonable_encoder(error.errors())
        return JSONResponse(error_body("validation_error", detail, 422), status_code=422)

    async def on_http_error(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, StarletteHTTPException)
        return http_error_response(error)

    async def on_unexpected(request: Request, error: Exception) -> JSONResponse:
        try:
            log.error("internal error on %s %s", request.method, request.url.path, exc_info=error)
            detail = "".join(traceback.format_exception(error)) if debug else INTERNAL_DETAIL
        except Exception:  # out of memory, say: the answer still goes out, in the shape
            detail = INTERNAL_DETAIL
        return JSONResponse(error_body("internal_error", detail, 500), status_code=500)

    handlers: list[tuple[type[Exception], Callable[[Request, Exception], Awaitable[JSONResponse]]]] = [
        (ToolFormError, on_toolform_error),
        (RequestValidationError, on_validation_error),
        (StarletteHTTPException, on_http_error),
        (Exception, on_unexpected),
    ]
    for kind, handler in handlers:
        app.add_exception_handler(kind, handler)
