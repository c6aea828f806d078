"""``toolform recommend`` against the reference's CLI: the same options, the same JSON (differences named)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from support import toolsets
from support.advisor_differences import comparable
from support.differential import mismatches
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM

OPTION_SETS = [
    ["--model", "Qwen/Qwen3-8B", "--n-tools", "16", "--tier", "5"],
    ["--family", "gemma4", "--objective", "cost", "--price", "self_hosted", "--n-tools", "64"],
    ["--model", "claude-opus-5-5-low", "--rule", "symmetric", "--budget", "1500"],
    ["--model", "acme/unknown-13b", "--protocol", "python_call", "--candidates", "xml_schema,typescript,json_minimal"],
    ["--model", "gpt-oss-120b", "--context", "4000", "--params-b", "117"],
]


def _run(executable: Path, arguments: list[str], cwd: Path) -> dict[str, Any]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TOOLFORM_")}
    environment["TOOLFORM_EVIDENCE_DIR"] = str(cwd / "store")
    done = subprocess.run(
        [str(executable), "recommend", *arguments, "--json"],
        capture_output=True, text=True, env=environment, cwd=cwd, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@pytest.mark.parametrize("arguments", OPTION_SETS, ids=[" ".join(a[:2]) for a in OPTION_SETS])
def test_recommend_cli_answers_as_the_reference(arguments: list[str], tmp_path: Path) -> None:
    if not REFERENCE_TOOLFORM.exists():
        pytest.fail(f"the reference is not installed at {REFERENCE_TOOLFORM}; run `make toolform-ref`")
    ours, theirs = _run(OUR_TOOLFORM, arguments, tmp_path), _run(REFERENCE_TOOLFORM, arguments, tmp_path)
    assert mismatches(comparable(ours), comparable(theirs)) == []


def test_recommend_cli_reads_a_tools_file(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(toolsets.openai_list(toolsets.tool_set(3))))
    arguments = ["--family", "qwen3", "--tools-file", str(path), "--third-party"]
    ours, theirs = _run(OUR_TOOLFORM, arguments, tmp_path), _run(REFERENCE_TOOLFORM, arguments, tmp_path)
    assert ours["tokens_source"] == "rendered" and ours["guard"]["action"] == "strip"
    assert mismatches(comparable(ours), comparable(theirs)) == []
