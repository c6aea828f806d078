"""The differential harness: the same requests to our server and the reference's, answers compared.

Every route of the meta, registry, evidence and tools groups; the tools routes
on generated tool sets (toolsets.py) in every loader's shape, a 200-tool set,
and the IR the reference exports read back by both. TOOLFORM_DIFF_CASES sets how
many generated sets (CI's count is in the Makefile); the seeds are fixed, so a
failure names a case that reproduces.
"""

from __future__ import annotations

import json
import os

import pytest

from support import toolsets
from support.differences import DIFFERENCES, Answer, Request, adjust
from support.differential import ask, compare
from support.evidence_files import evidence_json
from support.serving import Server

CASES = int(os.environ.get("TOOLFORM_DIFF_CASES", "12"))
SEEDS = list(range(CASES))
LARGE_SEED = 200_000

FORMAT_IDS = list(evidence_json("formats")["data"])
EVIDENCE_NAMES = ["manifest", *(entry["name"] for entry in evidence_json("manifest")["files"])]

GETS = [
    "/",
    "/api/v1/health",
    "/api/v1/version",
    "/api/v1/formats",
    "/api/v1/formats?core=true",
    "/api/v1/formats?core=false",
    "/api/v1/formats?core=1",
    "/api/v1/formats?family=json",
    "/api/v1/formats?family=markup&core=true",
    "/api/v1/formats?in_study=false",
    "/api/v1/formats?in_study=true&family=code",
    "/api/v1/formats?family=",
    "/api/v1/formats?family=JSON",
    "/api/v1/formats?core=abc",
    "/api/v1/formats?in_study=maybe",
    *(f"/api/v1/formats/{format_id}" for format_id in FORMAT_IDS),
    "/api/v1/formats/xml_schem",
    "/api/v1/formats/json",
    "/api/v1/formats/nope",
    "/api/v1/formats/XML_SCHEMA",
    "/api/v1/formats/typescrpt",
    "/api/v1/protocols",
    "/api/v1/protocols/xml_call",
    "/api/v1/models",
    "/api/v1/evidence",
    *(f"/api/v1/evidence/{name}" for name in EVIDENCE_NAMES),
    "/api/v1/evidence/nope",
    "/api/v1/evidence/NOTICE",
    "/api/v1/facts",
    "/api/v1/nothing",
]

_TOOL = {"type": "function", "function": {"name": "a", "parameters": {"type": "object", "properties": {}}}}
_LOAD = "/api/v1/tools/load"
_EXPORT = "/api/v1/tools/export"

ERROR_REQUESTS = [
    Request("DELETE", "/api/v1/health"),
    Request("POST", "/api/v1/health"),
    Request("POST", _LOAD, raw=b"not json", headers=(("Content-Type", "application/json"),)),
    Request("POST", _LOAD, raw=b"{}", headers=(("Content-Type", "text/plain"),)),
    Request("POST", _LOAD, raw=b"{}", headers=(("Content-Length", "abc"),)),
    Request("POST", _LOAD, {}),
    Request("POST", _LOAD, {"tools": 1}),
    Request("POST", _LOAD, {"tools": {"payload": [_TOOL]}, "extra": 1}),
    Request("POST", _LOAD, {"tools": {"payload": [_TOOL], "x": 1}}),
    Request("POST", _LOAD, {"tools": {"source": 5, "payload": [_TOOL]}}),
    Request("POST", _LOAD, {"tools": {"source": "xyz", "payload": [_TOOL]}}),
    Request("POST", _LOAD, {"tools": {"source": "python", "payload": "def f(): pass"}}),
    Request("POST", _LOAD, {"tools": {"source": "auto", "payload": None}}),
    Request("POST", _LOAD, {"tools": {"source": "auto", "payload": True}}),
    Request("POST", _LOAD, {"tools": {"source": "auto", "payload": 1.5}}),
    Request("POST", _LOAD, {"tools": {"source": "auto", "payload": []}}),
    Request("POST", _LOAD, {"tools": {"source": "auto", "payload": {}}}),
    Request("POST", _LOAD, {"tools": {"source": "auto", "payload": {"tools": []}}}),
    Request("POST", _LOAD, {"tools": {"source": "auto", "payload": [None]}}),
    Request("POST", _LOAD, {"tools": {"source": "typescript", "payload": {"a": 1}}}),
    Request("POST", _LOAD, {"tools": {"source": "typescript", "payload": [1]}}),
    Request("POST", _LOAD, {"tools": {"source": "typescript", "payload": "function f(a: string): void;\nf(: ;"}}),
    Request("POST", _LOAD, {"tools": {"source": "auto", "payload": ""}}),
    Request("POST", _LOAD, {"tools": {"source": "openai", "payload": [{"bad": 1}] * 3}}),
    Request("POST", _LOAD, {"tools": {"source": "openai", "payload": [{"bad": 1}] * 2001}}),
    Request("POST", _LOAD, {"tools": {"source": "mcp", "payload": {"tools": [{"name": "a"}] * 2001}}}),
    Request("POST", _LOAD, {"tools": {"source": "mcp", "payload": {"jsonrpc": "2.0", "id": 1,
                                                                  "result": {"tools": [{"name": "a"}] * 2001}}}}),
    Request("POST", _LOAD, {"tools": {"source": "typescript", "payload": "x" * 1_000_001}}),
    Request("POST", _LOAD, {"tools": {"source": "openai", "payload": "[]"}}),
    Request("POST", _LOAD, {"tools": {"source": "openai", "payload": json.dumps([_TOOL])}}),
    Request("POST", _LOAD, {"tools": {"source": "openai", "payload": "not json"}}),
    Request("POST", _LOAD, {"tools": {"source": "anthropic", "payload": "5"}}),
    Request("POST", _LOAD, {"tools": {"source": "ir", "payload": "x"}}),
    Request("POST", _LOAD, {"tools": {"source": "mcp", "payload": '[{"name": '}}),
    Request("POST", _EXPORT, {"tools": {"source": "openai", "payload": "nope"}, "to": "mcp"}),
    Request("POST", _EXPORT, {"tools": {"source": "openai", "payload": [_TOOL]}}),
    Request("POST", _EXPORT, {"tools": {"source": "openai", "payload": [_TOOL]}, "to": "xml"}),
    Request("POST", _EXPORT, {"tools": {"source": "python", "payload": "x"}, "to": "mcp"}),
    Request("POST", _EXPORT, {"tools": {"source": "openai", "payload": [_TOOL] * 2001}, "to": "mcp"}),
    Request("POST", _LOAD, raw=b'{"tools": {"payload": "' + b"x" * 8_000_000 + b'"}}',
            headers=(("Content-Type", "application/json"),)),
]


def _agree(ours: Server, reference: Server, request: Request) -> None:
    found = compare(ours, reference, request)
    shown = request.path if request.body is None else f"{request.path} {json.dumps(request.body)[:300]}"
    assert not found, f"{request.method} {shown}:\n  " + "\n  ".join(found[:12])


@pytest.mark.parametrize("path", GETS)
def test_get_routes_agree(ours: Server, reference: Server, path: str) -> None:
    _agree(ours, reference, Request("GET", path))


@pytest.mark.parametrize("request_", ERROR_REQUESTS, ids=lambda r: f"{r.method} {r.path} {str(r.body or r.raw)[:40]}")
def test_refusals_agree(ours: Server, reference: Server, request_: Request) -> None:
    _agree(ours, reference, request_)


def _sources(seed: int, source: str) -> list[str]:
    # Half the sets name their source, half let auto detect it: both paths are compared.
    return [source] if seed % 2 == 0 else ["auto"]


@pytest.mark.parametrize("shape", [*toolsets.JSON_SHAPES, "typescript"])
@pytest.mark.parametrize("seed", [*SEEDS, LARGE_SEED])
def test_loading_generated_tool_sets_agrees(ours: Server, reference: Server, seed: int, shape: str) -> None:
    tools = toolsets.tool_set(seed, count=200 if seed == LARGE_SEED else None)
    payload: object
    if shape == "typescript":
        source, payload = "typescript", toolsets.typescript(tools)
    else:
        source, write = toolsets.JSON_SHAPES[shape]
        payload = write(tools)
    for named in _sources(seed, source):
        _agree(ours, reference, Request("POST", _LOAD, {"tools": {"source": named, "payload": payload}}))


@pytest.mark.parametrize("to", ["openai", "anthropic", "mcp", "ir"])
@pytest.mark.parametrize("seed", [*SEEDS, LARGE_SEED])
def test_exporting_generated_tool_sets_agrees(ours: Server, reference: Server, seed: int, to: str) -> None:
    tools = toolsets.tool_set(seed, count=200 if seed == LARGE_SEED else None)
    shape = list(toolsets.JSON_SHAPES)[seed % len(toolsets.JSON_SHAPES)]
    source, write = toolsets.JSON_SHAPES[shape]
    _agree(ours, reference, Request("POST", _EXPORT, {"tools": {"source": source, "payload": write(tools)}, "to": to}))


@pytest.mark.parametrize("seed", SEEDS)
def test_the_ir_the_reference_exports_reads_back_the_same(ours: Server, reference: Server, seed: int) -> None:
    tools = toolsets.tool_set(seed)
    exported = reference.post(_EXPORT, {"tools": {"source": "openai", "payload": toolsets.openai_list(tools)},
                                        "to": "ir"})
    assert exported.status == 200, exported.body
    ir = exported.json()["payload"]
    for source in ("ir", "auto"):
        _agree(ours, reference, Request("POST", _LOAD, {"tools": {"source": source, "payload": ir}}))


@pytest.mark.parametrize("difference", DIFFERENCES, ids=lambda d: d.name)
def test_every_listed_difference_is_still_needed(ours: Server, reference: Server, difference: object) -> None:
    """Each difference's witness request still differs, and is explained by that difference alone."""
    from support.differences import Difference

    assert isinstance(difference, Difference)
    request = difference.witness
    ours_answer, reference_answer = ask(ours, request), ask(reference, request)
    assert difference.applies_to(request)
    before = (ours_answer.status, json.dumps(ours_answer.body), reference_answer.status,
              json.dumps(reference_answer.body))
    assert difference.adjust(request, Answer(ours_answer.status, json.loads(before[1])),
                             Answer(reference_answer.status, json.loads(before[3])))
    assert difference.name in adjust(request, ours_answer, reference_answer)
