"""``toolform ab-test`` from the command line against the scripted endpoint, beside the reference's."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

from support.measure_cases import EXAMPLES, TOOLS, json_wins
from support.paths import WEATHER_LISTING
from support.scripted_endpoint import Answer, ScriptedEndpoint
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM


def files(tmp_path: Path) -> list[str]:
    tools, examples = tmp_path / "tools.json", tmp_path / "examples.jsonl"
    tools.write_text(json.dumps(TOOLS))
    examples.write_text("".join(json.dumps(e) + "\n" for e in EXAMPLES))
    return ["--tools-file", str(tools), "--examples", str(examples), "--formats", "json_schema_openai,xml_schema"]


def ab_test(executable: Path, endpoint: ScriptedEndpoint, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [str(executable), "ab-test", "--base-url", endpoint.base_url, "--model", "m1", *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_ab_test_prints_the_table_and_a_progress_bar_on_stderr(tmp_path: Path) -> None:
    store, out = tmp_path / "store", tmp_path / "report.json"
    with ScriptedEndpoint(json_wins) as endpoint:
        done = ab_test(OUR_TOOLFORM, endpoint, *files(tmp_path), "--evidence-dir", str(store), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "json_schema_openai" in done.stdout and "[70.1, 100.0]" in done.stdout
    assert "In the study (paper:tab_selection), measuring eight formats this way reached 69.18%" in done.stdout
    assert done.stdout.count("\n") < 20 and "Winner: json_schema_openai with json_object." in done.stdout
    assert done.stderr.splitlines()[-1] == f"measured {2 * len(EXAMPLES)} of {2 * len(EXAMPLES)} requests"
    report = json.loads(out.read_text())
    assert len(report["records"]) == 2 * len(EXAMPLES) and report["verdict"] == "winner"
    assert "local:" in done.stdout and len(json.loads((store / "manifest.json").read_text())["files"]) == 1


def test_ab_test_json_scores_equal_the_reference(tmp_path: Path) -> None:
    results: list[dict[str, Any]] = []
    with ScriptedEndpoint(json_wins) as endpoint:
        for executable, extra in ((OUR_TOOLFORM, ["--no-evidence"]), (REFERENCE_TOOLFORM, [])):
            done = ab_test(executable, endpoint, *files(tmp_path), "--json", *extra)
            assert done.returncode == 0, done.stderr
            results.append(json.loads(done.stdout))
    ours, theirs = results
    for member in ("verdict", "winner", "tied_with", "n_requests", "source", "errors", "total_requests"):
        assert ours[member] == theirs[member], member
    assert [{k: s[k] for k in t} for s, t in zip(ours["scores"], theirs["scores"], strict=True)] == theirs["scores"]


def test_a_bad_examples_line_is_named(tmp_path: Path) -> None:
    arguments = files(tmp_path)
    Path(arguments[3]).write_text(json.dumps(EXAMPLES[0]) + "\n{not json\n")
    with ScriptedEndpoint(json_wins) as endpoint:
        done = ab_test(OUR_TOOLFORM, endpoint, *arguments, "--no-evidence")
    assert done.returncode == 3 and "line 2: not JSON" in done.stderr
    assert not endpoint.requests


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_redraws_on_a_terminal_and_writes_tenths_otherwise() -> None:
    from toolform.cli.ab_test import ProgressBar

    terminal, log = Terminal(), io.StringIO()
    for stream in (terminal, log):
        bar = ProgressBar(stream)
        for done in range(1, 41):
            bar(done, 40)
    drawn = terminal.getvalue()
    assert drawn.count("\r") == 40 and drawn.endswith("\r[" + "#" * 30 + "] 40/40 requests measured\n")
    assert "\r[#######-----------------------] 10/40 requests measured" in drawn
    lines = log.getvalue().splitlines()
    assert lines[:3] == ["measured 1 of 40 requests", "measured 4 of 40 requests", "measured 8 of 40 requests"]
    assert len(lines) == 11 and lines[-1] == "measured 40 of 40 requests"


def test_a_flow_listing_is_graded_by_flows_own_decoding(tmp_path: Path) -> None:
    # A lone surrogate is text to JSON Schema but not to Flow: the model's call is the task's (correct) and
    # not one the Tool would read (not schema-valid), as the Tool's own decoding says.
    listing = WEATHER_LISTING
    call = {"name": "get_forecast", "arguments": {"city": "Den\ud800", "days": 3}}
    examples, out = tmp_path / "examples.jsonl", tmp_path / "report.json"
    examples.write_text(json.dumps({"request": "Forecast for Den", "calls": [call]}) + "\n")
    with ScriptedEndpoint(lambda prompt: Answer(json.dumps(call), prompt_tokens=40, completion_tokens=10)) as endpoint:
        done = ab_test(OUR_TOOLFORM, endpoint, "--tools-file", str(listing), "--from", "flow", "--examples",
                       str(examples), "--formats", "json_minimal", "--no-evidence", "--out", str(out))
    assert done.returncode == 0, done.stderr
    [record] = json.loads(out.read_text())["records"]
    assert record["correct"] is True and record["schema_valid"] is False
