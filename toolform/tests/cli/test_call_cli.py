"""``toolform call`` from the command line, ours beside the reference's on the same scripted endpoint.

The reference runs as a black box (its own venv's ``toolform``); both get the
same replies, chosen by the conversation's turn, and their JSON results must
agree member for member (latency aside; ``executor`` and ``cost_source`` are
ours alone). About five seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.call_tools import FORECAST_OPENAI, XML_DENVER
from support.paths import REPO, WEATHER_LISTING
from support.scripted_endpoint import Answer, Fault, Prompt, Script, ScriptedEndpoint
from support.serving import OUR_TOOLFORM, REFERENCE_TOOLFORM

OURS_ONLY = ("executor", "cost_source")
PYTHON_TOOLS = '''
def get_forecast(city: str, days: int) -> dict:
    """Forecast for a city.

    Args:
        city: The city.
        days: How many days.
    """
    if city == "Atlantis":
        raise ValueError("no such city")
    return {"city": city, "days": days, "high_c": 4.5}
'''
TWO_CALLS = XML_DENVER.replace(
    "</function_calls>",
    '<invoke name="get_forecast">\n<parameter name="city">Atlantis</parameter>\n'
    '<parameter name="days">1</parameter>\n</invoke>\n</function_calls>',
)
ENV = {
    **os.environ,
    "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    "TOOLFORM_TEST_KEY": "sk-test",
}


def by_turn(*replies: str) -> Script:
    def script(prompt: Prompt) -> Answer:
        turn = sum(1 for m in prompt.messages if m.get("role") == "assistant")
        return Answer(replies[min(turn, len(replies) - 1)], prompt_tokens=120 + turn, completion_tokens=9)

    return script


def toolform(executable: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(executable), "call", *args], capture_output=True, text=True, timeout=120, env=ENV, check=False
    )


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    for step in result["steps"]:
        step.pop("latency_s")
    return {k: v for k, v in result.items() if k not in OURS_ONLY}


CASES = {
    "python tools executed, two calls, one failing": (
        "tools.py", ["--format", "xml_schema", "--execute", "--model", "Qwen/Qwen3-8B"], (TWO_CALLS, "Cold.")
    ),
    "a dry run of OpenAI tools": ("tools.json", ["--format", "xml_schema", "--model", "gpt-4o"], (XML_DENVER,)),
    "an invalid call handed back, then max steps": (
        "tools.py",
        ["--format", "json_minimal", "--execute", "--max-steps", "2", "--model", "m"],
        ('{"name": "get_forecast", "arguments": {"city": "Denver", "days": "two"}}',),
    ),
    "the Anthropic API with the guard": (
        "tools.py",
        ["--format", "json_minimal", "--execute", "--anthropic", "--api-key-env", "TOOLFORM_TEST_KEY",
         "--guard", "standard", "--model", "claude-x"],
        ('{"name": "get_forecast", "arguments": {"city": "Denver", "days": 2}}', "Cold."),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_our_call_verb_gives_the_references_result(case: str, tmp_path: Path) -> None:
    tools_name, args, replies = CASES[case]
    (tmp_path / "tools.py").write_text(PYTHON_TOOLS, encoding="utf-8")
    (tmp_path / "tools.json").write_text(json.dumps(FORECAST_OPENAI), encoding="utf-8")
    results, requests = [], []
    for executable in (REFERENCE_TOOLFORM, OUR_TOOLFORM):
        with ScriptedEndpoint(by_turn(*replies)) as endpoint:
            base = f"http://127.0.0.1:{endpoint.port}" if "--anthropic" in args else endpoint.base_url
            # Ours imports a .py file only when trusted; the reference has no such switch.
            trust = ["--trust-code"] if executable == OUR_TOOLFORM and tools_name.endswith(".py") else []
            run = toolform(executable, str(tmp_path / tools_name), "--request", "Forecast for Denver, 2 days",
                           "--base-url", base, "--json", *args, *trust)
            assert run.returncode == 0, run.stderr
            results.append(comparable(json.loads(run.stdout)))
            requests.append([p.body for p in endpoint.prompts()])
    reference, ours = results
    assert ours == reference
    # The same requests went out, body for body.
    assert requests[1] == requests[0]


def test_a_flow_listing_executed_from_the_command_line_shows_each_outcome() -> None:
    reply = (
        '[{"name": "get_forecast", "arguments": {"city": "Denver", "days": 1}}, '
        '{"name": "get_forecast", "arguments": {"city": "Atlantis", "days": 1}}]'
    )
    with ScriptedEndpoint(by_turn(reply, "Cold in Denver.")) as endpoint:
        run = toolform(
            OUR_TOOLFORM, str(WEATHER_LISTING), "--from", "flow",
            "--manifest", str(REPO / "examples" / "python"), "--execute", "--format", "json_minimal",
            "--request", "Denver and Atlantis", "--base-url", endpoint.base_url, "--model", "scripted",
        )
    assert run.returncode == 0, run.stderr
    assert '  ran get_forecast: Ok {"city": "Denver", "days": [{"date": "2026-12-01", "high_c": 4.5' in run.stdout
    assert '  ran get_forecast: Failed {"UnknownCity": {"query": "Atlantis"' in run.stdout
    assert "final answer\nCold in Denver.\nstopped: no_call" in run.stdout
    # The study prices tokens in its own units, so the cost names them, not a currency.
    assert "(price units, frontier_api prices)" in run.stdout


def test_without_a_base_url_the_verb_is_a_usage_error_and_a_failing_endpoint_exits_4(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps(FORECAST_OPENAI), encoding="utf-8")
    usage = toolform(OUR_TOOLFORM, str(tmp_path / "tools.json"), "--request", "x", "--model", "m")
    assert usage.returncode == 2 and "give --base-url (or --anthropic)" in usage.stderr
    with ScriptedEndpoint(by_turn("x")) as endpoint:
        endpoint.fail_next(Fault("status", status=500))
        failed = toolform(OUR_TOOLFORM, str(tmp_path / "tools.json"), "--request", "x", "--model", "m",
                          "--format", "xml_schema", "--base-url", endpoint.base_url)
    assert failed.returncode == 4
    assert "stopped: error" in failed.stdout and "error: the endpoint refused the request (HTTP 500)" in failed.stderr


def test_without_a_format_the_advisor_chooses_it_for_the_model_and_the_result_carries_its_recommendation(
    tmp_path: Path,
) -> None:
    (tmp_path / "tools.json").write_text(json.dumps(FORECAST_OPENAI), encoding="utf-8")
    with ScriptedEndpoint(by_turn("No tool fits.")) as endpoint:
        run = toolform(OUR_TOOLFORM, str(tmp_path / "tools.json"), "--request", "Hi", "--model", "Qwen/Qwen3-8B",
                       "--base-url", endpoint.base_url, "--json")
        system = endpoint.prompts()[0].body["messages"][0]["content"]
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    recommendation = result["recommendation"]
    assert recommendation["resolution"]["matched_by"] == "checkpoint"
    assert (result["format_id"], result["protocol_id"]) == (recommendation["format_id"], recommendation["protocol_id"])
    assert result["stopped"] == "no_call" and "get_forecast" in system


def test_a_python_tools_file_is_imported_once_when_its_tools_are_run(tmp_path: Path) -> None:
    imports = tmp_path / "imports.txt"
    counting = f"with open({str(imports)!r}, 'a') as f:\n    f.write('imported\\n')\n" + PYTHON_TOOLS
    (tmp_path / "tools.py").write_text(counting, encoding="utf-8")
    with ScriptedEndpoint(by_turn('{"name": "get_forecast", "arguments": {"city": "Oslo", "days": 1}}', "Ok.")) as e:
        run = toolform(OUR_TOOLFORM, str(tmp_path / "tools.py"), "--request", "Oslo", "--model", "m", "--execute",
                       "--format", "json_minimal", "--base-url", e.base_url, "--json", "--trust-code")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["steps"][0]["executed"][0]["ok"] is True
    assert imports.read_text(encoding="utf-8") == "imported\n"
