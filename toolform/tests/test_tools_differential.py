"""The hand-written cases of tools_cases.py through both servers: load in every shape, export to every target."""

from __future__ import annotations

import json

import pytest
import tools_cases
from differences import Request
from differential import compare
from serving import Server

_LOAD = "/api/v1/tools/load"
_EXPORT = "/api/v1/tools/export"


def _agree(ours: Server, reference: Server, request: Request) -> None:
    found = compare(ours, reference, request)
    assert not found, f"{request.path} {json.dumps(request.body)[:300]}:\n  " + "\n  ".join(found[:12])


@pytest.mark.parametrize("shape", ["openai", "anthropic", "mcp", "auto-mcp-jsonrpc"])
@pytest.mark.parametrize("case", list(tools_cases.CASES))
def test_loading_each_case_agrees(ours: Server, reference: Server, case: str, shape: str) -> None:
    source, payload = tools_cases.shapes(case)[shape]
    _agree(ours, reference, Request("POST", _LOAD, {"tools": {"source": source, "payload": payload}}))


@pytest.mark.parametrize("to", ["openai", "anthropic", "mcp", "ir"])
@pytest.mark.parametrize("case", list(tools_cases.CASES))
def test_exporting_each_case_agrees(ours: Server, reference: Server, case: str, to: str) -> None:
    source, payload = tools_cases.shapes(case)["openai"]
    _agree(ours, reference, Request("POST", _EXPORT, {"tools": {"source": source, "payload": payload}, "to": to}))
