"""The query-language protocols: sql_call (``SELECT name(arg => 'value');``), graphql_call
(``mutation { name(arg: "value") }``) and sexpr_call (``(name :arg "value")``)."""

from __future__ import annotations

import re
from typing import Any

from toolform.parse.literals import brackets_of
from toolform.parse.protocols.base import Context, Found, found
from toolform.parse.protocols.literal_reader import LiteralReader
from toolform.parse.result import RawCall

_SELECT = re.compile(r"\b(?:SELECT|CALL|EXEC)\s+([A-Za-z_][\w.]*)\s*\(", re.IGNORECASE)


def _resolved(name: str, context: Context) -> str:
    return context.resolver.resolve(name) or name


def parse_sql(text: str, context: Context) -> Found | None:
    calls = []
    brackets = brackets_of(text)
    for match in _SELECT.finditer(text):
        end = brackets.end(match.end() - 1)
        if end < 0:
            continue
        arguments = _named_arguments(text[match.end() : end - 1], ("=>", ":="), "'\"")
        if arguments is not None:
            calls.append(RawCall(match.group(1).split(".")[-1], arguments))
    return found(calls)


def _named_arguments(body: str, separators: tuple[str, ...], quotes: str) -> dict[str, Any] | None:
    reader = LiteralReader(body, quotes)
    arguments: dict[str, Any] = {}
    try:
        while reader.peek():
            key = reader.word()
            if key is None or not any(reader.expect(sep) for sep in separators):
                return None
            arguments[key] = reader.value()
    except ValueError:
        return None
    return arguments


_MUTATION = re.compile(r"\b(?:mutation|query)\b[^{]*\{", re.IGNORECASE)
_FIELD = re.compile(r"([A-Za-z_]\w*)\s*(\()?")
#: What ``str.lstrip`` leaves (both read Unicode's whitespace alike).
_NOT_SPACE = re.compile(r"\S")


def parse_graphql(text: str, context: Context) -> Found | None:
    calls = []
    # Read in place rather than in slices (a body is the text between ``body`` and ``stop``), with one
    # reading of the brackets for every body: bodies nest, and a slice and a reading each would be
    # quadratic in the nesting. A bracket closes inside a body exactly when it closes in the text at or
    # before the body's end (``Brackets.end``'s ``limit``).
    brackets = brackets_of(text)
    last_brace = text.rfind("{")
    # A mutation with no brace after it is no match: searched only up to the last brace, each keyword is
    # not read to the end of the text again.
    for match in _MUTATION.finditer(text, 0, last_brace + 1):
        body = match.end()
        end = brackets.end(match.end() - 1)
        stop = end - 1 if end > 0 else len(text)
        pos = body
        while True:
            field = _FIELD.search(text, pos, stop)
            if field is None:
                break
            arguments: dict[str, Any] = {}
            pos = field.end()
            if field.group(2):
                close = brackets.end(field.end() - 1, stop)
                if close < 0:
                    break
                parsed = _named_arguments(text[field.end() : close - 1], (":",), '"')
                if parsed is None:
                    break
                arguments, pos = parsed, close
            calls.append(RawCall(_resolved(field.group(1), context), arguments))
            # The selection set after a field is its result, not another call.
            text_after = _NOT_SPACE.search(text, pos, stop)
            after = text_after.start() if text_after is not None else stop
            if after < stop and text[after] == "{":
                skip = brackets.end(after, stop)
                pos = skip if skip > 0 else stop
    return found(calls)


_SEXPR = re.compile(r"\(\s*([A-Za-z_][\w.\-]*)(?=[\s)])")


def parse_sexpr(text: str, context: Context) -> Found | None:
    calls = []
    covered = 0
    brackets = brackets_of(text)
    for match in _SEXPR.finditer(text):
        if match.start() < covered:
            continue
        end = brackets.end(match.start())
        if end < 0:
            continue
        covered = end
        reader = LiteralReader(text[match.end() : end - 1], '"')
        arguments: dict[str, Any] = {}
        names: set[str] | None = None
        try:
            while reader.peek():
                if not reader.expect(":"):
                    raise ValueError("expected a keyword")
                key = reader.word()
                if key is None:
                    raise ValueError("expected a keyword")
                if names is None:
                    names = _param_names(context, match.group(1))
                arguments[key.replace("-", "_") if key not in names else key] = (
                    reader.value("(", ")") if reader.peek() == "(" else reader.value()
                )
        except ValueError:
            continue
        calls.append(RawCall(match.group(1), arguments))
    return found(calls)


def _param_names(context: Context, name: str) -> set[str]:
    tool = context.tool(name)
    return {p.name for p in tool.params} if tool is not None else set()
