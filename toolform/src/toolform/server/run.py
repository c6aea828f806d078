"""Serving the application with uvicorn, with HTTP-level refusals in the API's error shape."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import h11
import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

from toolform.errors import BadRequest
from toolform.server.app import create_app
from toolform.server.settings import Settings

UNPARSABLE_REQUEST = (
    "the request is not valid HTTP/1.1, so none of it was read (for example a Content-Length that is "
    "not a number of bytes, or two Host headers); fix its request line and headers"
)


class JsonErrorH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, answering a request it cannot parse with the one error shape.

    A request whose headers do not parse (a Content-Length that is not a number)
    never reaches the application, so the application cannot answer it.
    """

    def send_400_response(self, msg: str) -> None:
        body = json.dumps(BadRequest(UNPARSABLE_REQUEST).to_dict()).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        self.transport.write(self.conn.send(h11.Response(status_code=400, headers=headers, reason=b"Bad Request")))
        self.transport.write(self.conn.send(h11.Data(data=body)))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()


#: How `serve --reload` hands the settings to the application uvicorn re-imports.
SETTINGS_ENV = "TOOLFORM_SERVE_SETTINGS"


def app_from_environment() -> FastAPI:
    """The application factory `serve --reload` names: the settings come back from SETTINGS_ENV."""
    return create_app(Settings.from_dict(json.loads(os.environ[SETTINGS_ENV])))


def serve(settings: Settings, reload: bool = False) -> None:
    """Run the API on ``settings.host``:``settings.port`` until interrupted; logs go to stderr.

    With ``reload``, uvicorn restarts the server when ToolForm's code changes (development).
    """
    common: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "http": JsonErrorH11Protocol,
        "log_level": "info",
        "server_header": False,
        "proxy_headers": False,
    }
    if reload:
        os.environ[SETTINGS_ENV] = json.dumps(settings.to_dict())
        package = Path(__file__).resolve().parent.parent
        uvicorn.run(
            f"{__name__}:app_from_environment", factory=True, reload=True, reload_dirs=[str(package)], **common
        )
        return
    uvicorn.Server(uvicorn.Config(create_app(settings), **common)).run()
