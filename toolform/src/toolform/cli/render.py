"""``toolform render``: tools in a format with a protocol's answer instructions, or many formats' sizes."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from toolform.cli.convert import add_trust_code, read_tools
from toolform.cli.exact_json import exact_json_text
from toolform.cli.output import print_json, print_table
from toolform.conversion import LOCAL_SOURCES
from toolform.errors import BadRequest
from toolform.evidence import open_evidence

CASES = ("as_is", "snake", "camel", "pascal", "kebab", "screaming")
PERSONAS = ("agent", "terse", "bare", "expert")


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("render", help="render tools in a format, with the answer instruction of a protocol")
    parser.add_argument("tools", help="a tool file (OpenAI, Anthropic, MCP or IR JSON, a .ts file), or - for stdin")
    parser.add_argument("--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the file holds")
    parser.add_argument("--format", help="a format id, for example xml_schema")
    parser.add_argument("--protocol", help="a protocol id; default the format's own")
    parser.add_argument("--request", help="a user request, for --messages")
    for option in ("descriptions", "constraints", "defaults", "returns"):
        parser.add_argument(f"--{option}", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--minify", action="store_true")
    parser.add_argument("--case", choices=CASES, default="as_is", help="naming convention for names")
    parser.add_argument("--persona", choices=PERSONAS, default="agent")
    parser.add_argument(
        "--trust-line",
        action="store_true",
        help="add the study's sentence calling tool metadata untrusted; it did not lower injection following",
    )
    parser.add_argument("--null-clause", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument(
        "--messages", action="store_true", help="print the full chat messages as JSON (needs --request)"
    )
    parser.add_argument("--compare", action="store_true", help="compare the size of every study format")
    parser.add_argument("--formats", help="comma-separated format ids for --compare")
    parser.add_argument("--out", type=Path, help="also write the output to this file")
    add_trust_code(parser)
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")
    parser.add_argument("--json", action="store_true", help="print the result as JSON and nothing else")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from toolform.loaders import load
    from toolform.render import RenderOptions, compare, render

    evidence = open_evidence(arguments.study_dir)
    if not arguments.compare and not arguments.format:
        raise BadRequest("give --format ID, or --compare")
    if arguments.messages and not arguments.request:
        raise BadRequest("--messages needs --request")
    source, payload = read_tools(arguments.tools, arguments.source, arguments.trust_code)
    toolset = load(source, payload).toolset
    options = RenderOptions(
        descriptions=arguments.descriptions,
        constraints=arguments.constraints,
        defaults=arguments.defaults,
        returns=arguments.returns,
        minify=arguments.minify,
        case_convention=arguments.case,
    )
    if arguments.compare:
        formats = [f.strip() for f in arguments.formats.split(",") if f.strip()] if arguments.formats else None
        rows: list[dict[str, Any]] = compare(toolset, formats, options, evidence).to_dict()["rows"]  # type: ignore[assignment]
        if arguments.json:
            return _emit(json.dumps({"rows": rows}, indent=2, ensure_ascii=False), arguments.out)
        table = [
            [
                row["format_id"] + ("  (novel)" if row["novel"] else ""),
                row["family"],
                row["tokens_estimate"],
                _percent(row["study_accuracy"]),
                _percent(row["paper_accuracy"]),
            ]
            for row in rows
        ]
        print_table(["format", "family", "tokens", "study accuracy", "paper tab_main"], table)
        print("study accuracy: export:format_leaderboard; paper tab_main: paper:tab_main", file=sys.stderr)
        return 0
    rendered = render(
        toolset,
        arguments.format,
        arguments.protocol,
        options,
        request=arguments.request,
        persona=arguments.persona,
        null_clause=arguments.null_clause,
        trust_line=arguments.trust_line,
        evidence=evidence,
    )
    answer = rendered.to_dict()
    for warning in rendered.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if arguments.json:
        # hidden_constraints holds the IR's numbers: Decimals are written with their digits.
        return _emit(exact_json_text(answer), arguments.out)
    if arguments.messages:
        return _emit(json.dumps(answer["messages"], indent=2, ensure_ascii=False), arguments.out)
    text = str(answer["tool_block"])
    if answer["instructions"]:
        text += "\n\n" + str(answer["instructions"])
    chars, tokens = answer["chars"], answer["tokens_estimate"]
    size = f"{answer['format_id']}: {chars:,} chars, about {tokens:,} tokens (characters / 4)"
    # The file gets the prompt text alone; the size line is for the person reading the terminal.
    print(text + "\n\n" + size)
    if arguments.out is not None:
        arguments.out.write_text(text + "\n", encoding="utf-8")
    return 0


def _emit(text: str, out: Path | None) -> int:
    print(text)
    if out is not None:
        out.write_text(text + "\n", encoding="utf-8")
    return 0


def _percent(value: object) -> str:
    return "" if value is None else f"{value}%"


__all__ = ["print_json", "run"]
