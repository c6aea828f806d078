"""A small labelled task set for the measurement tests, and scripts that answer it per format."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from support.scripted_endpoint import Answer, Prompt

TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {
        "name": "get_forecast", "description": "Forecast for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                       "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "get_time", "description": "The time in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
]
TOOLS_INPUT: dict[str, Any] = {"source": "openai", "payload": TOOLS}
_CITIES = ("Denver", "Oslo", "Lisbon", "Quito", "Osaka", "Nairobi", "Lima", "Perth")
EXAMPLES: list[dict[str, Any]] = [
    *({"request": f"Forecast for {city}", "calls": [{"name": "get_forecast", "arguments": {"city": city}}]}
      for city in _CITIES[:5]),
    *({"request": f"What time is it in {city}?", "calls": [{"name": "get_time", "arguments": {"city": city}}]}
      for city in _CITIES[5:]),
    {"request": "Write a haiku about rain.", "calls": []},
]
#: A marker of each core format's default protocol in its instructions, so a script can tell formats apart.
JSON_MARK = "single JSON object"
XML_MARK = "<function_calls>"


def example_of(prompt: Prompt) -> dict[str, Any]:
    return next(e for e in EXAMPLES if e["request"] == prompt.user)


def right_in_json(prompt: Prompt) -> Answer:
    """The right call in the JSON protocol, and a call for a no-call task (wrong)."""
    calls = example_of(prompt)["calls"] or [{"name": "get_time", "arguments": {"city": "Oslo"}}]
    return Answer(json.dumps(calls[0]), prompt_tokens=40, completion_tokens=10)


def xml_call(call: dict[str, Any]) -> str:
    parameters = "".join(f'<parameter name="{k}">{v}</parameter>' for k, v in call["arguments"].items())
    return f'<function_calls><invoke name="{call["name"]}">{parameters}</invoke></function_calls>'


def json_wins(prompt: Prompt) -> Answer:
    """Every task right in json_object; xml_call replies are prose (right only for the no-call task)."""
    if JSON_MARK in prompt.system:
        example = example_of(prompt)
        if not example["calls"]:
            return Answer("No tool fits that request.", prompt_tokens=40, completion_tokens=5)
        return Answer(json.dumps(example["calls"][0]), prompt_tokens=40, completion_tokens=10)
    return Answer("I would rather not say.", prompt_tokens=55, completion_tokens=5)


def both_right(prompt: Prompt) -> Answer:
    """Every task right in both protocols."""
    example = example_of(prompt)
    if not example["calls"]:
        return Answer("No tool fits that request.", prompt_tokens=40, completion_tokens=5)
    call = example["calls"][0]
    return Answer(json.dumps(call) if JSON_MARK in prompt.system else xml_call(call), prompt_tokens=40,
                  completion_tokens=10)


def all_wrong(prompt: Prompt) -> Answer:
    """A call to the wrong tool everywhere (the no-call task too)."""
    wrong = {"name": "get_forecast", "arguments": {"city": "Atlantis"}}
    return Answer(json.dumps(wrong) if JSON_MARK in prompt.system else xml_call(wrong))


# Numbers, enums and optional arguments, answered in three protocols with the slips models make:
# case, 21.50 for 21.5, "3" for 3, an argument left out, one added, a value the enum spells otherwise.
THERMOSTAT: dict[str, Any] = {"source": "openai", "payload": [{"type": "function", "function": {
    "name": "set_temp", "description": "Set a thermostat.",
    "parameters": {"type": "object", "properties": {
        "room": {"type": "string"}, "celsius": {"type": "number"}, "hold_hours": {"type": "integer"},
        "mode": {"type": "string", "enum": ["heat", "cool"]}}, "required": ["room", "celsius"]}}}]}
THERMOSTAT_EXAMPLES: list[dict[str, Any]] = [
    {"request": "Set the kitchen to 21.5",
     "calls": [{"name": "set_temp", "arguments": {"room": "kitchen", "celsius": 21.5}}]},
    {"request": "Set the hall to 19 for 3 hours",
     "calls": [{"name": "set_temp", "arguments": {"room": "hall", "celsius": 19, "hold_hours": 3}}]},
    {"request": "Cool the den to 18",
     "calls": [{"name": "set_temp", "arguments": {"room": "den", "celsius": 18, "mode": "cool"}}]},
]
_THERMOSTAT_REPLIES: dict[str, tuple[str, str, str]] = {
    "Set the kitchen to 21.5": (
        '{"name": "set_temp", "arguments": {"room": "Kitchen", "celsius": 21.50}}',
        '<function_calls><invoke name="set_temp"><parameter name="room">kitchen</parameter>'
        '<parameter name="celsius">21.5</parameter></invoke></function_calls>',
        'set_temp(room="kitchen", celsius=21.5)',
    ),
    "Set the hall to 19 for 3 hours": (
        '{"name": "set_temp", "arguments": {"room": "hall", "celsius": 19.0, "hold_hours": "3"}}',
        '<function_calls><invoke name="set_temp"><parameter name="room">hall</parameter>'
        '<parameter name="celsius">19</parameter></invoke></function_calls>',
        'set_temp(room="hall", celsius=19, hold_hours=3, mode="heat")',
    ),
    "Cool the den to 18": (
        '{"name": "set_temp", "arguments": {"room": "den", "celsius": 18, "mode": "COOL"}}',
        '<function_calls><invoke name="set_temp"><parameter name="room">den</parameter>'
        '<parameter name="celsius">18</parameter><parameter name="mode">cool</parameter>'
        '<parameter name="extra">1</parameter></invoke></function_calls>',
        'set_temp(room="den", celsius=18.0, mode="cool")',
    ),
}


def thermostat_slips(prompt: Prompt) -> Answer:
    """The thermostat replies above, in json_object, xml_call or python_call as the prompt asks."""
    replies = _THERMOSTAT_REPLIES[prompt.user]
    kind = 0 if JSON_MARK in prompt.system else 1 if XML_MARK in prompt.system else 2
    return Answer(replies[kind], prompt_tokens=25, completion_tokens=15)


def _replies_to(prompt: Prompt) -> list[str]:
    """Replies of every kind a model gives: right in each syntax, fenced, reasoned, cut off, prose, refusals."""
    example = example_of(prompt)
    wrong: dict[str, Any] = {"name": "get_time", "arguments": {"city": "Oslo"}}
    call: dict[str, Any] = example["calls"][0] if example["calls"] else wrong
    as_json = json.dumps(call)
    arguments = ", ".join(f"{k}={json.dumps(v)}" for k, v in call["arguments"].items())
    lines = "\n".join(f"{k}: {v}" for k, v in call["arguments"].items())
    return [
        as_json, xml_call(call), f"{call['name']}({arguments})", "No tool fits that request.", "I am not sure.", "",
        f"<think>hmm</think>\n{as_json}", f"```json\n{as_json}\n```", f"[{as_json}, {as_json}]", f"Sure! {as_json}",
        "None of the tools can do that.", '{"name": "get_weather", "arguments": {}}', "<think>" + "x" * 50,
        f"Tool: {call['name']}\n{lines}",
    ]


def varied(prompt: Prompt) -> Answer:
    """One of ``_replies_to``'s replies, chosen by a hash of the prompt (so the same on every server and run)."""
    chosen = int(hashlib.sha256((prompt.system + prompt.user).encode()).hexdigest(), 16)
    pool = _replies_to(prompt)
    return Answer(pool[chosen % len(pool)], finish_reason="length" if chosen % 7 == 0 else "stop")


#: A user's tool set of the kind that graded wrong before: required arrays, nested objects, patterns, bounds.
OFFICE_TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {
        "name": "send_email", "description": "Send an email.",
        "parameters": {"type": "object", "required": ["to", "subject", "body"], "properties": {
            "to": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "email"}},
            "cc": {"type": "array", "items": {"type": "string", "format": "email"}},
            "subject": {"type": "string", "maxLength": 80},
            "body": {"type": "string", "minLength": 1}}}}},
    {"type": "function", "function": {
        "name": "create_event", "description": "Create a calendar event.",
        "parameters": {"type": "object", "required": ["title", "start", "attendees"], "properties": {
            "title": {"type": "string", "minLength": 3, "maxLength": 40},
            "start": {"type": "string", "format": "date-time"},
            "duration_min": {"type": "integer", "minimum": 15, "maximum": 480},
            "attendees": {"type": "array", "minItems": 2, "items": {
                "type": "object", "required": ["email", "role"], "properties": {
                    "email": {"type": "string", "format": "email"},
                    "role": {"type": "string", "enum": ["required", "optional"]}}}},
            "room": {"type": ["string", "null"]}}}}},
    {"type": "function", "function": {
        "name": "share_file", "description": "Share a file.",
        "parameters": {"type": "object", "required": ["file_id", "permission", "expires"], "properties": {
            "file_id": {"type": "string", "pattern": "^file-[a-f0-9]{8}$"},
            "permission": {"type": "string", "enum": ["read", "comment", "write"]},
            "expires": {"type": "object", "required": ["date", "notify_days"], "properties": {
                "date": {"type": "string", "format": "date"},
                "notify_days": {"type": "integer", "minimum": 1, "maximum": 14}}}}}}},
]
