"""The differential harness's machinery: one request to both servers, the answers adjusted and compared."""

from __future__ import annotations

import json
from typing import Any

from support.differences import Answer, Request, adjust
from support.serving import Server, raw_exchange


def ask(server: Server, request: Request) -> Answer:
    """Send ``request`` to ``server``; a raw request with a bad Content-Length goes through a plain socket."""
    if any(name.lower() == "content-length" for name, _ in request.headers):
        head = f"{request.method} {request.path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in request.headers) + "\r\n"
        answer = raw_exchange(server.port, head.encode() + (request.raw or b""))
        status_line, _, body = answer.partition(b"\r\n\r\n")
        return Answer(int(status_line.split()[1]), _json_or_none(body))
    reply = server.request(request.method, request.path, request.body, raw=request.raw, headers=dict(request.headers))
    return Answer(reply.status, _json_or_none(reply.body))


def _json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None


def mismatches(ours: Any, reference: Any, path: str = "$") -> list[str]:
    """Every place the two JSON values differ, by JSON path: members missing on either side, or values."""
    if isinstance(ours, dict) and isinstance(reference, dict):
        found = []
        for key in reference.keys() - ours.keys():
            found.append(f"{path}.{key}: only the reference has it ({_short(reference[key])})")
        for key in ours.keys() - reference.keys():
            found.append(f"{path}.{key}: only ours has it ({_short(ours[key])})")
        for key in ours.keys() & reference.keys():
            found += mismatches(ours[key], reference[key], f"{path}.{key}")
        return found
    if isinstance(ours, list) and isinstance(reference, list):
        if len(ours) != len(reference):
            return [f"{path}: {len(ours)} items in ours, {len(reference)} in the reference"]
        pairs = enumerate(zip(ours, reference, strict=True))
        return [m for i, (a, b) in pairs for m in mismatches(a, b, f"{path}[{i}]")]
    # bool is an int in Python: compare types too, so true and 1 differ.
    if type(ours) is not type(reference) or ours != reference:
        return [f"{path}: ours {_short(ours)}, the reference {_short(reference)}"]
    return []


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 160 else text[:157] + "..."


def compare(ours_server: Server, reference_server: Server, request: Request) -> list[str]:
    """Send ``request`` to both and list the unexplained differences (empty when they agree)."""
    ours, reference = ask(ours_server, request), ask(reference_server, request)
    adjust(request, ours, reference)
    found = [] if ours.status == reference.status else [f"status: ours {ours.status}, the reference {reference.status}"]
    return found + mismatches(ours.body, reference.body)
