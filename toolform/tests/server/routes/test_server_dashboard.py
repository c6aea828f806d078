"""The dashboard's serving, through a real `toolform serve`: the page for a browser, the JSON index otherwise.

What the page does in a browser is tested in test_dashboard_browser.py.
"""

from __future__ import annotations

import re

import pytest
from toolform.server.dashboard import CONTENT_SECURITY_POLICY, asset_names, files_folder, prefers_html

from support.serving import Server

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


@pytest.mark.parametrize(
    ("accept", "html"),
    [
        (BROWSER_ACCEPT, True),
        ("text/html", True),
        ("text/html;q=0.9, application/json", False),
        ("application/json", False),
        ("*/*", False),
        ("", False),
        (None, False),
        ("text/html;q=0", False),
        ("text/html;q=oops, */*", False),
        ("application/json;q=0.5, text/html", True),
    ],
)
def test_only_a_client_naming_html_above_json_prefers_the_page(accept: str | None, html: bool) -> None:
    assert prefers_html(accept) is html


def test_a_browser_gets_the_page_with_a_strict_policy(ours: Server) -> None:
    reply = ours.get("/", headers={"Accept": BROWSER_ACCEPT})
    assert reply.status == 200
    assert reply.headers["content-type"] == "text/html; charset=utf-8"
    policy = reply.headers["content-security-policy"]
    assert policy == CONTENT_SECURITY_POLICY
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert "unsafe" not in policy
    assert reply.headers["x-content-type-options"] == "nosniff"
    page = reply.body.decode()
    assert '<script type="module" src="/dashboard/main.js"></script>' in page
    # Nothing from another origin, and no inline script or style for the policy to refuse.
    assert "http://" not in page and "https://" not in page
    assert re.search(r"<script>|<style|style=", page) is None


def test_other_clients_keep_the_json_index(ours: Server) -> None:
    for accept in (None, "*/*", "application/json"):
        reply = ours.get("/", headers={"Accept": accept} if accept else {})
        assert reply.status == 200
        assert reply.headers["content-type"] == "application/json"
        assert reply.json()["name"] == "ToolForm API"


def test_every_packaged_file_is_served_and_nothing_else(ours: Server) -> None:
    names = asset_names()
    assert {"index.html", "main.js", "dashboard.css", "api.js", "panels/measure.js"} <= names
    for name in sorted(names):
        reply = ours.get(f"/dashboard/{name}")
        assert reply.status == 200, name
        assert reply.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        text = reply.body.decode()
        # Offline: no file names another origin (the SVG namespace is a name, not a fetch).
        assert "https://" not in text
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert ours.get("/dashboard/main.js").headers["content-type"] == "text/javascript; charset=utf-8"
    for missing in ("/dashboard/nope.js", "/dashboard/../app.py", "/dashboard/dashboard.py", "/dashboard/"):
        reply = ours.get(missing)
        assert reply.status == 404, missing
        assert reply.json()["status"] == 404


def test_every_module_the_page_imports_is_packaged() -> None:
    names = asset_names()
    for name in names:
        if not name.endswith(".js"):
            continue
        folder = name.rpartition("/")[0]
        text = files_folder().joinpath(*name.split("/")).read_text()
        for imported in re.findall(r'from "(\.{1,2}/[^"]+)"', text):
            parts = [*folder.split("/"), *imported.split("/")] if folder else imported.split("/")
            resolved: list[str] = []
            for part in parts:
                if part == "..":
                    resolved.pop()
                elif part not in (".", ""):
                    resolved.append(part)
            assert "/".join(resolved) in names, f"{name} imports {imported}, which is not packaged"

