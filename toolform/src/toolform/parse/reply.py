"""Parsing a reply under a protocol and a grading rule: the SDK's entry point."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from toolform.errors import BadRequest, UnknownProtocol
from toolform.ir import ToolIR, ToolSet
from toolform.jsontext import dumps
from toolform.parse.flow_check import FlowChecker
from toolform.parse.literals import sharing_brackets
from toolform.parse.nocall import declares_no_call
from toolform.parse.normalize import normalize_arguments
from toolform.parse.protocols import LENIENT_ORDER, NAMES_RESOLVED, NATURAL, PARSERS, Context, Found
from toolform.parse.protocols.base import ToolsReading
from toolform.parse.reasoning import remove_reasoning
from toolform.parse.result import RULES, ParsedCall, ParsedReply, RawCall, Validation
from toolform.parse.validate import validate_arguments
from toolform.registry import close_matches

#: The repair a lenient read names: the syntax the calls were found in.
LENIENT_REPAIR = "lenient:{}"


def parse_reply(
    tools: ToolSet,
    text: str,
    protocol: str,
    *,
    rule: str = "main",
    validate: bool = True,
    lenient_fallback: bool = False,
    flow_listing: str | None = None,
    reading: ToolsReading | None = None,
) -> ParsedReply:
    """Parse ``text`` as a reply in ``protocol`` against ``tools``, graded under ``rule``.

    The protocol's strict parser reads the reply first (after removing a
    reasoning block in front). When it finds no call, a reply that says no tool
    applies is a declared no-call; otherwise the other protocols' parsers are
    tried, and with ``lenient_fallback`` their calls are taken, each naming the
    repair (``lenient:<protocol>``). Each call is resolved to a tool (an unknown
    name is rejected and listed in ``hallucinated``) and, with ``validate``,
    checked against the tool's schema. With ``flow_listing`` (the ``flow tools``
    listing the tools were loaded from), a call to a Flow tool is checked by
    Flow's own typed decoding instead: exact digits, refusals with path and rule.
    ``reading`` (``tools_reading(tools)``) shares what reading against ``tools``
    needs between replies, for a tool set that does not change between them.

    Raises UnknownProtocol for a protocol id not in the registry, and BadRequest
    for an unknown rule or for ``lenient_fallback`` under ``as_written`` (a repair
    that rule does not allow). Never raises for the text, whatever it holds.
    """
    if protocol not in PARSERS:
        matches = close_matches(protocol, list(PARSERS))
        hint = f"; close matches: {', '.join(matches)}" if matches else ""
        raise UnknownProtocol(f"unknown protocol '{protocol}'{hint}")
    if rule not in RULES:
        raise BadRequest(f"unknown rule '{rule}'; use one of {', '.join(RULES)}")
    if lenient_fallback and rule == "as_written":
        raise BadRequest("lenient_fallback is a repair; it cannot be used under the as_written rule")
    with sharing_brackets():
        return _parsed(tools, text, protocol, rule, validate, flow_listing, lenient_fallback, reading)


def _parsed(
    tools: ToolSet, text: str, protocol: str, rule: str, validate: bool, flow_listing: str | None,
    lenient_fallback: bool, reading: ToolsReading | None,
) -> ParsedReply:
    context = Context(tools, reading=reading)
    if flow_listing is not None:
        context.flow = _flow_checker(flow_listing)
    body, reasoning_removed = remove_reasoning(text)
    reply = ParsedReply(protocol_id=protocol, rule=rule, reasoning_removed=reasoning_removed, validated=validate)
    strict = _attempt(PARSERS[protocol], body, context)
    if strict is not None:
        reply.parsed_strict = reply.parsed_lenient = True
        reply.matched_syntax = "nl_intent" if strict.note.startswith("frame-miss") else protocol
        reply.note = strict.note
        _grade(reply, strict.calls, context, [], reply.matched_syntax)
        return reply
    for other in LENIENT_ORDER:
        if other == protocol:
            continue
        lenient = _attempt(PARSERS[other], body, context)
        if lenient is None:
            continue
        reply.parsed_lenient = True
        reply.matched_syntax = other
        reply.format_compliant = False
        if lenient_fallback:
            _grade(reply, lenient.calls, context, [LENIENT_REPAIR.format(other)], other)
        return reply
    if declares_no_call(body):
        reply.no_call_declared = True
        reply.matched_syntax = protocol if protocol in NATURAL else "explicit-no-call"
        reply.note = "explicit-no-call" if protocol in NATURAL else ""
        return reply
    if protocol == "nl_intent":
        reply.note = "no-match"
    return reply


@lru_cache(maxsize=16)
def _flow_checker(listing: str) -> FlowChecker:
    """One checker per listing: a measurement grades every reply against the same one."""
    return FlowChecker(listing)


def flow_listing(kind: str, payload: object) -> str | None:
    """The listing text of tools loaded from a ``flow`` source (its payload), None for any other source."""
    if kind != "flow":
        return None
    return payload if isinstance(payload, str) else dumps(payload)


def _attempt(parser: object, body: str, context: Context) -> Found | None:
    """A parser's result; a parser that fails on strange text finds nothing rather than failing the reply."""
    try:
        return parser(body, context)  # type: ignore[operator, no-any-return]
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError, MemoryError):
        return None


def _validation(context: Context, tool: ToolIR, arguments: dict[str, Any]) -> Validation:
    """The tool's schema check, or Flow's typed decoding for a tool read from a Flow listing."""
    if context.flow is None:
        return validate_arguments(tool, arguments, context.plans)
    flow = tool.annotations.get("flow")
    identity = flow.get("identity") if isinstance(flow, dict) else None
    if isinstance(identity, str) and context.flow.knows(identity):
        return context.flow.validate(identity, arguments)
    return validate_arguments(tool, arguments, context.plans)


def _grade(reply: ParsedReply, calls: list[RawCall], context: Context, repairs: list[str], syntax: str) -> None:
    for raw in calls:
        tool = context.tool(raw.name)
        if tool is not None and syntax in NAMES_RESOLVED:
            raw = RawCall(tool.name, raw.arguments)
        if tool is None:
            rejected = ParsedCall(
                raw.name, raw.arguments, None, None, Validation(unknown_tool=True), list(repairs), False, "unknown tool"
            )
            reply.rejected.append(rejected)
            if raw.name not in reply.hallucinated:
                reply.hallucinated.append(raw.name)
            continue
        validation = _validation(context, tool, raw.arguments) if reply.validated else Validation()
        normalized = normalize_arguments(tool, raw.arguments, context.plans)
        reply.calls.append(ParsedCall(raw.name, raw.arguments, tool.name, normalized, validation, list(repairs)))
