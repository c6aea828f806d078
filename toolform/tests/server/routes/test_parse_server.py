"""POST /api/v1/parse on our server beside the reference's (the same bodies, statuses and errors), and the
``toolform parse`` and ``toolform render`` verbs beside the reference's command."""

from __future__ import annotations

import json
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from support import render_differences
from support.differential import mismatches
from support.parse_corpus import GOOD, TOOLS, write
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM, Server

TOOLS_INPUT = {"source": "openai", "payload": TOOLS}
BODIES: list[dict[str, Any]] = [
    {"tools": TOOLS_INPUT, "text": write("xml_call", [GOOD]), "protocol": "xml_call"},
    {"tools": TOOLS_INPUT, "text": "x", "protocol": "nope"},
    {"tools": TOOLS_INPUT, "text": "x", "protocol": "xml_call", "rule": "bad"},
    {"tools": TOOLS_INPUT, "text": "x", "protocol": "xml_call", "rule": "as_written", "lenient_fallback": True},
    {"tools": TOOLS_INPUT, "protocol": "xml_call"},
    {"tools": TOOLS_INPUT, "text": "x", "protocol": "xml_call", "extra": 1},
    {"tools": {"source": "openai", "payload": []}, "text": "x", "protocol": "xml_call"},
    {"tools": TOOLS_INPUT, "text": 5, "protocol": "json_object"},
    {"tools": TOOLS_INPUT, "text": write("json_object", [GOOD]), "protocol": "xml_call", "lenient_fallback": True},
    {"tools": TOOLS_INPUT, "text": write("json_object", [GOOD]), "protocol": "json_object", "validate": False},
]


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_route_answers_as_the_reference(ours: Server, reference: Server, body: dict[str, Any]) -> None:
    mine, theirs = ours.post("/api/v1/parse", body), reference.post("/api/v1/parse", body)
    assert mine.status == theirs.status
    assert mismatches(mine.json(), theirs.json()) == []


def test_the_route_keeps_every_digit(ours: Server) -> None:
    text = '{"name": "send_email", "arguments": {"to": "a", "subject": "b", "priority": 0.1000000000000000000001}}'
    reply = ours.post("/api/v1/parse", {"tools": TOOLS_INPUT, "text": text, "protocol": "json_object"})
    assert reply.status == 200
    answer = json.loads(reply.body, parse_float=Decimal)
    assert answer["calls"][0]["arguments"]["priority"] == Decimal("0.1000000000000000000001")


def test_the_route_has_a_worked_example(ours: Server) -> None:
    schema = ours.get("/openapi.json").json()
    body = schema["paths"]["/api/v1/parse"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    name = body["$ref"].rsplit("/", 1)[-1]
    example = schema["components"]["schemas"][name]["examples"][0]
    reply = ours.post("/api/v1/parse", example)
    assert reply.status == 200 and reply.json()["ok"] is True


def _run(executable: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(executable), *arguments], capture_output=True, text=True, timeout=60, check=False)


@pytest.fixture(scope="module")
def tools_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("parse") / "tools.json"
    path.write_text(json.dumps(TOOLS), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("arguments", "status"),
    [
        (("--protocol", "json_object", "--text", write("json_object", [GOOD])), 0),
        (("--protocol", "json_object", "--text", "hello"), 1),
        (("--protocol", "json_object", "--text", "No tool is needed."), 0),
        (("--protocol", "json_object", "--text", "No tool is needed.", "--require-call"), 1),
        (("--protocol", "json_object", "--text", '{"name": "zz", "arguments": {}}'), 1),
        (("--protocol", "xml_call", "--text", write("json_object", [GOOD]), "--lenient-fallback"), 0),
        (("--protocol", "nope", "--text", "x"), 3),
        (("--protocol", "xml_call", "--text", "x", "--rule", "as_written", "--lenient-fallback"), 3),
    ],
)
def test_parse_verb_exits_as_the_reference(tools_file: Path, arguments: tuple[str, ...], status: int) -> None:
    mine = _run(OUR_TOOLFORM, "parse", str(tools_file), *arguments, "--json")
    theirs = _run(REFERENCE_TOOLFORM, "parse", str(tools_file), *arguments, "--json")
    assert (mine.returncode, theirs.returncode) == (status, status)
    if status != 3:
        assert mismatches(json.loads(mine.stdout), json.loads(theirs.stdout)) == []


@pytest.mark.parametrize(
    "options",
    [
        ("--format", "json_minimal"),
        ("--format", "xml_schema", "--protocol", "python_call", "--no-descriptions"),
        ("--format", "typescript", "--minify", "--case", "camel"),
        ("--format", "json_minimal", "--json"),
        ("--format", "json_minimal", "--messages", "--request", "Forecast for Denver"),
        ("--compare", "--formats", "json_minimal,xml_schema", "--json"),
    ],
)
def test_render_verb_prints_as_the_reference(tools_file: Path, tmp_path: Path, options: tuple[str, ...]) -> None:
    mine = _run(OUR_TOOLFORM, "render", str(tools_file), *options, "--out", str(tmp_path / "ours.txt"))
    theirs = _run(REFERENCE_TOOLFORM, "render", str(tools_file), *options, "--out", str(tmp_path / "theirs.txt"))
    assert mine.returncode == theirs.returncode == 0
    written = ((tmp_path / "ours.txt").read_text(), (tmp_path / "theirs.txt").read_text())
    outputs = [(mine.stdout, theirs.stdout), written]
    for ours_text, theirs_text in outputs:
        if "--json" in options and "--compare" not in options and theirs_text.strip():
            # The answer as JSON: ours carries hidden_constraints (render_differences.py); the rest is the same.
            ours_answer, theirs_answer = json.loads(ours_text), json.loads(theirs_text)
            assert render_differences.adjust(ours_answer, theirs_answer)
            assert ours_answer == theirs_answer
        else:
            assert ours_text == theirs_text
