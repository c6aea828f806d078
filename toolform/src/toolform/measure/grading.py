"""Grading one reply against its task: the one place a measurement reads a model's answer.

The reply is parsed by the parse SDK under the job's rule (``toolform.parse``),
strictly, with no lenient repair: a call written in another protocol's syntax
counts as no call, as the study graded. It is correct when the calls it makes
are the task's calls (same tools, arguments equal once normalised, whether or
not the schema accepts them as written; an argument the task leaves out is
allowed at its declared default), or, for a task that
calls nothing, when it makes no call and invents no tool.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolform.ir import ToolIR, ToolSet
from toolform.measure.tasks import ExpectedCall, Task


@dataclass(frozen=True)
class Grade:
    """What one reply scored: correct, read by the protocol's strict parser, an invented tool, schema-valid.

    ``reason`` says in words why it was graded so (the first difference from the task, or what matched).
    """

    correct: bool
    parse_strict: bool
    hallucinated: bool
    schema_valid: bool
    reason: str = ""


def grade_reply(
    toolset: ToolSet, task: Task, reply: str, protocol_id: str, rule: str, flow_listing: str | None = None
) -> Grade:
    """Grade ``reply`` to ``task`` in ``protocol_id`` under ``rule`` (main, symmetric or as_written).

    With ``flow_listing`` (tools loaded from a ``flow tools`` listing), ``schema_valid`` is Flow's own
    typed decoding of the arguments, as the Tool will read them, not the JSON Schema check.
    """
    from toolform.parse import parse_reply  # the parse SDK; imported here so that measure loads on its own

    parsed = parse_reply(
        toolset, reply, protocol_id, rule=rule, validate=True, lenient_fallback=False, flow_listing=flow_listing
    )
    made = parsed.calls
    hallucinated = bool(parsed.hallucinated)
    invented = f"invented tool {', '.join(parsed.hallucinated)}" if hallucinated else ""
    refused = "; ".join(f"call to {call.name} rejected: {call.reason or 'not accepted'}" for call in parsed.rejected)
    if not task.calls:
        nothing_called = not made and not parsed.rejected and not hallucinated
        if nothing_called:
            reason = "no call expected and none made"
        else:
            named = ", ".join(call.resolved_name or call.name for call in made)
            reason = invented or refused or f"no call expected, but it called {named}"
        return Grade(nothing_called, parsed.parsed_strict, hallucinated, nothing_called, reason)
    schema_valid = bool(made) and not parsed.rejected and all(call.valid for call in made)
    tools = {tool.name: tool for tool in toolset}
    actual = [(call.resolved_name, call.normalized_arguments or {}) for call in made]
    # Correctness is the calls' meaning, as the study graded: a value the schema would refuse as written
    # ("3" for an integer) is still right once normalised; schema_valid reports the refusal.
    difference = invented or refused or _difference(tools, task.calls, actual, protocol_id)
    reason = difference or "the expected calls, arguments equal once normalised"
    return Grade(not difference, parsed.parsed_strict, hallucinated, schema_valid, reason)


def _same_calls(
    tools: dict[str, ToolIR], expected: Sequence[ExpectedCall], actual: Sequence[tuple[str | None, dict[str, Any]]]
) -> bool:
    return not _difference(tools, expected, actual, "")


def _difference(
    tools: dict[str, ToolIR],
    expected: Sequence[ExpectedCall],
    actual: Sequence[tuple[str | None, dict[str, Any]]],
    protocol_id: str,
) -> str:
    """The first way ``actual`` differs from ``expected``, in words; empty when they are the same calls."""
    from toolform.parse.normalize import normalize_arguments

    if not actual:
        syntax = f" in {protocol_id}'s syntax" if protocol_id else ""
        return f"no call read{syntax}; expected {', '.join(want.name for want in expected)}"
    if len(expected) != len(actual):
        return f"{len(actual)} calls made, {len(expected)} expected"
    for want, (name, got) in zip(expected, actual, strict=True):
        if name != want.name:
            return f"called {name}, expected {want.name}"
        tool = tools[want.name]
        wanted = normalize_arguments(tool, want.arguments)
        defaults = normalize_arguments(tool, {p.name: p.default for p in tool.params if p.default is not None})
        for key, value in wanted.items():
            if key not in got:
                return f"{name}: argument {key} missing, expected {_shown(value)}"
            if got[key] != value:
                return f"{name}: argument {key} is {_shown(got[key])}, expected {_shown(value)}"
        for key, value in got.items():
            if key not in wanted and defaults.get(key) != value:
                return f"{name}: argument {key} = {_shown(value)} not expected"
    return ""


def _shown(value: Any) -> str:
    """A value as JSON text, cut to a readable length."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:59] + "…"
