"""The Host check: a request whose Host header the server does not answer to gets 421 before any route.

It stops a web page that rebinds its own domain to 127.0.0.1 from reaching the
API through a browser: the browser still sends the page's domain as Host.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from toolform.errors import MisdirectedRequest
from toolform.server.errors import send_error
from toolform.server.settings import Settings


def host_name(header: str) -> str:
    """The name of a Host header, lowercase, without its port: ``[::1]:8765`` gives ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        closing = header.find("]")
        return header[1:closing] if closing > 0 else header
    if header.count(":") == 1:
        return header.split(":", 1)[0]
    return header


class HostCheck:
    """ASGI middleware answering 421 misdirected_request for a Host outside the settings' list."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.enabled = settings.host_check_enabled
        self.answered = settings.answered_hosts()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.enabled and scope["type"] in ("http", "websocket"):
            raw = dict(scope["headers"]).get(b"host")
            header = raw.decode("latin-1") if raw is not None else ""
            if host_name(header) not in self.answered:
                shown = f"'{header}'" if header else "(no Host header)"
                await send_error(
                    send,
                    MisdirectedRequest(
                        f"this server does not answer to the host {shown}; "
                        "add it with --allowed-host or TOOLFORM_ALLOWED_HOSTS"
                    ),
                )
                return
        await self.app(scope, receive, send)
