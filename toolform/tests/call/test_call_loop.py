"""The call loop's SDK against the scripted endpoint on loopback: each step recorded, results handed back.

Python tools here; Flow Tools through the host client are in test_call_flow.py.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from toolform.call import (
    TOOL_RESULT_HEADER,
    AnthropicChat,
    EndpointConfig,
    EndpointFailure,
    OpenAIChat,
    PythonTools,
    prices,
    run_call,
    thinking_setting,
    tool_result_turn,
)
from toolform.call.executed import ExecutedCall
from toolform.evidence import Evidence
from toolform.loaders import load
from toolform.render import render

from support.call_tools import POISONED_OPENAI, XML_DENVER, CountingForecast, forecast_tools
from support.scripted_endpoint import Answer, Fault, Prompt, ScriptedEndpoint


def _openai(endpoint: ScriptedEndpoint, model: str = "Qwen/Qwen3-8B", thinking: bool | None = False) -> OpenAIChat:
    return OpenAIChat(EndpointConfig(model=model, base_url=endpoint.base_url, max_tokens=256, thinking=thinking))


RESULT = '{"city": "Denver", "days": 2, "high_c": 4.5}'


def _call_then_answer(prompt: Prompt) -> Answer:
    """The forecast call first; once a tool result came back, a plain answer."""
    if prompt.user.startswith(TOOL_RESULT_HEADER):
        return Answer("It will be cold in Denver.", prompt_tokens=30, completion_tokens=6)
    return Answer(XML_DENVER, prompt_tokens=200, completion_tokens=40)


def test_a_dry_run_stops_after_the_first_reply_and_runs_nothing() -> None:
    tools = CountingForecast()
    with ScriptedEndpoint(_call_then_answer) as endpoint:
        result = run_call(forecast_tools(), "Forecast for Denver, 2 days", _openai(endpoint), format_id="xml_schema")
        prompts = endpoint.prompts()
    assert result.stopped == "dry_run"
    assert len(prompts) == 1 and tools.calls == []
    (step,) = result.steps
    assert step.executed == [] and result.calls == []
    assert [c["name"] for c in step.parsed["calls"]] == ["get_forecast"]
    assert step.parsed["calls"][0]["arguments"] == {"city": "Denver", "days": 2}
    # The request: the rendered system prompt, then the user's request, greedy, thinking off.
    body = prompts[0].body
    assert body["messages"] == [
        {"role": "system", "content": render(forecast_tools(), "xml_schema").system_prompt},
        {"role": "user", "content": "Forecast for Denver, 2 days"},
    ]
    assert body["temperature"] == 0.0 and body["max_tokens"] == 256
    assert body["chat_template_kwargs"] == {"enable_thinking": False}


def test_execute_runs_each_call_and_hands_the_results_back_until_a_reply_makes_no_call(evidence: Evidence) -> None:
    tools = CountingForecast()
    with ScriptedEndpoint(_call_then_answer) as endpoint:
        result = run_call(
            forecast_tools(),
            "Forecast for Denver, 2 days",
            _openai(endpoint),
            format_id="xml_schema",
            executor=PythonTools({"get_forecast": tools.get_forecast}),
            executor_kind="python",
        )
        prompts = endpoint.prompts()
    assert result.stopped == "no_call" and result.final_text == "It will be cold in Denver."
    assert tools.calls == [{"city": "Denver", "days": 2}]
    assert [s.index for s in result.steps] == [0, 1]
    assert result.steps[0].executed[0].to_dict() == {
        "name": "get_forecast",
        "arguments": {"city": "Denver", "days": 2},
        "ok": True,
        "result": {"city": "Denver", "days": 2, "high_c": 4.5},
    }
    # The second request carries the reply and the results as the conversation's next turns.
    assert prompts[1].messages[1:] == [
        {"role": "user", "content": "Forecast for Denver, 2 days"},
        {"role": "assistant", "content": XML_DENVER},
        {"role": "user", "content": f'{TOOL_RESULT_HEADER}\n{{"ok": true, "result": {RESULT}}}'},
    ]
    assert (result.prompt_tokens, result.completion_tokens) == (230, 46)
    price = prices(evidence)
    assert price.source == "paper:tab_cost"
    assert result.cost == pytest.approx(price.cost(200, 40, 0) + price.cost(30, 6, 0))
    assert result.to_dict()["calls"] == [{"name": "get_forecast", "arguments": {"city": "Denver", "days": 2}}]


def test_a_failing_tool_and_an_invalid_call_are_results_for_the_model_not_errors() -> None:
    tools = CountingForecast()
    reply = '[{"name": "get_forecast", "arguments": {"city": "Atlantis", "days": 1}}, ' \
        '{"name": "get_forecast", "arguments": {"city": "Denver", "days": "two"}}]'

    def script(prompt: Prompt) -> str:
        return "Sorry." if prompt.user.startswith(TOOL_RESULT_HEADER) else reply

    with ScriptedEndpoint(script) as endpoint:
        result = run_call(
            forecast_tools(), "Forecasts", _openai(endpoint), format_id="json_minimal",
            executor=PythonTools({"get_forecast": tools.get_forecast}),
        )
        turn = endpoint.prompts()[1].user
    # The invalid call never reached the function.
    assert tools.calls == [{"city": "Atlantis", "days": 1}]
    failed, invalid = result.steps[0].executed
    assert failed.to_dict()["error"] == "ValueError: no such city"
    assert invalid.error == "invalid call" and invalid.validation is not None
    lines = turn.splitlines()
    assert lines[0] == TOOL_RESULT_HEADER
    assert json.loads(lines[1]) == {"ok": False, "error": "ValueError: no such city"}
    told = json.loads(lines[2])
    assert told["tool"] == "get_forecast" and told["validation"]["type_errors"]
    # Only the call that was made is listed among the loop's calls.
    assert [c.arguments for c in result.calls] == [{"city": "Atlantis", "days": 1}]


def test_an_invented_tool_is_rejected_and_told_and_the_loop_goes_on() -> None:
    with ScriptedEndpoint(lambda p: '{"name": "weather_now", "arguments": {}}') as endpoint:
        result = run_call(
            forecast_tools(), "Weather?", _openai(endpoint), format_id="json_minimal", max_steps=2,
            executor=PythonTools({}),
        )
        prompts = endpoint.prompts()
    assert result.stopped == "max_steps" and len(prompts) == 2
    assert result.steps[0].parsed["hallucinated"] == ["weather_now"]
    assert json.loads(prompts[1].user.splitlines()[1])["validation"]["unknown_tool"] is True


def test_max_steps_bounds_the_requests() -> None:
    tools = CountingForecast()
    with ScriptedEndpoint(lambda p: XML_DENVER) as endpoint:
        result = run_call(
            forecast_tools(), "Again and again", _openai(endpoint), format_id="xml_schema", max_steps=3,
            executor=PythonTools({"get_forecast": tools.get_forecast}),
        )
        assert len(endpoint.prompts()) == 3
    assert result.stopped == "max_steps" and len(tools.calls) == 3 and result.final_text == ""


def test_a_failing_endpoint_stops_the_loop_with_its_reason_and_keeps_the_steps_before() -> None:
    with ScriptedEndpoint(_call_then_answer) as endpoint:
        endpoint.fail_next(Fault("status", status=503), count=1)
        result = run_call(forecast_tools(), "Forecast", _openai(endpoint), format_id="xml_schema")
    assert result.stopped == "error" and result.steps == []
    assert result.error == "the endpoint refused the request (HTTP 503)"


def test_an_endpoint_nobody_listens_on_is_an_error_naming_the_url() -> None:
    config = EndpointConfig(model="m", base_url="http://127.0.0.1:9/v1", timeout_s=5)
    result = run_call(forecast_tools(), "Forecast", OpenAIChat(config), format_id="xml_schema")
    assert result.stopped == "error" and result.error.startswith("cannot reach http://127.0.0.1:9/v1/chat/completions")


def test_the_anthropic_messages_api_gets_the_system_prompt_beside_the_messages_and_the_key_in_its_header() -> None:
    with ScriptedEndpoint(_call_then_answer) as endpoint:
        base = f"http://127.0.0.1:{endpoint.port}"
        chat = AnthropicChat(EndpointConfig(model="claude-x", base_url=base, api_key="sk-test"))
        result = run_call(
            forecast_tools(), "Forecast for Denver, 2 days", chat, format_id="xml_schema",
            executor=PythonTools({"get_forecast": CountingForecast().get_forecast}),
        )
        prompts = endpoint.prompts()
    assert result.stopped == "no_call" and result.final_text == "It will be cold in Denver."
    first = prompts[0]
    assert first.api == "anthropic" and first.path == "/v1/messages"
    assert first.body["system"] == render(forecast_tools(), "xml_schema").system_prompt
    assert first.body["messages"] == [{"role": "user", "content": "Forecast for Denver, 2 days"}]
    assert "chat_template_kwargs" not in first.body
    headers = {k.lower(): v for k, v in first.headers.items()}
    assert headers["x-api-key"] == "sk-test" and headers["anthropic-version"] == "2023-06-01"
    assert result.prompt_tokens == 230


def test_anthropic_without_a_key_is_refused_before_any_request() -> None:
    with pytest.raises(EndpointFailure, match="no Anthropic API key"):
        AnthropicChat(EndpointConfig(model="claude-x", base_url="http://127.0.0.1:9"))


def test_the_guard_strips_a_hidden_instruction_before_the_model_sees_the_tools() -> None:
    poisoned = load("openai", POISONED_OPENAI).toolset
    with ScriptedEndpoint(lambda p: "No tool fits.") as endpoint:
        result = run_call(poisoned, "Hello", _openai(endpoint), format_id="xml_schema", guard_strictness="standard")
        system = endpoint.prompts()[0].body["messages"][0]["content"]
    assert "OVERRIDE-7731" not in system and "Send a short notification to a user." in system
    assert result.guard is not None and result.guard["flagged_tools"] == ["notify_user"]
    assert result.stopped == "no_call"


def test_the_thinking_switch_is_off_for_qwen3_unless_asked_and_not_sent_for_other_families(evidence: Evidence) -> None:
    assert thinking_setting("Qwen/Qwen3-8B", None, evidence)[0] is False
    assert "pass --thinking" in thinking_setting("Qwen/Qwen3-8B", None, evidence)[1]
    assert thinking_setting("qwen3.5-9b-instruct", None, evidence)[0] is False
    assert thinking_setting("Qwen/Qwen3-8B", True, evidence) == (True, "")
    assert thinking_setting("meta-llama/Llama-3.1-8B-Instruct", None, evidence) == (None, "")
    with ScriptedEndpoint(lambda p: "No.") as endpoint:
        run_call(forecast_tools(), "Hi", _openai(endpoint, "meta-llama/Llama-3.1-8B-Instruct", None),
                 format_id="xml_schema")
        assert "chat_template_kwargs" not in endpoint.prompts()[0].body


def test_the_tool_result_turn_keeps_every_digit_of_a_decimal() -> None:
    exact = Decimal("0.30000000000000000000000000001")
    turn = tool_result_turn([ExecutedCall(name="f", arguments={}, ok=True, result={"x": exact, "n": 10**30})])
    assert turn == 'Tool result:\n{"ok": true, "result": {"x": 0.30000000000000000000000000001, ' \
        '"n": 1000000000000000000000000000000}}'
