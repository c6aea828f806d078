"""``toolform parse``: a model's reply parsed under a protocol and a grading rule; exit 1 when it is not ok.

Not ok: a call was rejected, a tool name was invented, a call failed
validation, or there is no call and the reply does not say that no tool
applies. With ``--require-call``, a reply with no accepted call fails too.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from toolform.cli.convert import add_trust_code, read_tools
from toolform.conversion import LOCAL_SOURCES
from toolform.errors import BadRequest
from toolform.jsontext import write
from toolform.parse import RULES, ParsedCall, ParsedReply
from toolform.registry import close_matches


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser(
        "parse", help="parse a model's reply under a protocol and a grading rule; exit 1 when it is not ok"
    )
    parser.add_argument("tools", help="a tool file (OpenAI, Anthropic, MCP or IR JSON, a .ts file), or - for stdin")
    parser.add_argument("--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the file holds")
    parser.add_argument("--protocol", required=True, help="the protocol the prompt asked for, e.g. xml_call")
    parser.add_argument("--rule", choices=RULES, default="main", help="the grading rule (default main)")
    parser.add_argument("--text", help="the reply text")
    parser.add_argument("--reply-file", help="a file holding the reply, or - for stdin")
    parser.add_argument(
        "--lenient-fallback", action="store_true", help="take calls from any syntax when the strict parser finds none"
    )
    parser.add_argument(
        "--validate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="check arguments against the schema (default: on)",
    )
    parser.add_argument(
        "--require-call",
        action="store_true",
        help="exit 1 when the reply holds no accepted call, even if it says no tool applies",
    )
    add_trust_code(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.set_defaults(run=run)


def _reply_text(arguments: argparse.Namespace) -> str:
    if arguments.text is not None and arguments.reply_file is not None:
        raise BadRequest("give the reply with --text or --reply-file, not both")
    if arguments.reply_file == "-":
        if arguments.tools == "-":
            raise BadRequest("the tools and the reply cannot both come from stdin")
        return sys.stdin.read()
    if arguments.reply_file is not None:
        path = Path(arguments.reply_file)
        if not path.is_file():
            raise BadRequest(f"no such file ({arguments.reply_file})")
        return path.read_text(encoding="utf-8")
    return arguments.text if arguments.text is not None else ""


def run(arguments: argparse.Namespace) -> int:
    from toolform.loaders import load
    from toolform.parse import flow_listing, parse_reply

    text = _reply_text(arguments)
    source, payload = read_tools(arguments.tools, arguments.source, arguments.trust_code)
    loaded = load(source, payload)
    reply = parse_reply(
        loaded.toolset,
        text,
        arguments.protocol,
        rule=arguments.rule,
        validate=arguments.validate,
        lenient_fallback=arguments.lenient_fallback,
        flow_listing=flow_listing(loaded.kind, payload),
    )
    if arguments.json:
        # One line: the arguments' numbers keep their digits, which json.dumps cannot write.
        print(write(reply.to_dict(), ensure_ascii=False))
    else:
        _print_reply(reply, [tool.name for tool in loaded.toolset])
    if not reply.ok or (arguments.require_call and not reply.accepted_calls):
        return 1
    return 0


def _print_reply(reply: ParsedReply, tool_names: list[str]) -> None:
    for call in reply.calls:
        _print_call(call, "valid" if call.valid else "invalid", tool_names)
    for call in reply.rejected:
        _print_call(call, "rejected", tool_names)
    if not reply.calls and not reply.rejected:
        print("no call (the reply says no tool applies)" if reply.no_call_declared else "no call")
    print(
        f"strict parse: {_yes(reply.parsed_strict)}, format compliant: {_yes(reply.format_compliant)}, "
        f"rule: {reply.rule}, ok: {_yes(reply.ok)}",
        file=sys.stderr,
    )


def _print_call(call: ParsedCall, verdict: str, tool_names: list[str]) -> None:
    detail = call.reason if verdict == "rejected" else write(call.arguments, ensure_ascii=False)
    print(f"{call.name}  {verdict}  {detail}")
    if call.resolved_name is not None and call.resolved_name != call.name:
        print(f"    {call.name} resolved to {call.resolved_name}")
    elif call.resolved_name is None:
        near = close_matches(call.name, tool_names)
        if near:
            print(f"    did you mean {' or '.join(near[:3])}?")
    v = call.validation
    for label, found in (
        ("missing required argument", v.missing_required),
        ("unknown argument", v.unknown_args),
        ("wrong type", v.type_errors),
        ("not an allowed value", v.enum_errors),
        ("constraint broken", v.constraint_errors),
    ):
        for item in found:
            print(f"    {label}: {item}")
    if call.repairs:
        print(f"    repairs: {', '.join(call.repairs)}")


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"
