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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolform.ir import ToolIR, ToolSet
from toolform.measure.tasks import ExpectedCall, Task


@dataclass(frozen=True)
class Grade:
    """What one reply scored: correct, read by the protocol's strict parser, an invented tool, schema-valid."""

    correct: bool
    parse_strict: bool
    hallucinated: bool
    schema_valid: bool


def grade_reply(toolset: ToolSet, task: Task, reply: str, protocol_id: str, rule: str) -> Grade:
    """Grade ``reply`` to ``task`` in ``protocol_id`` under ``rule`` (main, symmetric or as_written)."""
    from toolform.parse import parse_reply  # the parse SDK; imported here so that measure loads on its own

    parsed = parse_reply(toolset, reply, protocol_id, rule=rule, validate=True, lenient_fallback=False)
    made = parsed.calls
    hallucinated = bool(parsed.hallucinated)
    if not task.calls:
        nothing_called = not made and not parsed.rejected and not hallucinated
        return Grade(nothing_called, parsed.parsed_strict, hallucinated, nothing_called)
    schema_valid = bool(made) and not parsed.rejected and all(call.valid for call in made)
    tools = {tool.name: tool for tool in toolset}
    actual = [(call.resolved_name, call.normalized_arguments or {}) for call in made]
    # Correctness is the calls' meaning, as the study graded: a value the schema would refuse as written
    # ("3" for an integer) is still right once normalised; schema_valid reports the refusal.
    correct = not hallucinated and not parsed.rejected and _same_calls(tools, task.calls, actual)
    return Grade(correct, parsed.parsed_strict, hallucinated, schema_valid)


def _same_calls(
    tools: dict[str, ToolIR], expected: Sequence[ExpectedCall], actual: Sequence[tuple[str | None, dict[str, Any]]]
) -> bool:
    from toolform.parse.normalize import normalize_arguments

    if len(expected) != len(actual):
        return False
    for want, (name, got) in zip(expected, actual, strict=True):
        if name != want.name:
            return False
        tool = tools[want.name]
        wanted = normalize_arguments(tool, want.arguments)
        defaults = normalize_arguments(tool, {p.name: p.default for p in tool.params if p.default is not None})
        extra = {k: v for k, v in got.items() if k not in wanted}
        if {k: got.get(k) for k in wanted} != wanted or any(defaults.get(k) != v for k, v in extra.items()):
            return False
    return True
