"""/docs and /redoc from local assets, so the API's documentation works with no network.

The Swagger UI and ReDoc bundles come from the fastapi-offline package (its
``static`` folder, read as package data; none of its code is used). ReDoc's
bundle names a logo on Redocly's CDN in its sidebar; it is served with that
address pointed at a local image instead, so the page asks nothing of the network.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from fastapi import APIRouter, HTTPException
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response

ASSETS_PREFIX = "/docs-assets"
_MEDIA_TYPES = {".js": "application/javascript", ".css": "text/css", ".png": "image/png"}
ASSET_FILES = ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")
#: The CDN logo ReDoc's sidebar shows, and the local image it is replaced with.
REDOC_CDN_LOGO = b"https://cdn.redoc.ly/redoc/logo-mini.svg"
REDOC_LOGO = "redoc-logo.svg"


def assets_folder() -> Traversable:
    """The folder holding the Swagger UI and ReDoc bundles."""
    return resources.files("fastapi_offline") / "static"


def router(title: str, openapi_url: str) -> APIRouter:
    routes = APIRouter(include_in_schema=False)
    folder = assets_folder()

    @routes.get(ASSETS_PREFIX + "/{file_name}")
    def asset(file_name: str) -> Response:
        if file_name == REDOC_LOGO:
            icon = (resources.files("toolform.server") / "dashboard_files" / "icon.svg").read_bytes()
            return Response(icon, media_type="image/svg+xml", headers={"cache-control": "public, max-age=86400"})
        if file_name not in ASSET_FILES:
            raise HTTPException(404, "Not Found")
        suffix = file_name[file_name.rfind(".") :]
        content = (folder / file_name).read_bytes()
        if file_name == "redoc.standalone.js":
            content = content.replace(REDOC_CDN_LOGO, f"{ASSETS_PREFIX}/{REDOC_LOGO}".encode())
        return Response(
            content, media_type=_MEDIA_TYPES[suffix], headers={"cache-control": "public, max-age=86400"}
        )

    @routes.get("/docs")
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{title} - Swagger UI",
            swagger_js_url=f"{ASSETS_PREFIX}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PREFIX}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PREFIX}/favicon.png",
        )

    @routes.get("/redoc")
    def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi_url,
            title=f"{title} - ReDoc",
            redoc_js_url=f"{ASSETS_PREFIX}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS_PREFIX}/favicon.png",
            with_google_fonts=False,
        )

    return routes
