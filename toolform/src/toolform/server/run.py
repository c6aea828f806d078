"""Serving the application with uvicorn, with HTTP-level refusals in the API's error shape."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI

from toolform.server.access_log import lighten_log_records, log_config
from toolform.server.app import create_app
from toolform.server.collector import tune_for_serving
from toolform.server.http_protocol import JsonErrorHttpToolsProtocol
from toolform.server.settings import Settings

#: How `serve --reload` hands the settings to the application uvicorn re-imports.
SETTINGS_ENV = "TOOLFORM_SERVE_SETTINGS"
#: Seconds a stopping server waits for its open connections (a browser's keep-alive, a poll) to finish.
GRACEFUL_SHUTDOWN_S = 1


def app_from_environment() -> FastAPI:
    """The application factory `serve --reload` names: the settings come back from SETTINGS_ENV."""
    app = create_app(Settings.from_dict(json.loads(os.environ[SETTINGS_ENV])))
    warm_routes(app)
    tune_for_serving()
    return app


def warm_routes(app: FastAPI) -> None:
    """Match a request against every route once, before serving.

    FastAPI builds each included router's route contexts at the first request it matches against
    them: tens of milliseconds of CPU per router, spent on the event loop at each router's first
    request (/health waited for it). Built here, they are also frozen out of the collector's walks.
    So is anyio's event loop backend, which the first work sent to the thread pool imports (its file
    lookups held the event loop for 14 to 38 ms of CPU on a busy machine).
    """
    import anyio._backends._asyncio  # noqa: F401
    scope: dict[str, Any] = {"type": "http", "path": "/api/v1/health", "method": "GET", "headers": [], "root_path": ""}
    for route in app.router.routes:
        route.matches(dict(scope))


def serve(settings: Settings, reload: bool = False) -> None:
    """Run the API on ``settings.host``:``settings.port`` until interrupted; logs go to stderr.

    With ``reload``, uvicorn restarts the server when ToolForm's code changes (development).
    """
    # A log line that quotes a client's text must not fail on a character the terminal cannot show.
    if hasattr(sys.stderr, "reconfigure"):
        sys.stderr.reconfigure(errors="backslashreplace")
    common: dict[str, Any] = {
        "host": settings.host,
        "port": settings.port,
        "http": JsonErrorHttpToolsProtocol,
        "loop": "uvloop",
        "log_level": "info",
        "server_header": False,
        "proxy_headers": False,
        # SIGTERM answers promptly: open connections get this long, then close; running measurement jobs
        # stop at once and are kept as interrupted (the measure router's shutdown handler).
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_S,
        "log_config": log_config(),
    }
    lighten_log_records()
    if reload:
        os.environ[SETTINGS_ENV] = json.dumps(settings.to_dict())
        package = Path(__file__).resolve().parent.parent
        uvicorn.run(
            f"{__name__}:app_from_environment", factory=True, reload=True, reload_dirs=[str(package)], **common
        )
        return
    app = create_app(settings)
    warm_routes(app)
    tune_for_serving()
    config = uvicorn.Config(app, **common)
    # Read by the protocol (JsonErrorHttpToolsProtocol), which uvicorn builds from its config.
    config.toolform_read_timeout_s = settings.request_read_timeout_s  # type: ignore[attr-defined]
    uvicorn.Server(config).run()
