"""meta routes and the index, through a real `toolform serve`."""

from __future__ import annotations

import platform

from support.evidence_files import evidence_json
from support.serving import Server
from toolform import __version__


def test_health_reports_liveness_configuration_and_verified_evidence(ours: Server) -> None:
    reply = ours.get("/api/v1/health")
    assert reply.status == 200
    assert reply.headers["content-type"] == "application/json"
    health = reply.json()
    assert health["status"] == "ok"
    assert health["version"] == __version__
    assert health["evidence_version"] == evidence_json("manifest")["evidence_version"] == "2026-09-25.3"
    assert health["endpoint_configured"] is False
    assert health["allow_client_endpoints"] is False
    assert health["evidence"]["status"] == "ok"
    assert health["evidence"]["pinned"] is True


def test_version_names_framework_evidence_and_python(ours: Server) -> None:
    assert ours.get("/api/v1/version").json() == {
        "framework": __version__,
        "evidence": "2026-09-25.3",
        "python": platform.python_version(),
    }


def test_index_is_the_json_index(ours: Server) -> None:
    reply = ours.get("/")
    assert reply.status == 200
    assert reply.json() == {
        "name": "ToolForm API",
        "version": __version__,
        "api": "/api/v1",
        "docs": "/docs",
        "openapi": "/openapi.json",
        "health": "/api/v1/health",
    }


def test_docs_and_redoc_load_their_assets_from_this_server(ours: Server) -> None:
    for page in ("/docs", "/redoc"):
        reply = ours.get(page)
        assert reply.status == 200
        html = reply.body.decode()
        assert "cdn." not in html and "https://" not in html.replace("https://fastapi", "")
        assert "/openapi.json" in html
    swagger = ours.get("/docs").body.decode()
    for asset in ("/docs-assets/swagger-ui-bundle.js", "/docs-assets/swagger-ui.css"):
        assert asset in swagger
        fetched = ours.get(asset)
        assert fetched.status == 200 and len(fetched.body) > 100_000
    assert "/docs-assets/redoc.standalone.js" in ours.get("/redoc").body.decode()
    script = ours.get("/docs-assets/redoc.standalone.js")
    assert script.status == 200 and script.headers["content-type"].startswith("application/javascript")
    assert ours.get("/docs-assets/../pyproject.toml").status == 404
    assert ours.get("/docs-assets/core.py").status == 404
