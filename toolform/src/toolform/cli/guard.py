"""``toolform guard``: flag, or strip, instructions hidden in tool descriptions; for CI over third-party tools.

Exit status 1 when a finding is at or above ``--fail-on`` (high by default),
so a CI step fails on a poisoned tool file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from toolform.cli.convert import add_trust_code, read_tools
from toolform.cli.output import print_json, print_table
from toolform.conversion import LOCAL_SOURCES
from toolform.evidence import open_evidence

_RANK = {"low": 1, "medium": 2, "high": 3}


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("guard", help="flag or strip instructions hidden in tool descriptions")
    parser.add_argument("tools", help="a tool file (OpenAI, Anthropic, MCP or IR JSON, a .ts file), or - for stdin")
    parser.add_argument("--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the file holds")
    parser.add_argument(
        "--strictness",
        choices=("lenient", "standard", "strict"),
        default="standard",
        help="lenient: high findings; standard: high and medium; strict: all",
    )
    parser.add_argument(
        "--action",
        choices=("report", "strip", "drop-descriptions", "drop_descriptions"),
        default="report",
        help="report changes nothing; strip removes flagged sentences; drop-descriptions removes all prose",
    )
    parser.add_argument(
        "--strip-at", choices=("high", "medium", "low"), default="high", help="with strip: this severity or above"
    )
    parser.add_argument(
        "--scope", choices=("flagged", "all"), default="flagged", help="with drop-descriptions: which tools"
    )
    parser.add_argument("--out", type=Path, help="write the cleaned tools here, in the input's shape")
    parser.add_argument(
        "--fail-on",
        choices=("high", "medium", "low", "never"),
        default="high",
        help="exit 1 when a finding is at or above this",
    )
    add_trust_code(parser)
    parser.add_argument("--reference-rules", action="store_true", help="the reference's rules (TS101 to TS110) alone")
    parser.add_argument("--study-dir", help="read the study's evidence from this folder")
    parser.add_argument("--json", action="store_true", help="print the report as JSON and nothing else")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from toolform.guard import guard

    evidence = open_evidence(arguments.study_dir)
    source, payload = read_tools(arguments.tools, arguments.source, arguments.trust_code)
    report = guard(
        {"source": source, "payload": payload},
        strictness=arguments.strictness,
        action=arguments.action.replace("-", "_"),
        strip_at=arguments.strip_at,
        scope=arguments.scope,
        reference_only=arguments.reference_rules,
        evidence=evidence,
    )
    answer = report.to_dict()
    if arguments.json:
        print_json(answer)
    else:
        rows = [[f.severity.label, f.rule_id, f.tool, f.field, f.text] for f in report.findings]
        if rows:
            print_table(["severity", "rule", "tool", "field", "text"], rows)
        print(answer["summary"], file=sys.stderr)
    if arguments.out is not None:
        arguments.out.write_text(
            json.dumps(answer["cleaned"]["payload"], indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        print(f"wrote the cleaned tools to {arguments.out}", file=sys.stderr)
    top = report.max_severity
    if arguments.fail_on != "never" and top is not None and top >= _RANK[arguments.fail_on]:
        return 1
    return 0
