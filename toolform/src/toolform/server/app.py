"""The FastAPI application: routes, error handlers, the Host check and the size limit."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.datastructures import Headers

from toolform import __version__
from toolform.evidence import Evidence, open_evidence
from toolform.limits import set_rendered_char_limit, set_schema_node_limit
from toolform.measure.endpoint import redact_logs
from toolform.registry import registry_of
from toolform.server import dashboard, docs, errors, far_loads, work_pool
from toolform.server.body_limit import BodyLimit
from toolform.server.fast_route import FastRoutesEntry, fast_routes_of
from toolform.server.host_check import HostCheck
from toolform.server.routes import advisor as advisor_routes
from toolform.server.routes import catalogue as catalogue_routes
from toolform.server.routes import evidence as evidence_routes
from toolform.server.routes import guard, meta, registry, tools
from toolform.server.routes import measure as measure_routes
from toolform.server.routes import parse as parse_routes
from toolform.server.routes import render as render_routes
from toolform.server.schemas import IndexResponse
from toolform.server.settings import Settings

TITLE = "ToolForm API"
OPENAPI_URL = "/openapi.json"

DESCRIPTION = """\
ToolForm decides how an agent shows its tools to a model and reads back the calls:
convert tool definitions between shapes, inspect them, and read the study's evidence
(129 formats, 31 answer protocols, 112 models), every figure with its source label.

Every route is under `/api/v1`. Errors share one shape: `{"error", "detail", "status"}`.
"""


class ShapedCORSMiddleware(CORSMiddleware):
    """Starlette's CORS handling, its refusal of a preflight in the API's error shape rather than plain text."""

    def preflight_response(self, request_headers: Headers) -> Response:
        answer = super().preflight_response(request_headers)
        if answer.status_code < 400:
            return answer
        refused = bytes(answer.body).decode("utf-8", "replace")
        headers = {k: v for k, v in answer.headers.items() if k.lower() not in ("content-length", "content-type")}
        detail = (
            f"{refused}: the browser's preflight asks for an origin, method or header this server does not allow "
            "(its --cors origins, methods GET, POST and DELETE, the content-type header)"
        )
        return JSONResponse(errors.error_body("bad_request", detail, 400), status_code=400, headers=headers)


def create_app(
    settings: Settings | None = None, evidence: Evidence | None = None, fast_routes: bool = True
) -> FastAPI:
    """The application for ``settings``; the study's evidence is opened from ``settings.study_dir`` unless given.

    The evidence and its registry go on ``app.state`` once, here; the routes are handed them by the
    dependencies of toolform.server.state.

    With ``fast_routes`` (the default), the hot routes (/parse, /guard) answer a valid body on their route
    class's fast path (``toolform.server.fast_route``), reached ahead of the middleware and the router's
    match; without it, FastAPI's handler answers every request (the tests hold the two to the same bytes).
    """
    settings = settings or Settings()
    evidence = evidence or open_evidence(settings.study_dir)
    app = FastAPI(
        title=TITLE,
        version=__version__,
        description=DESCRIPTION,
        license_info={"name": "Apache-2.0", "url": "https://www.apache.org/licenses/LICENSE-2.0"},
        openapi_url=OPENAPI_URL,
        docs_url=None,
        redoc_url=None,
        debug=False,
    )
    app.state.settings = settings
    app.state.evidence = evidence
    app.state.registry = registry_of(evidence)
    app.state.fast_routes = fast_routes
    set_schema_node_limit(settings.limits.max_schema_nodes)
    set_rendered_char_limit(settings.limits.max_rendered_chars)
    work_pool.configure(settings.limits.max_schema_nodes, settings.parse_timeout_s)
    errors.install(app, settings.debug)
    redact_logs()
    far_loads.install()

    # The router tries its routes in order: the hot ones first.
    hot = [parse_routes.router(settings.limits), guard.router(settings.limits, evidence)]
    for router in hot:
        app.include_router(router)
    app.include_router(meta.router(settings))
    app.include_router(registry.router())
    app.include_router(tools.router())
    app.include_router(render_routes.router(settings.limits))
    app.include_router(catalogue_routes.router())
    app.include_router(advisor_routes.router())
    app.include_router(evidence_routes.router())
    app.include_router(measure_routes.router(settings, evidence))
    app.include_router(docs.router(TITLE, OPENAPI_URL))
    app.include_router(dashboard.router())

    @app.get("/", include_in_schema=False, response_model=IndexResponse)
    def index(request: Request) -> Response:
        # A browser gets the dashboard; every other client the reference's JSON index.
        if dashboard.prefers_html(request.headers.get("accept")):
            return dashboard.page()
        return JSONResponse(
            {
                "name": TITLE,
                "version": __version__,
                "api": "/api/v1",
                "docs": "/docs",
                "openapi": OPENAPI_URL,
                "health": "/api/v1/health",
            }
        )

    if fast_routes:
        app.add_middleware(FastRoutesEntry, routes=fast_routes_of(hot))
    # Added last, so outermost: the Host check runs first, then the size limit, then CORS, then the fast routes.
    if settings.cors_origins:
        app.add_middleware(
            ShapedCORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["content-type"],
        )
    app.add_middleware(BodyLimit, limits=settings.limits)
    app.add_middleware(HostCheck, settings=settings)
    return app
