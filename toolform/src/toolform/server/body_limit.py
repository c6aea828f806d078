"""The request-size limit, applied before the body is parsed.

A Content-Length that is not a number is 400; one above the limit is 413 before
a byte of the body is read. A body without a length (chunked) is counted as it
arrives and refused with 413 as soon as it passes the limit.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toolform.errors import BadRequest, PayloadTooLarge
from toolform.limits import Limits
from toolform.server.errors import send_error


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The request's Content-Length, None without one; BadRequest when it is not one number."""
    values = {value.strip() for name, value in headers if name.lower() == b"content-length"}
    if not values:
        return None
    if len(values) > 1:
        raise BadRequest("the request has Content-Length headers that disagree; send one")
    (value,) = values
    if not value.isdigit():
        shown = value.decode("latin-1")
        raise BadRequest(f"Content-Length '{shown}' is not a number of bytes; send the body's size in bytes")
    return int(value)


class BodyLimit:
    """ASGI middleware enforcing ``Limits.max_body_bytes`` on every HTTP request."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            length = declared_length(scope["headers"])
            if length is not None:
                self.limits.check_body(length)
        except (BadRequest, PayloadTooLarge) as error:
            await send_error(send, error)
            return

        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                try:
                    self.limits.check_body(received)
                except PayloadTooLarge as error:
                    # An HTTPException is the one error FastAPI lets through from reading
                    # the body unchanged; the error handlers give it the one shape.
                    raise HTTPException(413, f"{error.detail} (counted as it arrived)") from None
            return message

        await self.app(scope, counted_receive, send)
