"""Parsing a model's reply: the 31 protocols' strict parsers, the lenient fallback with its named
repairs, the study's grading rules, and each call validated against its tool's schema.

    from toolform.parse import parse_reply
    reply = parse_reply(tools, text, "xml_call", rule="main", validate=True, lenient_fallback=False)
    reply.ok, reply.calls, reply.to_dict()
"""

from toolform.parse.protocols import PARSERS
from toolform.parse.protocols.base import ToolsReading, tools_reading
from toolform.parse.reply import flow_listing, parse_reply
from toolform.parse.result import RULES, ParsedCall, ParsedReply, RawCall, Validation

#: The protocol ids the parser reads, the registry's 31.
PROTOCOL_IDS: tuple[str, ...] = tuple(PARSERS)

__all__ = [
    "PROTOCOL_IDS",
    "RULES",
    "ParsedCall",
    "ParsedReply",
    "RawCall",
    "ToolsReading",
    "Validation",
    "flow_listing",
    "parse_reply",
    "tools_reading",
]
