"""ToolForm as installed from dist/'s wheels: doctor, serve, and every route that reads the evidence.

``python toolform_smoke.py`` with the venv's python, from a folder outside the
checkout (scripts/dist-test copies it there and runs it with no network): the
``toolform`` command beside that python must pass ``doctor``, then a
``toolform serve`` it starts on a free loopback port must answer each route
that needs the study's evidence, each evidence file byte for byte as the
manifest's sha256 says. The server is stopped however the checks end. Exits
1 naming the first route or check that failed.
"""

from __future__ import annotations

import hashlib
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from toolform.evidence.locate import default_dir

TOOLFORM = Path(sys.executable).parent / "toolform"


class SmokeError(RuntimeError):
    """A check that failed, with what was expected and what came."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def request(base: str, path: str, body: object | None = None, accept: str = "application/json") -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"accept": accept} if body is None else {"content-type": "application/json", "accept": accept}
    req = urllib.request.Request(base + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def get_json(base: str, path: str, body: object | None = None) -> Any:
    status, raw = request(base, path, body)
    if status != 200:
        raise SmokeError(f"{'POST' if body is not None else 'GET'} {path}: {status} {raw[:500]!r}")
    return json.loads(raw)


def check_doctor() -> None:
    result = subprocess.run([str(TOOLFORM), "doctor", "--json"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SmokeError(f"toolform doctor exited {result.returncode}:\n{result.stdout}{result.stderr}")
    report = json.loads(result.stdout)
    evidence = next(check for check in report["checks"] if check["name"] == "evidence")
    if not report["ok"] or evidence["status"] != "ok" or "site-packages" not in evidence["detail"]:
        raise SmokeError(f"toolform doctor: the evidence is not the installed package's: {report}")
    print(f"toolform doctor: ok; {evidence['detail']}", file=sys.stderr)


def check_routes(base: str) -> None:
    # A browser's request for / gets the dashboard page, its scripts from the package.
    status, page = request(base, "/", accept="text/html")
    if status != 200 or b"<html" not in page.lower():
        raise SmokeError(f"GET / (text/html): {status}, not the dashboard page: {page[:200]!r}")
    status, script = request(base, "/dashboard/main.js", accept="*/*")
    if status != 200 or not script:
        raise SmokeError(f"GET /dashboard/main.js: {status}")
    health = get_json(base, "/api/v1/health")
    if health.get("evidence", {}).get("status") != "ok":
        raise SmokeError(f"/api/v1/health: the evidence is not ok: {health}")
    get_json(base, "/api/v1/version")
    formats = get_json(base, "/api/v1/formats")
    listed = formats["formats"]
    if not listed:
        raise SmokeError("/api/v1/formats lists no format")
    get_json(base, f"/api/v1/formats/{listed[0]['id']}")
    for path in ("/api/v1/protocols", "/api/v1/models", "/api/v1/facts"):
        get_json(base, path)
    manifest = get_json(base, "/api/v1/evidence")
    files = manifest["files"]
    # The installed files: each is its manifest's sha256, and each route serves its content.
    installed = default_dir()
    for entry in files:
        content = (installed / entry["path"]).read_bytes()
        digest = hashlib.sha256(content).hexdigest()
        if digest != entry["sha256"]:
            raise SmokeError(f"{installed / entry['path']}: sha256 {digest}, the manifest says {entry['sha256']}")
        if get_json(base, f"/api/v1/evidence/{entry['name']}") != json.loads(content):
            raise SmokeError(f"/api/v1/evidence/{entry['name']} is not the content of {installed / entry['path']}")
    advice = get_json(base, "/api/v1/recommend", {"situation": {"n_tools": 8, "tier": 3}, "tools": None})
    if not advice.get("format_id") or not advice.get("evidence"):
        raise SmokeError(f"/api/v1/recommend answered without a format or its evidence: {advice}")
    print(
        f"toolform serve: the dashboard, health, version, {len(listed)} formats, protocols, models, facts, "
        f"{len(files)} evidence files (each its manifest's sha256), recommend: ok",
        file=sys.stderr,
    )


def main() -> int:
    try:
        check_doctor()
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([str(TOOLFORM), "serve", "--port", str(port)])
        try:
            deadline = time.monotonic() + 60
            while True:
                if server.poll() is not None:
                    raise SmokeError(f"toolform serve exited {server.returncode} before answering")
                try:
                    request(base, "/api/v1/health")
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SmokeError("toolform serve did not answer in 60 s") from None
                    time.sleep(0.2)
            check_routes(base)
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    except (SmokeError, KeyError, ValueError) as error:
        print(f"toolform smoke: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
