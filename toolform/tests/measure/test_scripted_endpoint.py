"""The scripted endpoint the measurement and call-loop tests talk to: replies, usage, records, faults."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from support.scripted_endpoint import Answer, Fault, Prompt, ScriptedEndpoint


def echo(prompt: Prompt) -> Answer:
    return Answer(f"you said: {prompt.user}", prompt_tokens=7, completion_tokens=3)


def post(endpoint: ScriptedEndpoint, path: str, body: object) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", endpoint.port, timeout=10)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def chat(text: str) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": text}]}


def test_openai_reply_is_chosen_by_the_script_with_usage() -> None:
    with ScriptedEndpoint(echo) as endpoint:
        status, body = post(endpoint, "/v1/chat/completions", chat("hello"))
        assert status == 200
        reply = json.loads(body)
        assert reply["choices"][0]["message"]["content"] == "you said: hello"
        assert reply["usage"] == {"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}
        [recorded] = endpoint.requests
        assert recorded.prompt is not None and recorded.prompt.system == "sys" and recorded.prompt.api == "openai"


def test_anthropic_messages_reply() -> None:
    with ScriptedEndpoint(echo) as endpoint:
        body = {"model": "m", "system": "be brief", "max_tokens": 10, "messages": [{"role": "user", "content": [
            {"type": "text", "text": "hi"}]}]}
        status, raw = post(endpoint, "/v1/messages", body)
        reply = json.loads(raw)
        assert status == 200 and reply["content"] == [{"type": "text", "text": "you said: hi"}]
        assert reply["usage"] == {"input_tokens": 7, "output_tokens": 3} and reply["stop_reason"] == "end_turn"
        assert endpoint.prompts()[0].system == "be brief"


def test_usage_defaults_to_word_counts() -> None:
    with ScriptedEndpoint(lambda prompt: "one two three") as endpoint:
        _, raw = post(endpoint, "/v1/chat/completions", chat("a b"))
        assert json.loads(raw)["usage"]["completion_tokens"] == 3


def test_status_fault_then_the_script_again() -> None:
    with ScriptedEndpoint(echo) as endpoint:
        endpoint.fail_next(Fault("status", status=503), count=2)
        assert post(endpoint, "/v1/chat/completions", chat("x"))[0] == 503
        assert post(endpoint, "/v1/chat/completions", chat("x"))[0] == 503
        assert post(endpoint, "/v1/chat/completions", chat("x"))[0] == 200
        assert len(endpoint.requests) == 3


def test_malformed_body() -> None:
    with ScriptedEndpoint(lambda prompt: Answer("", fault=Fault("malformed"))) as endpoint:
        status, raw = post(endpoint, "/v1/chat/completions", chat("x"))
        assert status == 200
        with pytest.raises(json.JSONDecodeError):
            json.loads(raw)


def test_dropped_connection() -> None:
    with ScriptedEndpoint(lambda prompt: Answer("", fault=Fault("drop"))) as endpoint:
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
            post(endpoint, "/v1/chat/completions", chat("x"))


def test_delay_is_a_timeout_for_an_impatient_client() -> None:
    with ScriptedEndpoint(lambda prompt: Answer("late", delay_s=1.0)) as endpoint:
        connection = http.client.HTTPConnection("127.0.0.1", endpoint.port, timeout=0.2)
        connection.request("POST", "/v1/chat/completions", json.dumps(chat("x")))
        with pytest.raises(TimeoutError):
            connection.getresponse()
        connection.close()


def test_unreadable_request_is_recorded_and_refused() -> None:
    with ScriptedEndpoint(echo) as endpoint:
        assert post(endpoint, "/v1/chat/completions", "not an object")[0] == 400
        assert post(endpoint, "/v1/embeddings", {})[0] == 404
        assert [r.prompt for r in endpoint.requests] == [None, None]


def test_models_listing() -> None:
    with ScriptedEndpoint(echo, models=("a", "b")) as endpoint:
        connection = http.client.HTTPConnection("127.0.0.1", endpoint.port, timeout=10)
        connection.request("GET", "/v1/models")
        listing = json.loads(connection.getresponse().read())
        connection.close()
        assert [m["id"] for m in listing["data"]] == ["a", "b"]
        assert [(r.method, r.path) for r in endpoint.requests] == [("GET", "/v1/models")]
