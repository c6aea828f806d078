"""``toolform inspect TOOLS``: what a person checks first about a tool set, and its fingerprint.

The summary is the one ``/api/v1/tools/load`` answers: the tool count and names,
the shape that was read, the complexity tier, the deepest nesting, the
description characters, and the fingerprint a measurement is filed under.
"""

from __future__ import annotations

import argparse
from typing import Any

from toolform.cli.convert import add_trust_code, read_tools
from toolform.cli.output import print_json, warn
from toolform.conversion import LOCAL_SOURCES


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("inspect", help="print a tool set's summary and fingerprint")
    parser.add_argument("tools", help="a tool file (OpenAI, Anthropic, MCP or IR JSON, a .ts file), or - for stdin")
    parser.add_argument("--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the file holds")
    add_trust_code(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON and nothing else")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from toolform.loaders import load
    from toolform.summary import summarize

    source, payload = read_tools(arguments.tools, arguments.source, arguments.trust_code)
    loaded = load(source, payload)
    summary = summarize(loaded.toolset, loaded.warnings, loaded.kind)
    if arguments.json:
        print_json(summary.to_dict())
        return 0
    noun = "tool" if summary.n_tools == 1 else "tools"
    print(f"tools        {summary.n_tools:,} {noun} (read as {summary.source})")
    print(f"names        {', '.join(summary.names)}")
    print(f"tier         {summary.tier_estimate} of 5 (the study's complexity tiers, estimated)")
    print(f"depth        {summary.max_depth} levels of nesting at most")
    print(f"descriptions {summary.desc_chars:,} characters")
    print(f"fingerprint  {summary.fingerprint}")
    for message in summary.warnings:
        warn(message)
    return 0
