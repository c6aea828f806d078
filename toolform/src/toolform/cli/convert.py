"""``toolform convert``: load tools from a file (or stdin) and write them as OpenAI, Anthropic, MCP or IR JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from toolform.cli.output import warn
from toolform.conversion import EXPORT_TARGETS, LOCAL_SOURCES, export_tools
from toolform.errors import BadRequest, LoaderError

#: File suffixes that name their source when --from is auto.
_SUFFIX_SOURCES = {".ts": "typescript", ".py": "python", ".flow": "flow"}


def add_parser(verbs: Any) -> None:
    parser = verbs.add_parser("convert", help="load tools and write them as OpenAI, Anthropic, MCP or IR JSON")
    parser.add_argument(
        "tools",
        help="a tool file (OpenAI, Anthropic, MCP or IR JSON, a .ts or .py file, a Flow listing), or - for stdin; "
        "a .py file is imported, which runs its code (only with --trust-code)",
    )
    parser.add_argument(
        "--from", dest="source", choices=LOCAL_SOURCES, default="auto", help="what the file holds; auto detects it"
    )
    parser.add_argument("--to", required=True, choices=EXPORT_TARGETS, help="the shape to write")
    parser.add_argument("--out", type=Path, help="write here instead of stdout")
    parser.add_argument("--json", action="store_true", help="accepted for symmetry; the output is always JSON")
    add_trust_code(parser)
    parser.set_defaults(run=run)


def add_trust_code(parser: argparse.ArgumentParser) -> None:
    """The --trust-code flag of every verb that loads a tools file (``read_tools`` reads it)."""
    parser.add_argument(
        "--trust-code",
        action="store_true",
        help="allow a .py tools file (loading it imports it, which runs its code); off by default",
    )


TRUST_CODE_REFUSAL = "a .py tools file is imported, which runs its code; pass --trust-code to allow it"


def read_tools(argument: str, source: str, trust_code: bool) -> tuple[str, object]:
    """The source and payload a tools argument names: JSON parsed, source text as text, Python as its path.

    Every verb that reads a tools file reads it here. Python tools (a .py file, or ``--from python``) are
    imported when loaded, which runs their code: refused unless ``trust_code`` (the verb's --trust-code),
    before the file is read at all.
    """
    path = None if argument == "-" else Path(argument)
    if source == "auto" and path is not None:
        source = _SUFFIX_SOURCES.get(path.suffix.lower(), "auto")
    if source == "python" and not trust_code:
        raise BadRequest(TRUST_CODE_REFUSAL)
    if path is not None and not path.is_file():
        raise BadRequest(f"no such file ({argument})")
    if source == "python":
        if path is None:
            raise BadRequest("python tools are read from a .py file, not stdin")
        return source, str(path)
    text = sys.stdin.read() if path is None else path.read_text(encoding="utf-8")
    if source in ("typescript", "flow"):
        return source, text
    try:
        return source, json.loads(text)
    except json.JSONDecodeError as error:
        # Not JSON: auto hands other text on (TypeScript or a Flow listing); JSON that breaks is refused.
        if source == "auto" and not text.lstrip().startswith(("{", "[")):
            return source, text
        where = "stdin" if path is None else argument
        raise LoaderError(
            f"the file is not valid JSON: {error.msg} ({where}, line {error.lineno})", line=error.lineno
        ) from error


def run(arguments: argparse.Namespace) -> int:
    source, payload = read_tools(arguments.tools, arguments.source, arguments.trust_code)
    result = export_tools(source, payload, arguments.to, over_http=False)
    for message in result.warnings:
        warn(message)
    text = json.dumps(result.payload, indent=2, ensure_ascii=False) + "\n"
    if arguments.out is None:
        sys.stdout.write(text)
    else:
        arguments.out.write_text(text, encoding="utf-8")
        print(f"wrote the tools to {arguments.out} as {arguments.to}", file=sys.stderr)
    return 0
