"""The seam to the parse SDK: a reply's text read as calls, under the format's protocol and the rule.

The loop reads only the parsed reply's dict (the reference's ``ParsedReply``
shape: ``calls``, each with ``name``, ``resolved_name``, ``arguments``,
``valid``, ``accepted`` and ``validation``), so any parser that gives that
shape can stand in, a test's included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from toolform.ir import ToolSet


class Parsed(Protocol):
    """A parsed reply: its record as the reference writes it."""

    def to_dict(self) -> dict[str, Any]: ...


#: (tools, reply text, protocol id, rule) -> the parsed reply.
ReplyParser = Callable[[ToolSet, str, str, str], Parsed]


def sdk_parser(tools: ToolSet, text: str, protocol_id: str, rule: str) -> Parsed:
    """The parse SDK's reading of ``text``: the protocol's strict parser, each call validated against ``tools``."""
    from toolform.parse import parse_reply

    parsed: Parsed = parse_reply(tools, text, protocol_id, rule=rule, validate=True, lenient_fallback=False)
    return parsed


def flow_parser(listing: str) -> ReplyParser:
    """``sdk_parser`` for the tools of a Flow listing: each call also decoded by Flow's exact typed decoding.

    What flow-host would refuse (``"metric"`` for the constructor ``Metric``, ``2.5`` for an Int) is
    refused here, with Flow's path and rule, and the model is told so instead of the Tool being run.
    """

    def parse(tools: ToolSet, text: str, protocol_id: str, rule: str) -> Parsed:
        from toolform.parse import parse_reply

        parsed: Parsed = parse_reply(tools, text, protocol_id, rule=rule, validate=True, lenient_fallback=False,
                                     flow_listing=listing)
        return parsed

    return parse


def accepted_calls(parsed: dict[str, Any]) -> list[dict[str, Any]]:
    """The calls the parser accepted, in the reply's order."""
    calls = parsed.get("calls", [])
    return [c for c in calls if isinstance(c, dict) and c.get("accepted")] if isinstance(calls, list) else []


def rejected_calls(parsed: dict[str, Any]) -> list[dict[str, Any]]:
    """The calls the parser rejected (an invented tool name, ...), in the reply's order."""
    rejected = parsed.get("rejected", [])
    return [c for c in rejected if isinstance(c, dict)] if isinstance(rejected, list) else []
