"""Hostile input to Python (issue 8, item 4): each case of flow-hostile's catalog
(``testkit/src/hostile.rs``: 16 MiB + 1 byte, 129 deep, ``1e5000``,
``-1e-5000``, 10^6 duplicate keys, huge base64, invalid UTF-8, a lone
surrogate) is refused with its rule by the typed decoder and, where JSON
reading itself refuses it, by ``canonical``; and as a call's args into a
generated Python Tool process it is NotRun with its rule. The reading
process's peak memory over its resident set before the input stays within the
case's bound. Each case runs in processes of its own (``tests/hostile/decode.py``;
``flow-hostile server``). Nothing here is timed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, binary

# The fixed part of each bound: the interpreter's arenas and buffers.
BASELINE = 4 * 1024 * 1024

# NAME RULE TYPE json|typed BOUND-FACTOR (then what it is, for people).
CASES = [line.split("\t")[:5] for line in subprocess.run(
    [str(binary("flow-hostile")), "cases"], capture_output=True, text=True, check=True,
).stdout.splitlines()]


@pytest.mark.parametrize(("name", "rule", "term", "level", "factor"), CASES, ids=[c[0] for c in CASES])
def test_a_hostile_text_is_refused_in_bounded_memory(
    tmp_path: Path, name: str, rule: str, term: str, level: str, factor: str,
) -> None:
    text = tmp_path / name
    subprocess.run([str(binary("flow-hostile")), "text", name, str(text)], check=True)
    run = subprocess.run(
        [sys.executable, str(REPO / "tests" / "hostile" / "decode.py"), str(text), term],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    typed, as_json = report["refusals"]
    assert typed["rule"] == rule, typed
    assert as_json.get("rule") == (rule if level == "json" else None), as_json
    size, bound = report["size"], int(factor) * report["size"] + BASELINE
    for answer in (typed, as_json):
        if "rule" in answer:
            cost = answer["peak"] - report["rss"]
            assert cost <= bound, f"{name}: {size} bytes cost {cost} bytes of peak memory, over {bound}"


@pytest.fixture(scope="module")
def hostile_tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated Python Tool package for the hostile listing; its methods
    are the scaffold's stubs, which no refused call reaches."""
    root = tmp_path_factory.mktemp("hostile")
    listing = root / "hostile.tools.json"
    subprocess.run([str(binary("flow-hostile")), "listing", str(listing)], check=True)
    out = root / "hostile_tools"
    subprocess.run(
        [str(binary("flow-gen")), "--lang", "python", str(listing), "--out", str(out), "--no-manifest"],
        check=True, capture_output=True,
    )
    return root


@pytest.mark.parametrize(("name", "rule", "term", "level", "factor"), CASES, ids=[c[0] for c in CASES])
def test_hostile_args_are_not_run_by_a_python_tool_in_bounded_memory(
    hostile_tools: Path, name: str, rule: str, term: str, level: str, factor: str,
) -> None:
    run = subprocess.run(
        [str(binary("flow-hostile")), "server", name, "--", sys.executable, "-m", "hostile_tools"],
        cwd=hostile_tools, capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["outcome"] == "NotRun" and report["reason"].endswith(f"[{rule}]"), report["reason"][:300]
    size, cost = report["size"], report["peak"] - report["baseline"]
    bound = int(factor) * size + BASELINE
    assert cost <= bound, f"{name}: {size} bytes cost the Tool process {cost} bytes of peak memory, over {bound}"
