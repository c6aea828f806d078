"""The differential corpus of replies: every protocol, each rule of grading, written as models write them.

``corpus()`` gives (name, protocol, text, options) cases: a call written in the
protocol's own syntax, then fenced, behind a reasoning block, inside prose, in
the wrong syntax (with and without the lenient fallback), to an invented tool,
with a missing, an extra, a mistyped, an out-of-enum and an out-of-range
argument, several calls, a declared no-call, an empty reply and noise; each
under the three grading rules where the rule matters.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_forecast",
            "description": "The forecast for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer", "minimum": 1, "maximum": 7},
                    "units": {"type": "string", "enum": ["metric", "imperial"]},
                    "detailed": {"type": "boolean"},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "send_email",
            "description": "Send an email.",
            "parameters": {
                "type": "object",
                "properties": {
                    "to": {"type": "string"},
                    "subject": {"type": "string", "maxLength": 40},
                    "priority": {"type": "number"},
                },
                "required": ["to", "subject"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "book_trip",
            "description": "Book a trip.",
            "parameters": {
                "type": "object",
                "properties": {
                    "traveller": {"type": "string", "minLength": 2, "pattern": "^[A-Za-z ]+$"},
                    "stops": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
                    "nights": {"type": "array", "items": {"type": "integer"}},
                    "address": {
                        "type": "object",
                        "properties": {"zip": {"type": "string"}, "number": {"type": "integer"}},
                        "required": ["zip"],
                    },
                    "seat": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "notes": {"type": ["string", "null"]},
                    "class": {"type": "string", "enum": ["Economy", "Business"]},
                },
                "required": ["traveller", "stops"],
            },
        },
    },
]

PROTOCOLS: tuple[str, ...] = (
    "python_call", "python_list_call", "bfcl_python_list", "cli_call", "sql_call", "graphql_call", "url_call",
    "sexpr_call", "json_object", "json_array", "jsonl_call", "code_block_json", "native", "nl_intent",
    "nl_intent_structured", "key_value_call", "yaml_call", "toml_call", "pipe_call", "csv_call", "table_call",
    "symbolic_call", "slot_fill_call", "two_step_call", "tool_call_tags", "function_tags", "xml_call",
    "xml_generic_call", "python_tag", "react", "bracket_call",
)  # fmt: skip

Call = tuple[str, dict[str, Any]]
PARAM_ORDER = {
    "get_forecast": ["city", "days", "units", "detailed"],
    "send_email": ["to", "subject", "priority"],
    "book_trip": ["traveller", "stops", "nights", "address", "seat", "notes", "class"],
}


def _py(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, bool) else ("True" if value else "False")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _json_call(call: Call) -> str:
    return json.dumps({"name": call[0], "arguments": call[1]})


def _python(call: Call) -> str:
    return f"{call[0]}({', '.join(f'{k}={_py(v)}' for k, v in call[1].items())})"


def _sql_value(value: Any) -> str:
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return _text(value).upper() if isinstance(value, bool) else json.dumps(value)


def _sexpr_value(value: Any) -> str:
    return ("t" if value else "nil") if isinstance(value, bool) else json.dumps(value)


def _symbol(value: Any) -> str:
    if isinstance(value, bool):
        return "¿"
    if isinstance(value, int):
        return "#"
    if isinstance(value, float):
        return "%"
    return "§"


def _yaml(call: Call) -> str:
    lines = [f"name: {call[0]}", "arguments:"]
    lines += [f"  {k}: {_text(v)}" for k, v in call[1].items()]
    return "\n".join(lines) if call[1] else f"name: {call[0]}\narguments: {{}}"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(value)


def _toml(call: Call) -> str:
    # TOML has no null: a null argument is left out, as a model writing TOML leaves it out.
    body = "\n".join(f"{k} = {_toml_value(v)}" for k, v in call[1].items() if v is not None)
    return f'[[call]]\nname = "{call[0]}"\n\n[call.arguments]\n{body}'


def _csv(call: Call) -> str:
    order = PARAM_ORDER.get(call[0], list(call[1]))
    values = [_text(call[1][k]) if k in call[1] else "" for k in order]
    while values and not values[-1]:
        values.pop()
    return ",".join([call[0], *values])


def _xml(call: Call) -> str:
    params = "".join(f'    <parameter name="{k}">{_text(v)}</parameter>\n' for k, v in call[1].items())
    return f'  <invoke name="{call[0]}">\n{params}  </invoke>'


def _xml_generic(call: Call) -> str:
    args = "".join(f"    <{k}>{_text(v)}</{k}>\n" for k, v in call[1].items())
    return f"<call>\n  <tool>{call[0]}</tool>\n  <args>\n{args}  </args>\n</call>"


def _function_tags(call: Call) -> str:
    params = "".join(f"<parameter={k}>{_text(v)}</parameter>\n" for k, v in call[1].items())
    return f"<function={call[0]}>\n{params}</function>"


def _table_rows(call: Call) -> list[str]:
    return [f"| {call[0]} | {k} | {_text(v)} |" for k, v in call[1].items()] or [f"| {call[0]} | | |"]


#: How each protocol writes one call; joined by ``JOIN`` for several.
WRITERS: dict[str, Callable[[Call], str]] = {
    "python_call": _python,
    "python_list_call": _python,
    "bfcl_python_list": _python,
    "cli_call": lambda c: " ".join(
        [c[0], *(f"--{k.replace('_', '-')} {json.dumps(_text(v))}" for k, v in c[1].items())]
    ),
    "sql_call": lambda c: f"SELECT {c[0]}({', '.join(f'{k} => {_sql_value(v)}' for k, v in c[1].items())});",
    "graphql_call": lambda c: (
        f"{_camel(c[0])}({', '.join(f'{k}: {json.dumps(v)}' for k, v in c[1].items())}) {{ result }}"
    ),
    "url_call": lambda c: f"POST /{c[0].replace('_', '-')}?" + "&".join(f"{k}={_text(v)}" for k, v in c[1].items()),
    "sexpr_call": lambda c: f"({c[0]} {' '.join(f':{k} {_sexpr_value(v)}' for k, v in c[1].items())})",
    "json_object": _json_call,
    "json_array": _json_call,
    "jsonl_call": _json_call,
    "code_block_json": _json_call,
    "native": _json_call,
    "nl_intent": lambda c: f"I would use {c[0]} with " + ", ".join(f"{k}: {_text(v)}" for k, v in c[1].items()) + ".",
    "nl_intent_structured": lambda c: (
        f"Use {c[0]} with " + ", ".join(f"{k} = {_text(v)}" for k, v in c[1].items()) + "."
    ),
    "key_value_call": lambda c: "\n".join([f"TOOL: {c[0]}", *(f"{k}: {_text(v)}" for k, v in c[1].items())]),
    "yaml_call": _yaml,
    "toml_call": _toml,
    "pipe_call": lambda c: "|".join([c[0], *(f"{k}={_text(v)}" for k, v in c[1].items())]),
    "csv_call": _csv,
    "table_call": lambda c: "\n".join(_table_rows(c)),
    "symbolic_call": lambda c: " ".join([c[0], *(f"★{k}{_symbol(v)}{_text(v)}" for k, v in c[1].items())]),
    "slot_fill_call": _json_call,
    "two_step_call": lambda c: f"{c[0]}\n{json.dumps(c[1])}",
    "tool_call_tags": lambda c: f"<tool_call>\n{_json_call(c)}\n</tool_call>",
    "function_tags": _function_tags,
    "xml_call": _xml,
    "xml_generic_call": _xml_generic,
    "python_tag": _python,
    "react": lambda c: f"Thought: I need {c[0]}.\nAction: {c[0]}\nAction Input: {json.dumps(c[1])}",
    "bracket_call": _python,
}


def write(protocol: str, calls: list[Call]) -> str:
    """``calls`` written as a reply in ``protocol``."""
    one = [WRITERS[protocol](call) for call in calls]
    if protocol in ("python_list_call", "bfcl_python_list"):
        return "[" + ", ".join(one) + "]"
    if protocol == "json_array" or (protocol in ("json_object", "slot_fill_call", "native") and len(one) > 1):
        return "[" + ", ".join(one) + "]"
    if protocol == "code_block_json":
        body = one[0] if len(one) == 1 else "[" + ", ".join(one) + "]"
        return f"```json\n{body}\n```"
    if protocol == "graphql_call":
        return "mutation { " + " ".join(one) + " }"
    if protocol == "xml_call":
        return "<function_calls>\n" + "\n".join(one) + "\n</function_calls>"
    if protocol == "python_tag":
        return "<|python_tag|>" + "; ".join(one) + "<|eom_id|>"
    if protocol == "bracket_call":
        return "Let me check " + " and ".join(f"[{c}]" for c in one) + " for you."
    if protocol == "table_call":
        return "| tool | argument | value |\n|---|---|---|\n" + "\n".join(one)
    if protocol == "toml_call":
        return "\n\n".join(one)
    if protocol == "yaml_call" and len(one) > 1:
        return "\n".join("- " + item.replace("\n", "\n  ") for item in one)
    if protocol == "two_step_call":
        return "\n".join(one)
    return "\n".join(one)


@dataclass(frozen=True)
class Case:
    """One reply to parse: its name, the protocol asked for, the text, and the request's options."""

    name: str
    protocol: str
    text: str
    options: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        return {
            "tools": {"source": "openai", "payload": TOOLS},
            "text": self.text,
            "protocol": self.protocol,
            **self.options,
        }


GOOD: Call = ("get_forecast", {"city": "Denver", "days": 3})
VARIANTS: dict[str, list[Call]] = {
    "valid": [GOOD],
    "all_arguments": [("get_forecast", {"city": "Denver", "days": 2, "units": "metric", "detailed": True})],
    "invented_name": [("get_weather", {"city": "Denver"})],
    "case_folded_name": [("Get_Forecast", {"city": "Denver"})],
    "missing_required": [("get_forecast", {"days": 3})],
    "extra_argument": [("get_forecast", {"city": "Denver", "country": "US"})],
    "wrong_type": [("get_forecast", {"city": "Denver", "days": "three"})],
    "enum": [("get_forecast", {"city": "Denver", "units": "kelvin"})],
    "constraint": [("get_forecast", {"city": "Denver", "days": 30})],
    "string_constraint": [("send_email", {"to": "a@b.c", "subject": "x" * 50})],
    "number": [("send_email", {"to": "a@b.c", "subject": "Hi", "priority": 2.5})],
    "several_calls": [GOOD, ("send_email", {"to": "a@b.c", "subject": "Hi"})],
    "nested_valid": [("book_trip", {"traveller": "Ada Lovelace", "stops": ["Paris", "Rome"], "class": "economy"})],
    "nested_errors": [
        (
            "book_trip",
            {
                "traveller": "A1",
                "stops": [],
                "nights": ["2", 3],
                "address": {"number": "x", "floor": 2},
                "seat": 1.5,
                "notes": None,
                "class": "First",
            },
        )
    ],
    "nested_lone_values": [("book_trip", {"traveller": "Bo", "stops": "Oslo", "address": {"zip": "AB 12"}})],
}

#: JSON replies in the shapes models write beside the asked one (for the JSON protocols).
JSON_SHAPES: dict[str, str] = {
    "json_parameters_key": '{"name": "get_forecast", "parameters": {"city": "Denver"}}',
    "json_function_args": '{"function": "get_forecast", "args": {"city": "Denver"}}',
    "json_arguments_as_text": '{"tool": "get_forecast", "arguments": "{\\"city\\": \\"Denver\\"}"}',
    "json_trailing_comma": '{"name": "get_forecast", "arguments": {"city": "Denver",}}',
    "json_single_quotes": "{'name': 'get_forecast', 'arguments': {'city': 'Denver'}}",
    "json_openai_nested": '{"type": "function", "function": {"name": "get_forecast", "arguments": {"city": "Denver"}}}',
    "json_two_objects": (
        '{"name": "get_forecast", "arguments": {"city": "A"}}\n{"name": "get_forecast", "arguments": {"city": "B"}}'
    ),
    "json_unclosed": '{"name": "get_forecast", "arguments": {"city": "Denver"}',
    "json_no_arguments": '{"name": "get_forecast"}',
    "json_empty_array": "[]",
    "json_empty_object": "{}",
}
NO_CALL_SENTENCES: dict[str, str] = {
    "no_call_none_apply": "None of the tools apply.",
    "no_call_cannot_help": "I can't help with that.",
    "no_call_no_suitable": "There is no suitable tool.",
    "no_call_short": "No tool needed",
    "no_call_then_call": "No tool is needed. " + json.dumps({"name": "get_forecast", "arguments": {"city": "Denver"}}),
    "no_call_declined": "I cannot help with that.",
    "no_call_declined_politely": "I'm sorry, but I cannot do that.",
}
#: Intents said in words: a value after "with NAME" or "NAME is", up to "and", a comma or the end.
INTENTS_IN_WORDS: dict[str, str] = {
    "intent_with_values": "I would use get_forecast with city Denver and days 3.",
    "intent_second_value_first": "I would use get_forecast with days 3 and city Denver.",
    "intent_is_value": "get_forecast: city is Paris",
}
REASONING: dict[str, str] = {
    "reasoning_unclosed": "<think>maybe ",
    "reasoning_thinking_tag": "<thinking>x</thinking>",
    "reasoning_thought_line": "Thought: x\n",
}
WRONG_SYNTAX = {"json_object": "xml_call"}


#: The protocols asked for when the lenient fallback meets a reply in every other syntax.
LENIENT_TARGETS: tuple[str, ...] = ("json_object", "xml_call", "python_call", "nl_intent")


def corpus() -> Iterator[Case]:
    """Every case, in a fixed order."""
    for target in LENIENT_TARGETS:
        for source in PROTOCOLS:
            if source != target:
                yield Case(f"lenient_from_{source}", target, write(source, [GOOD]), {"lenient_fallback": True})
    for protocol in PROTOCOLS:
        for variant, calls in VARIANTS.items():
            yield Case(variant, protocol, write(protocol, calls))
        good = write(protocol, [GOOD])
        yield Case("fenced", protocol, f"```\n{good}\n```")
        yield Case("reasoning_in_front", protocol, f"<think>The user wants a forecast.</think>\n{good}")
        yield Case("prose_around", protocol, f"Sure, here it is:\n{good}\nHope that helps.")
        other = WRONG_SYNTAX.get(protocol, "json_object")
        wrong = write(other, [GOOD])
        yield Case("wrong_syntax", protocol, wrong)
        yield Case("wrong_syntax_lenient", protocol, wrong, {"lenient_fallback": True})
        python_wrong = write("python_call", [GOOD])
        yield Case("python_syntax_lenient", protocol, python_wrong, {"lenient_fallback": True})
        yield Case("no_call", protocol, "No tool is needed.")
        for name, sentence in NO_CALL_SENTENCES.items():
            yield Case(name, protocol, sentence)
        for name, front in REASONING.items():
            yield Case(name, protocol, front + good)
        if protocol in ("json_object", "json_array", "jsonl_call", "native", "tool_call_tags", "python_tag"):
            for name, text in JSON_SHAPES.items():
                yield Case(name, protocol, text)
        if protocol == "nl_intent":
            for name, sentence in INTENTS_IN_WORDS.items():
                yield Case(name, protocol, sentence)
        yield Case("empty", protocol, "")
        yield Case("noise", protocol, "I am not sure what you mean.")
        yield Case("no_validation", protocol, write(protocol, VARIANTS["wrong_type"]), {"validate": False})
        for rule in ("symmetric", "as_written"):
            yield Case(f"valid_{rule}", protocol, good, {"rule": rule})
            yield Case(f"fenced_{rule}", protocol, f"```\n{good}\n```", {"rule": rule})
            yield Case(f"wrong_syntax_{rule}", protocol, wrong, {"rule": rule})
        yield Case("wrong_syntax_lenient_symmetric", protocol, wrong, {"rule": "symmetric", "lenient_fallback": True})
