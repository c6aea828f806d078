"""The task set of a measurement: labelled requests, each with the calls a correct reply makes.

A task set comes from the caller's ``examples`` (with their tools), or is built
from a ``seed``: ``generated_tasks`` builds ``n_tools`` tools of the tier's
complexity and ``n_requests`` requests over them, the same for the same seed.
The generated set is ours, not the reference's (its generator is not part of the
contract); a comparison with the reference uses examples.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolform.errors import BadRequest
from toolform.ir import ToolIR, ToolSet
from toolform.loaders import load
from toolform.measure.values import NoValidCall, sample_arguments


@dataclass(frozen=True)
class ExpectedCall:
    """One call a correct reply makes: the tool's name and its arguments."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": dict(self.arguments)}


@dataclass(frozen=True)
class Task:
    """One labelled request; no expected call means a correct reply calls nothing."""

    instance_id: str
    request: str
    calls: tuple[ExpectedCall, ...] = ()


@dataclass(frozen=True)
class TaskSet:
    """The tools a measurement shows and the tasks it asks; ``source`` is ``examples`` or ``generated``."""

    toolset: ToolSet
    tasks: tuple[Task, ...]
    source: str
    #: What the generator left out and why (a tool no valid call could be drawn for).
    warnings: tuple[str, ...] = ()
    #: The tier the tools were built at; None: the caller's tools, whose tier is their summary's.
    tier: int | None = None
    #: The ``flow tools`` listing the tools were loaded from: replies are checked by Flow's own decoding.
    flow_listing: str | None = None


def tasks_from_examples(examples: Sequence[object], toolset: ToolSet) -> tuple[Task, ...]:
    """Examples (``{"request", "calls": [{"name", "arguments"}]}``) read into tasks, each checked against the tools.

    Raises BadRequest naming the member (``$.examples[2].calls[0].name``), the rule and the fix.
    """
    if not examples:
        raise BadRequest("$.examples is empty; give at least one {\"request\", \"calls\"} example")
    names = set(toolset.names)
    tasks: list[Task] = []
    for index, example in enumerate(examples):
        where = f"$.examples[{index}]"
        if not isinstance(example, dict):
            raise BadRequest(f"{where} must be an object {{\"request\", \"calls\"}}")
        request = example.get("request")
        if not isinstance(request, str) or not request.strip():
            raise BadRequest(f"{where}.request must be a non-empty string: the user's request")
        raw_calls = example.get("calls", [])
        if not isinstance(raw_calls, list):
            raise BadRequest(f"{where}.calls must be a list of {{\"name\", \"arguments\"}} (empty: no tool applies)")
        calls: list[ExpectedCall] = []
        for position, call in enumerate(raw_calls):
            at = f"{where}.calls[{position}]"
            if not isinstance(call, dict) or not isinstance(call.get("name"), str):
                raise BadRequest(f"{at} must be an object with a string name")
            if call["name"] not in names:
                raise BadRequest(f"{at}.name '{call['name']}' is not one of the tools; add the tool or fix the name")
            arguments = call.get("arguments", {})
            if not isinstance(arguments, dict):
                raise BadRequest(f"{at}.arguments must be an object")
            calls.append(ExpectedCall(call["name"], dict(arguments)))
        tasks.append(Task(f"example-{index}", request, tuple(calls)))
    return tuple(tasks)


# The generator's vocabulary: per domain, tools with their parameters and the sentence that asks for them.
# A parameter is (name, JSON Schema, values a request may use); the request template names each one.
_Param = tuple[str, dict[str, Any], tuple[Any, ...]]


@dataclass(frozen=True)
class _Template:
    name: str
    description: str
    required: tuple[_Param, ...]
    sentence: str
    optional: tuple[_Param, ...] = ()


_CITIES = ("Denver", "Oslo", "Lisbon", "Nairobi", "Osaka", "Quito")
_TEMPLATES: tuple[_Template, ...] = (
    _Template("weather_forecast", "Get the weather forecast for a city.",
              (("city", {"type": "string", "description": "City name."}, _CITIES),),
              "What is the forecast for {city}?",
              (("days", {"type": "integer", "minimum": 1, "maximum": 7, "description": "Days ahead."}, (2, 3, 5)),)),
    _Template("calendar_move", "Change the start time of a meeting.",
              (("meeting_id", {"type": "string", "description": "Meeting identifier."}, ("CAL-0001", "CAL-0042")),
               ("start_hour", {"type": "integer", "minimum": 0, "maximum": 23, "description": "Hour, 0-23."},
                (9, 10, 14))),
              "Move meeting {meeting_id} to start at {start_hour}."),
    _Template("tickets_triage", "Change a ticket's severity.",
              (("ticket_id", {"type": "string", "description": "Ticket number."}, ("T-1001", "T-2002")),
               ("severity", {"type": "string", "enum": ["s1", "s2", "s3", "s4"], "description": "How urgent."},
                ("s1", "s3"))),
              "Set ticket {ticket_id} to severity {severity}."),
    _Template("devops_deploy", "Deploy a version of a service.",
              (("service", {"type": "string", "description": "Service name."}, ("billing-worker", "search-api")),
               ("environment", {"type": "string", "enum": ["dev", "staging", "prod"], "description": "Where."},
                ("staging", "prod")),
               ("version", {"type": "string", "description": "Version tag."}, ("1.4.2", "2.0.0"))),
              "Please deploy {service} {version} to {environment}."),
    _Template("library_find", "Search the library catalogue by author.",
              (("author", {"type": "string", "description": "Author name."}, ("Le Guin", "Achebe", "Borges")),),
              "Find books by {author}.",
              (("year", {"type": "integer", "minimum": 1400, "maximum": 2100, "description": "Year published."},
                (1969, 1958)),)),
    _Template("email_send", "Send an email.",
              (("to", {"type": "string", "description": "Recipient address."}, ("kai@example.com", "ana@example.org")),
               ("subject", {"type": "string", "description": "Subject line."}, ("Lunch", "Report"))),
              "Email {to} with the subject {subject}."),
    _Template("shop_order", "Order a product.",
              (("product", {"type": "string", "description": "Product name."}, ("kettle", "lamp")),
               ("quantity", {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many."}, (1, 2, 4))),
              "Order {quantity} {product}."),
    _Template("documents_share", "Share a document with someone.",
              (("path", {"type": "string", "description": "Path to the file."}, ("/reports/q1.md", "/legal/nda.pdf")),
               ("shared_with", {"type": "string", "description": "Who it is shared with."}, ("kai", "ana"))),
              "Share {path} with {shared_with}."),
)
_NO_CALL_REQUESTS = ("Tell me a joke about penguins.", "What is the capital of Peru?", "Write a haiku about rain.")
#: One task in this many asks for something no tool does, so that calling nothing is tested too.
_NO_CALL_EVERY = 10


def _schema(template: _Template, tier: int) -> dict[str, Any]:
    """The template's parameters at ``tier``: tier 1 strings only, 2 adds typed values, 3 optional ones, 4-5 nesting."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, schema, _ in template.required:
        properties[name] = dict(schema) if tier >= 2 else {"type": "string", "description": schema["description"]}
        required.append(name)
    if tier >= 3:
        for name, schema, _ in template.optional:
            properties[name] = dict(schema)
    if tier >= 4:
        details: dict[str, Any] = {"note": {"type": "string", "description": "A free note."}}
        if tier >= 5:
            details["tags"] = {"type": "array", "items": {"type": "string"}, "description": "Labels."}
        properties["details"] = {"type": "object", "properties": details, "description": "Extra details."}
    return {"type": "object", "properties": properties, "required": required}


def generated_tasks(n_requests: int, n_tools: int, tier: int, seed: int) -> TaskSet:
    """``n_tools`` tools of ``tier``'s complexity and ``n_requests`` requests over them, fixed by ``seed``."""
    rng = random.Random(seed)
    chosen: list[tuple[str, _Template]] = []
    for index in range(n_tools):
        template = _TEMPLATES[index % len(_TEMPLATES)]
        chosen.append((f"{template.name}_v{index // len(_TEMPLATES) + 1}", template))
    rng.shuffle(chosen)
    payload = [
        {"type": "function", "function": {"name": name, "description": template.description,
                                          "parameters": _schema(template, tier)}}
        for name, template in chosen
    ]
    toolset = load("openai", payload).toolset
    tasks: list[Task] = []
    for index in range(n_requests):
        if index % _NO_CALL_EVERY == _NO_CALL_EVERY - 1:
            tasks.append(Task(f"generated-{index}", rng.choice(_NO_CALL_REQUESTS)))
            continue
        name, template = rng.choice(chosen)
        values = {param: rng.choice(options) for param, _, options in template.required}
        if tier < 2:
            values = {param: str(value) for param, value in values.items()}
        request = template.sentence.format(**values)
        if tier >= 3 and template.optional and rng.random() < 0.5:
            param, _, options = template.optional[0]
            values[param] = rng.choice(options)
            request += f" Use {param} {values[param]}."
        tasks.append(Task(f"generated-{index}", request, (ExpectedCall(name, values),)))
    return TaskSet(toolset, tuple(tasks), "generated", tier=tier)


def generated_tasks_for(toolset: ToolSet, n_requests: int, seed: int) -> TaskSet:
    """``n_requests`` requests over the caller's tools, each naming a tool and stating every required argument.

    Every argument is drawn valid against the tool's own schema (``values.sample_arguments``) and
    written as JSON, arrays and objects included, so the expected call is one ``parse`` accepts. A tool
    no valid call can be drawn for is left out and named in the task set's warnings; when that leaves
    no tool, BadRequest says so.
    """
    rng = random.Random(seed)
    askable: list[ToolIR] = []
    warnings: list[str] = []
    for tool in toolset:
        try:
            sample_arguments(tool, random.Random(f"{seed}:{tool.name}"))
        except NoValidCall as reason:
            warnings.append(f"tool '{tool.name}' is left out of the generated requests: {reason}; "
                            "measure it with examples instead")
            continue
        askable.append(tool)
    if not askable:
        raise BadRequest("no tool of the set can be asked for with arguments its own schema accepts ("
                         + "; ".join(warnings) + "); send examples with the tools")
    tasks: list[Task] = []
    for index in range(n_requests):
        tool = rng.choice(askable)
        values = sample_arguments(tool, rng)
        tasks.append(Task(f"generated-{index}", request_for(tool.name, values), (ExpectedCall(tool.name, values),)))
    return TaskSet(toolset, tuple(tasks), "generated", tuple(warnings))


def request_for(tool_name: str, values: dict[str, Any]) -> str:
    """The request that asks for one call: the tool, then every argument as JSON (``to = ["ana@example.org"]``)."""
    if not values:
        return f"Use {tool_name}."
    stated = ", ".join(f"{name} = {json.dumps(value, ensure_ascii=False)}" for name, value in values.items())
    return f"Use {tool_name} with {stated}."
