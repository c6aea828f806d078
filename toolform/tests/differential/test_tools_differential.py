"""The hand-written cases of tools_cases.py through both servers: load in every shape, export to every target.

Python modules, which the servers do not load, are compared with the reference's `toolform convert`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from support import tools_cases
from support.differences import Request, python_dates_are_formatted_strings
from support.differential import compare, mismatches
from support.paths import DATA
from support.serving import REFERENCE_TOOLFORM, Server
from support.tools_evidence import fixture
from toolform import loaders

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


@pytest.mark.parametrize("case", list(tools_cases.TS_CASES))
def test_loading_each_typescript_case_agrees(ours: Server, reference: Server, case: str) -> None:
    source = tools_cases.TS_CASES[case]
    _agree(ours, reference, Request("POST", _LOAD, {"tools": {"source": "typescript", "payload": source}}))


@pytest.mark.parametrize("module", tools_cases.PYTHON_MODULES)
def test_python_modules_read_as_the_references_convert_reads_them(module: str, tmp_path: Path) -> None:
    path = tmp_path / module.removesuffix(".txt")
    path.write_text((DATA / module).read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run(
        [str(REFERENCE_TOOLFORM), "convert", str(path), "--from", "python", "--to", "ir"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={k: v for k, v in os.environ.items() if not k.startswith("TOOLFORM_")},
    )
    assert done.returncode == 0, done.stderr
    reference = json.loads(done.stdout)
    ours = loaders.load("python", str(path)).toolset.to_dict()
    python_dates_are_formatted_strings(ours, reference)
    assert not mismatches(ours, reference)


def _ir_sets() -> dict[str, list[dict[str, Any]]]:
    return {"sample": [fixture("sample_renders")["tool"]], **tools_cases.IR_TOOLS}


@pytest.mark.parametrize("to", ["openai", "anthropic", "mcp", "ir"])
@pytest.mark.parametrize("name", ["sample", *tools_cases.IR_TOOLS])
def test_exporting_ir_tools_agrees(ours: Server, reference: Server, name: str, to: str) -> None:
    payload = _ir_sets()[name]
    _agree(ours, reference, Request("POST", _EXPORT, {"tools": {"source": "ir", "payload": payload}, "to": to}))
