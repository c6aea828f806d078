"""`toolform catalogue` against the reference's: the same JSON for plans, rankings and fits, the
same reduced tools written by --out, and the usage errors."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from support import catalogues
from support.differential import mismatches
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM


def _run(executable: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TOOLFORM_")}
    return subprocess.run(
        [str(executable), *arguments], capture_output=True, text=True, env=environment, timeout=120, check=False
    )


def _fit_tools() -> list[dict[str, Any]]:
    tools = []
    for i in range(6):
        params = {
            "req": {"type": "string", "description": "required thing here"},
            "opt_a": {"type": "string", "description": "short"},
            "opt_b": {"type": "integer", "description": "a much longer optional description " + "x" * i},
        }
        function = {
            "name": f"tool_{i}",
            "description": f"Does a thing with the widget item{i}",
            "parameters": {"type": "object", "properties": params, "required": ["req"]},
        }
        tools.append({"type": "function", "function": function})
    return tools


CASES: list[tuple[str, list[str]]] = [
    ("fit", ["--budget", "700", "--fit"]),
    ("fit", ["--budget", "450", "--fit", "--query", "widget item3", "--k", "2"]),
    ("fit", ["--budget", "5000", "--fit", "--format", "typescript"]),
    ("forty", ["--query", "get weather forecast", "--k", "3"]),
    ("forty", ["--context", "2000", "--query", "send email"]),
    ("ninety", ["--budget", "900", "--query", "book flight hotel", "--fit"]),
]


@pytest.mark.parametrize(("catalogue", "options"), CASES)
def test_the_json_and_the_written_tools_are_the_references(catalogue: str, options: list[str], tmp_path: Path) -> None:
    payload = {"fit": _fit_tools(), "forty": catalogues.catalogue(5, 40), "ninety": catalogues.catalogue(6, 90)}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(payload[catalogue]), encoding="utf-8")
    answers = {}
    for who, executable in (("ours", OUR_TOOLFORM), ("reference", REFERENCE_TOOLFORM)):
        out = ["--out", str(tmp_path / f"{who}.json")] if "--fit" in options else []
        done = _run(executable, "catalogue", str(path), *options, *out, "--json")
        assert done.returncode == 0, done.stderr
        answers[who] = json.loads(done.stdout)
    assert not mismatches(answers["ours"], answers["reference"])
    if "--fit" in options:
        written = [json.loads((tmp_path / f"{who}.json").read_text()) for who in ("ours", "reference")]
        assert written[0] == written[1]


def test_fit_needs_a_budget_as_the_references_does(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_fit_tools()), encoding="utf-8")
    ours, reference = (_run(exe, "catalogue", str(path), "--fit") for exe in (OUR_TOOLFORM, REFERENCE_TOOLFORM))
    assert ours.returncode == reference.returncode == 2
    assert "--fit needs --budget" in ours.stderr and "--fit needs --budget" in reference.stderr


def test_the_text_shows_the_plan_its_evidence_and_the_ranking(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(catalogues.catalogue(5, 40)), encoding="utf-8")
    done = _run(OUR_TOOLFORM, "catalogue", str(path), "--query", "get weather forecast")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("plan       retrieve\ntools      40\n")
    assert "paper:tab_count" in done.stdout and "BM25 ranking for 'get weather forecast'" in done.stdout
