"""The call loop with Flow Tools: each accepted call made through the host client (``flow-host call``) to
the Tool process flow.toml binds, its outcome handed back to the model, exact numbers all the way.

The weather Tools in Python (examples/python) and Rust (rust-weather), a
Decimal Tool of our own, and an MCP server (the testkit's flow-fake-mcp)
through flow-host's adapter; the Rust binaries are the ones `make test` builds
(``CARGO_TARGET_DIR``, else ``target/``). Each call starts its Tool process:
about five seconds in all.
"""

from __future__ import annotations

import json
import os
from decimal import Decimal
from pathlib import Path

import pytest
from toolform.call import TOOL_RESULT_HEADER, EndpointConfig, FlowTools, OpenAIChat, flow_parser, run_call
from toolform.errors import BadRequest
from toolform.ir import ToolSet
from toolform.loaders import load

from support import flow_exact_tool
from support.call_tools import FLOW_ENV, PYTHON_WEATHER
from support.paths import REPO, WEATHER_LISTING
from support.scripted_endpoint import Prompt, Script, ScriptedEndpoint

MCP_LISTING = REPO / "tests" / "mcp" / "fake.tools.json"


def _weather_tools() -> ToolSet:
    return load("flow", WEATHER_LISTING.read_text(encoding="utf-8")).toolset


def _endpoint(endpoint: ScriptedEndpoint) -> OpenAIChat:
    return OpenAIChat(EndpointConfig(model="scripted", base_url=endpoint.base_url))


def _replies(*replies: str) -> Script:
    """A script answering the n-th request with the n-th reply (the conversation's length says which)."""

    def script(prompt: Prompt) -> str:
        turn = sum(1 for m in prompt.messages if m.get("role") == "assistant")
        return replies[min(turn, len(replies) - 1)]

    return script


def _results(prompt: Prompt) -> list[dict[str, object]]:
    lines = prompt.user.splitlines()
    assert lines[0] == TOOL_RESULT_HEADER
    return [json.loads(line, parse_float=Decimal) for line in lines[1:]]


def built(binary: str) -> Path:
    """A workspace binary `make test` builds (rust-weather, the testkit's flow-fake-mcp)."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for profile in ("debug", "release"):
        if (target / profile / binary).exists():
            return target / profile / binary
    pytest.fail(f"{binary} is not built in {target}: run `cargo build --workspace` (make test does)")


def test_the_python_weather_tool_answers_ok_failed_and_unknown_and_each_outcome_reaches_the_model() -> None:
    first = (
        '[{"name": "get_forecast", "arguments": {"city": "Denver", "days": 2}}, '
        '{"name": "get_forecast", "arguments": {"city": "Atlantis", "days": 1, "units": "Metric"}}, '
        '{"name": "get_forecast", "arguments": {"city": "boom", "days": 1}}]'
    )
    with ScriptedEndpoint(_replies(first, "Cold in Denver; Atlantis is unknown.")) as endpoint:
        executor = FlowTools(WEATHER_LISTING, PYTHON_WEATHER, env=FLOW_ENV)
        result = run_call(
            _weather_tools(), "Forecasts", _endpoint(endpoint), format_id="json_minimal",
            executor=executor, executor_kind="flow",
        )
        prompts = endpoint.prompts()
    assert result.stopped == "no_call" and result.final_text.startswith("Cold in Denver")
    ok, failed, unknown = result.steps[0].executed
    assert (ok.outcome, failed.outcome, unknown.outcome) == ("Ok", "Failed", "Unknown")
    assert ok.identity == "github.com/acme/weather@1.2.0/weather.flow.get_forecast"
    # Decimals stay Decimals, with their digits, in the record and in what the model is told.
    assert ok.result["days"][0]["low_c"] == Decimal("-1.25") and isinstance(ok.result["days"][0]["low_c"], Decimal)
    assert failed.error == {"UnknownCity": {"query": "Atlantis", "suggestions": ["Athens", "Atlanta"]}}
    told = _results(prompts[1])
    assert told[0]["ok"] is True and told[0]["outcome"] == "Ok" and told[0]["result"] == ok.result
    assert '"high_c": 4.5, "low_c": -1.25' in prompts[1].user
    assert told[1] == {"ok": False, "outcome": "Failed", "error": failed.error}
    assert told[2]["outcome"] == "Unknown" and "the forecast model is down" in str(told[2]["error"])
    assert result.to_dict()["steps"][0]["executed"][0]["outcome"] == "Ok"


def test_option_parameters_are_none_when_left_out_and_some_when_given() -> None:
    executor = FlowTools(WEATHER_LISTING, PYTHON_WEATHER, env=FLOW_ENV)
    assert executor.protocol_args("get_forecast", {"city": "Denver", "days": 2}) == {
        "city": "Denver", "days": 2, "units": "None",
    }
    assert executor.protocol_args("get_forecast", {"city": "Denver", "days": 2, "units": "Metric"})["units"] == {
        "Some": "Metric"
    }


def test_a_call_the_host_refuses_is_not_run_with_the_path_and_rule_and_a_generic_tool_is_not_run() -> None:
    executor = FlowTools(WEATHER_LISTING, PYTHON_WEATHER, env=FLOW_ENV)
    refused = executor.execute("get_forecast", {"city": "Denver", "days": 2, "units": "Kelvin"})
    assert refused.outcome == "NotRun" and not refused.ok
    assert str(refused.error).startswith("$.args.units")
    generic = executor.execute("echo", {"value": 1})
    assert generic.outcome == "NotRun" and "generic" in str(generic.error)


def test_numbers_cross_exactly_through_a_decimal_tool(tmp_path: Path) -> None:
    listing = tmp_path / "exact.tools.json"
    listing.write_text(flow_exact_tool.LISTING, encoding="utf-8")
    (tmp_path / "flow.toml").write_text(
        f'[tools."{flow_exact_tool.TABLE}"]\ncommand = "python3 {flow_exact_tool.__file__}"\n', encoding="utf-8"
    )
    executor = FlowTools(listing, tmp_path, env=FLOW_ENV)
    long = executor.execute("subtract", {"a": Decimal("0.30000000000000000000000000001"), "b": Decimal("0.1")})
    assert long.outcome == "Ok" and str(long.result) == "0.20000000000000000000000000001"
    # Through the loop: the model's 0.3 - 0.1 is 0.2, as decimals (a float would give 0.19999999999999998).
    reply = '{"name": "subtract", "arguments": {"a": 0.3, "b": 0.1}}'
    with ScriptedEndpoint(_replies(reply, "0.2")) as endpoint:
        result = run_call(
            load("flow", flow_exact_tool.LISTING).toolset, "0.3 - 0.1?", _endpoint(endpoint),
            format_id="json_minimal", executor=executor,
        )
        turn = endpoint.prompts()[1].user
    assert result.steps[0].executed[0].result == Decimal("0.2")
    assert turn == TOOL_RESULT_HEADER + '\n{"ok": true, "outcome": "Ok", "result": 0.2}'


def test_the_rust_weather_tool_through_the_same_loop(tmp_path: Path) -> None:
    binding = f'[tools."weather.flow"]\ncommand = "{built("rust-weather")}"\n'
    (tmp_path / "flow.toml").write_text(binding, encoding="utf-8")
    reply = '{"name": "get_forecast", "arguments": {"city": "Oslo", "days": 1}}'
    with ScriptedEndpoint(_replies(reply, "Done.")) as endpoint:
        result = run_call(
            _weather_tools(), "Oslo?", _endpoint(endpoint), format_id="json_minimal",
            executor=FlowTools(WEATHER_LISTING, tmp_path, env=FLOW_ENV),
        )
        told = _results(endpoint.prompts()[1])
    (done,) = result.steps[0].executed
    assert done.outcome == "Ok" and done.result["source"] == "rust-weather"
    assert told == [{"ok": True, "outcome": "Ok", "result": done.result}]


def test_an_mcp_server_through_the_adapter_answers_ok_and_bad_reply(tmp_path: Path) -> None:
    (tmp_path / "flow.toml").write_text(f'[tools."fake.flow"]\nmcp = "{built("flow-fake-mcp")}"\n', encoding="utf-8")
    reply = '[{"name": "ok", "arguments": {}}, {"name": "big", "arguments": {}}]'
    with ScriptedEndpoint(_replies(reply, "Done.")) as endpoint:
        result = run_call(
            load("flow", MCP_LISTING.read_text(encoding="utf-8")).toolset, "Go", _endpoint(endpoint),
            format_id="json_minimal", executor=FlowTools(MCP_LISTING, tmp_path, env=FLOW_ENV),
        )
        told = _results(endpoint.prompts()[1])
    ok, unreadable = result.steps[0].executed
    assert ok.outcome == "Ok" and ok.result == {"n": 1}
    # The server's answer does not decode at the declared type: the adapter names the path and rule.
    assert unreadable.outcome == "BadReply" and str(unreadable.error).startswith("$.result.structuredContent")
    assert [t["outcome"] for t in told] == ["Ok", "BadReply"]


def test_a_tool_flow_toml_does_not_bind_is_not_run_and_the_model_is_told_why(tmp_path: Path) -> None:
    (tmp_path / "flow.toml").write_text('[tools."other.flow"]\ncommand = "true"\n', encoding="utf-8")
    reply = '{"name": "get_forecast", "arguments": {"city": "Oslo", "days": 1}}'
    with ScriptedEndpoint(_replies(reply)) as endpoint:
        result = run_call(
            _weather_tools(), "Oslo?", _endpoint(endpoint), format_id="json_minimal",
            executor=FlowTools(WEATHER_LISTING, tmp_path, env=FLOW_ENV), max_steps=2,
        )
        told = _results(endpoint.prompts()[1])
    assert result.stopped == "max_steps"
    (refused,) = result.steps[0].executed
    assert refused.outcome == "NotRun" and "weather.flow" in str(refused.error)
    assert told == [{"ok": False, "outcome": "NotRun", "error": refused.error}]


def test_a_listing_with_no_flow_toml_beside_it_is_refused_before_anything_runs(tmp_path: Path) -> None:
    with pytest.raises(BadRequest, match="no flow.toml"):
        FlowTools(WEATHER_LISTING, tmp_path)


def test_a_flow_host_that_cannot_start_ends_the_loop_with_the_reason(tmp_path: Path) -> None:
    reply = '{"name": "get_forecast", "arguments": {"city": "Oslo", "days": 1}}'
    missing = str(tmp_path / "no-flow-host")
    with ScriptedEndpoint(_replies(reply)) as endpoint:
        result = run_call(
            _weather_tools(), "Oslo?", _endpoint(endpoint), format_id="json_minimal",
            executor=FlowTools(WEATHER_LISTING, PYTHON_WEATHER, env=FLOW_ENV, flow_host=missing),
        )
    assert result.stopped == "error" and result.error.startswith(f"cannot start flow-host ({missing})")
    assert len(result.steps) == 1 and result.steps[0].executed == []


def test_with_the_flow_parser_a_call_flow_would_refuse_is_refused_with_flows_rule_and_not_run() -> None:
    # ToolForm's schema check matches an enum without case; Flow's decoding does not, and flow-host would refuse.
    wrong = '{"name": "get_forecast", "arguments": {"city": "Oslo", "days": 2, "units": "metric"}}'
    with ScriptedEndpoint(_replies(wrong, "Sorry.")) as endpoint:
        result = run_call(
            _weather_tools(), "Forecast for Oslo", _endpoint(endpoint), format_id="json_minimal",
            executor=FlowTools(WEATHER_LISTING, PYTHON_WEATHER, env=FLOW_ENV), executor_kind="flow",
            parser=flow_parser(WEATHER_LISTING.read_text(encoding="utf-8")),
        )
        prompts = endpoint.prompts()
    assert result.steps[0].parsed["calls"][0]["valid"] is False
    [refused] = result.steps[0].executed
    # Refused by the parse, so flow-host never ran it (its refusal would be the outcome NotRun).
    assert not refused.ok and refused.outcome == "" and refused.validation is not None
    assert refused.validation["enum_errors"] == [
        'units: unknown constructor "metric" of github.com/acme/weather@1.2.0/weather.flow.Units [constructor]'
    ]
    assert "unknown constructor" in prompts[1].user
