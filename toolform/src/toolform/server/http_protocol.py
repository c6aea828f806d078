"""The HTTP/1.1 protocol the server speaks: uvicorn's httptools parser, its refusals in the one error shape.

httptools (llhttp) reads a request in C where h11 reads it in Python; on small
requests the HTTP layer is much of the server's time (docs/toolform-performance.md). A request
whose head does not parse never reaches the application, so the application
cannot answer it: this protocol does, with 400 bad_request in the API's
error shape. llhttp accepts a second Host header, which h11 refused; a second
Host could smuggle a name past the Host check, so it is refused here too.

A client has ``READ_TIMEOUT_S`` (``toolform serve --request-read-timeout``) from
its connection, or from the first byte of a request, to the request's last byte;
one that sends slower (a byte a second, a head never finished) is answered 400
in the error shape, if nothing was answered yet, and cut off, so slow clients
cannot hold the server's connections.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from toolform.errors import BadRequest

#: Seconds a request may take to arrive, head and body (the server's setting replaces it).
READ_TIMEOUT_S = 30.0

UNPARSABLE_REQUEST = (
    "the request is not valid HTTP/1.1, so none of it was read (for example a Content-Length that is "
    "not a number of bytes, or two Host headers); fix its request line and headers"
)


class SecondHostHeader(httptools.HttpParserError):
    """Raised from the parser's callback: the parser stops and the request is answered 400."""


def unparsable_request_response(detail: str = UNPARSABLE_REQUEST) -> bytes:
    """The whole 400 answer, head and body, for a request whose head does not parse (or never arrived)."""
    body = json.dumps(BadRequest(detail).to_dict()).encode()
    head = (
        b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n"
    )
    return head + body


#: Bodies up to this size leave in one write with their head; larger ones in a write of their own.
JOIN_BELOW_BYTES = 65_536


class HeadWithBody:
    """A response's transport that holds its first write (the head) until the next (the body) or the next turn
    of the event loop, so that head and body leave in one write: on small answers each write to the socket
    is much of the server's time, and uvicorn writes them apart. Everything after the pair passes straight on.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._held: bytes | None = None
        self._passing = False
        self._loop = loop

    def write(self, data: bytes) -> None:
        if self._passing:
            self._transport.write(data)
        elif self._held is None:
            self._held = bytes(data)
            # A head with no body after it (HEAD, or a 100 Continue) still leaves on the next turn.
            self._loop.call_soon(self._release)
        else:
            held, self._held, self._passing = self._held, None, True
            if len(data) > JOIN_BELOW_BYTES:
                # A large body is not copied once more to join it: the head's own write costs nothing beside it.
                self._transport.write(held)
                self._transport.write(data)
            else:
                self._transport.write(held + data)

    def _release(self) -> None:
        if self._held is not None:
            held, self._held, self._passing = self._held, None, True
            self._transport.write(held)

    def close(self) -> None:
        self._release()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class JsonErrorHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, answering a request it cannot parse with the one error shape, and
    writing each response's head with its body."""

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        cycle = self.cycle
        if cycle is not None and cycle.transport is self.transport:
            cycle.transport = HeadWithBody(self.transport, self.loop)  # type: ignore[assignment]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._read_deadline: asyncio.TimerHandle | None = None
        self._arm_read_deadline()

    def _arm_read_deadline(self) -> None:
        if self._read_deadline is not None:
            self._read_deadline.cancel()
        seconds = getattr(self.config, "toolform_read_timeout_s", READ_TIMEOUT_S)
        self._read_deadline = self.loop.call_later(seconds, self._too_slow, seconds)

    def _disarm_read_deadline(self) -> None:
        if self._read_deadline is not None:
            self._read_deadline.cancel()
            self._read_deadline = None

    def _too_slow(self, seconds: float) -> None:
        self._read_deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is None or not cycle.response_started:
            self.transport.write(
                unparsable_request_response(
                    f"the request did not arrive whole within {seconds:g} s, the most a request may take to send; "
                    "send it at once"
                )
            )
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_read_deadline()
        super().connection_lost(exc)

    def on_message_complete(self) -> None:
        self._disarm_read_deadline()
        super().on_message_complete()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._host_seen = False
        self._arm_read_deadline()

    def on_header(self, name: bytes, value: bytes) -> None:
        if name.lower() == b"host":
            if self._host_seen:
                raise SecondHostHeader("a second Host header")
            self._host_seen = True
        super().on_header(name, value)

    def send_400_response(self, msg: str) -> None:
        self.transport.write(unparsable_request_response())
        self.transport.close()
