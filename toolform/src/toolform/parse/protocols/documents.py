"""The document protocols: yaml_call (``name:`` and ``arguments:`` keys) and toml_call
(``[[call]]`` tables with ``[call.arguments]``)."""

from __future__ import annotations

import re
import tomllib
from typing import Any

import yaml  # type: ignore[import-untyped]

from toolform.parse.fences import fenced_bodies
from toolform.parse.protocols.base import Context, Found, found
from toolform.parse.protocols.json_calls import calls_from
from toolform.parse.result import RawCall

#: libyaml's safe loader where the wheel has it (the same documents, read in C), else PyYAML's own.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _yaml(text: str) -> Any:
    try:
        return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader
    except (yaml.YAMLError, ValueError, RecursionError):
        return None


def parse_yaml(text: str, context: Context) -> Found | None:
    """The reply (or its fenced part) as YAML; JSON is YAML too."""
    for candidate in [*fenced_bodies(text), text]:
        calls = calls_from(_jsonable(_yaml(candidate)))
        if calls:
            return Found(calls)
    start = _name_line_start(text)
    if start >= 0:
        for block in _shorter_and_shorter(text[start:]):
            calls = calls_from(_jsonable(_yaml(block)))
            if calls:
                return Found(calls)
    return None


_NAME_KEY = re.compile(r"name\s*:")


def _name_line_start(text: str) -> int:
    r"""Where ``re.search(r"^\s*name\s*:", text, re.MULTILINE)`` matches, or -1, read in one pass.

    The match starts at the first line start from which only spaces lead to a ``name:``: for each
    ``name:`` in turn, the earliest line start in the spaces before it. (The expression itself reads
    the spaces after every line start again, quadratic in a run of blank lines.)
    """
    for key in _NAME_KEY.finditer(text):
        spaces = key.start()
        while spaces > 0 and text[spaces - 1].isspace():
            spaces -= 1
        if spaces == 0 or text[spaces - 1] == "\n":
            return spaces
        line_break = text.find("\n", spaces, key.start())
        if line_break >= 0:
            return line_break + 1
    return -1


def _shorter_and_shorter(text: str, most: int = 8) -> list[str]:
    """The text, then without its last line, and so on: prose after a document is not part of it."""
    lines = text.rstrip().splitlines()
    return ["\n".join(lines[: len(lines) - cut]) for cut in range(min(most, len(lines)))]


def _jsonable(value: Any) -> Any:
    """YAML's dates and other scalars as text, so that every value is JSON's."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


_CLOSING_FENCE = re.compile(r"^[ \t]*```", re.MULTILINE)


def parse_toml(text: str, context: Context) -> Found | None:
    start = re.search(r"\[\[?call\b", text)
    if start is None:
        return None
    body = text[start.start() :]
    # A closing fence stands at the start of its line; backticks inside a string are the string's.
    fence = _CLOSING_FENCE.search(body)
    if fence is not None:
        body = body[: fence.start()]
    document = None
    for block in _shorter_and_shorter(body):
        try:
            document = tomllib.loads(block)
            break
        except (tomllib.TOMLDecodeError, ValueError, RecursionError):
            continue
    if document is None:
        return None
    entries = document.get("call")
    items = entries if isinstance(entries, list) else [entries]
    calls: list[RawCall] = []
    for entry in items:
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            arguments = entry.get("arguments", {})
            calls.append(RawCall(entry["name"], _jsonable(arguments) if isinstance(arguments, dict) else {}))
    return found(calls)
