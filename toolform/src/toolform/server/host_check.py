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
            # Every Host header must be answered: a second one cannot smuggle a name past the first.
            hosts = [value.decode("latin-1") for name, value in scope["headers"] if name == b"host"] or [""]
            refused = next((host for host in hosts if host_name(host) not in self.answered), None)
            if refused is not None:
                await send_error(
                    send,
                    MisdirectedRequest(
                        f"this server does not answer to the host '{refused}'; "
                        "add it with --allowed-host or TOOLFORM_ALLOWED_HOSTS"
                    ),
                )
                return
        await self.app(scope, receive, send)
