"""The browser dashboard: one HTML page at ``/`` for a browser, and its static files.

A request to ``/`` that prefers ``text/html`` (what a browser sends) gets the
page; any other client gets the reference's JSON index, unchanged. The page,
its stylesheet and its JavaScript modules ship inside the package
(``dashboard_files/``), so the dashboard works offline and with no build step.
The Content-Security-Policy lets the page load only this server's own files and
talk only to this server.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response

ASSETS_PREFIX = "/dashboard"
PAGE = "index.html"

#: Everything from this origin only; no inline script or style, no frames, no form posts elsewhere.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)

SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-cache",
}

_MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}


def files_folder() -> Traversable:
    """The folder holding the page, its stylesheet, its modules and its icon."""
    return resources.files("toolform.server") / "dashboard_files"


def asset_names(folder: Traversable | None = None, prefix: str = "") -> frozenset[str]:
    """Every servable file under ``folder``, as a path relative to it (``panels/guard.js``)."""
    folder = folder or files_folder()
    names: set[str] = set()
    for entry in folder.iterdir():
        if entry.is_dir():
            names |= asset_names(entry, f"{prefix}{entry.name}/")
        elif any(entry.name.endswith(suffix) for suffix in _MEDIA_TYPES):
            names.add(prefix + entry.name)
    return frozenset(names)


def _accepted(accept: str) -> dict[str, float]:
    """The media ranges of an Accept header with their quality values."""
    ranges: dict[str, float] = {}
    for item in accept.split(","):
        media, *parameters = (part.strip() for part in item.split(";"))
        if not media:
            continue
        quality = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        ranges[media.lower()] = quality
    return ranges


def prefers_html(accept: str | None) -> bool:
    """Whether an Accept header names ``text/html`` explicitly and ranks it above JSON.

    ``*/*`` alone (curl, most HTTP libraries) keeps the JSON index: only a client
    that asks for HTML by name gets the page.
    """
    ranges = _accepted(accept or "")
    html = ranges.get("text/html", 0.0)
    json = max(ranges.get("application/json", 0.0), ranges.get("application/*", 0.0), ranges.get("*/*", 0.0))
    return html > 0.0 and html >= json


def _file_response(folder: Traversable, name: str) -> Response:
    suffix = name[name.rfind(".") :]
    content = folder.joinpath(*name.split("/")).read_bytes()
    return Response(content, media_type=_MEDIA_TYPES[suffix], headers=SECURITY_HEADERS)


def page() -> Response:
    """The dashboard's HTML page, with its security headers."""
    return _file_response(files_folder(), PAGE)


def router() -> APIRouter:
    """The dashboard's static files under ``/dashboard/``; the page itself is served at ``/`` by the app."""
    routes = APIRouter(include_in_schema=False)
    folder = files_folder()
    names = asset_names(folder)

    @routes.get(ASSETS_PREFIX + "/{name:path}")
    def asset(name: str) -> Response:
        if name not in names:
            raise HTTPException(404, "Not Found")
        return _file_response(folder, name)

    return routes
