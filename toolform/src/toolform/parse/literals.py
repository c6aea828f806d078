"""Reading JSON-like values out of free text: balanced spans, then JSON, then its common slips."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_CLOSERS = {"{": "}", "[": "]", "(": ")"}


#: Outside a string, the characters that change the reading; inside one, the escape and its closing quote.
_STRUCTURE = re.compile(r"""["'{}\[\]()]""")
_STRING_END = {'"': re.compile(r'[\\"]'), "'": re.compile(r"[\\']")}


def balanced_end(text: str, start: int) -> int:
    """The index just past the bracket that closes the one at ``start``, or -1; quotes are respected."""
    # The searches jump to the next character that matters; replies of hundreds of calls are long.
    stack = [_CLOSERS[text[start]]]
    structure = _STRUCTURE.search
    i = start + 1
    while True:
        found = structure(text, i)
        if found is None:
            return -1
        i = found.start()
        ch = text[i]
        if ch == '"' or ch == "'":
            # An apostrophe inside a word (it's) opens no string.
            if ch == "'" and text[i - 1 : i].isalnum() and text[i + 1 : i + 2].isalnum():
                i += 1
                continue
            string_end = _STRING_END[ch].search
            i += 1
            while True:
                inside = string_end(text, i)
                if inside is None:
                    return -1
                i = inside.start()
                if text[i] != "\\":
                    break
                i += 2
        elif ch in _CLOSERS:
            stack.append(_CLOSERS[ch])
        else:
            if ch != stack[-1]:
                return -1
            stack.pop()
            if not stack:
                return i + 1
        i += 1


_OPENERS: dict[str, re.Pattern[str]] = {}


def _opener(openers: str) -> re.Pattern[str]:
    """The pattern finding any of ``openers``, compiled once per set."""
    opener = _OPENERS.get(openers)
    if opener is None:
        opener = _OPENERS[openers] = re.compile("[" + re.escape(openers) + "]")
    return opener


def spans(text: str, openers: str = "{[") -> Iterator[tuple[int, int]]:
    """Every outermost balanced span opened by one of ``openers``, left to right."""
    opener = _opener(openers)
    i = 0
    while True:
        found = opener.search(text, i)
        if found is None:
            return
        i = found.start()
        end = balanced_end(text, i)
        if end > 0:
            yield i, end
            i = end
        else:
            i += 1


_PY_NAMES = {"true": "True", "false": "False", "null": "None"}
_BARE = re.compile(r"\b(true|false|null)\b")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def exact_json(text: str) -> Any:
    """JSON text read with every number exact: an integer as int, any other number as a Decimal of its digits."""
    return json.loads(text, parse_float=Decimal, parse_constant=_refuse_constant)


def load_jsonish(text: str) -> tuple[bool, Any]:
    """(True, value) when ``text`` is JSON, JSON with trailing commas, or a Python literal; else (False, None).

    Numbers keep their digits (Decimal), whichever reading succeeds.
    """
    try:
        return True, exact_json(text)
    except (ValueError, RecursionError):
        pass
    fixed = _TRAILING_COMMA.sub(r"\1", text)
    if fixed != text:
        try:
            return True, exact_json(fixed)
        except (ValueError, RecursionError):
            pass
    source = _BARE.sub(lambda m: _PY_NAMES[m.group(1)], fixed)
    try:
        tree = ast.parse(source.strip(), mode="eval")
        ast.literal_eval(tree)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None
    return True, python_value(tree.body, source.strip())


#: ``exact_json``'s reader, which also reads a value where it starts in a longer text.
_EXACT_DECODER = json.JSONDecoder(parse_float=Decimal, parse_constant=_refuse_constant)


def loaded_spans(text: str, openers: str = "{[") -> Iterator[tuple[int, int, bool, Any]]:
    """Each span of ``spans`` with what ``load_jsonish`` reads in it: ``(start, end, ok, value)``.

    A span that is JSON is read where it starts, in one pass: a JSON value opened by
    a bracket ends where its bracket closes (its strings are the double-quoted, escaped
    strings ``balanced_end`` skips, and outside them it holds no quote or parenthesis),
    and it is what ``exact_json`` reads in the span. Any other span is found and read
    as before.
    """
    opener = _opener(openers)
    decode = _EXACT_DECODER.raw_decode
    i = 0
    while True:
        found = opener.search(text, i)
        if found is None:
            return
        i = found.start()
        try:
            value, end = decode(text, i)
        except (ValueError, RecursionError):
            end = balanced_end(text, i)
            if end < 0:
                i += 1
                continue
            ok, value = load_jsonish(text[i:end])
            yield i, end, ok, value
        else:
            yield i, end, True, value
        i = end


def values_in(text: str, openers: str = "{[") -> Iterator[Any]:
    """Every JSON-like value found in the text, outermost first, left to right."""
    for _start, _end, ok, value in loaded_spans(text, openers):
        if ok:
            yield value


def python_value(node: ast.expr, source: str) -> Any:
    """A Python literal node's value; ``true``/``false``/``null`` and bare names are read as JSON's or text.

    A float keeps the digits written in ``source`` (a Decimal), not a binary float's.
    """
    if isinstance(node, ast.Name):
        lowered = node.id.lower()
        if lowered in ("true", "false"):
            return lowered == "true"
        if lowered in ("null", "none"):
            return None
        return node.id
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return [python_value(item, source) for item in node.elts]
    if isinstance(node, ast.Dict):
        return {
            (python_value(k, source) if k is not None else ""): python_value(v, source)
            for k, v in zip(node.keys, node.values, strict=True)
        }
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = python_value(node.operand, source)
        if isinstance(inner, int | Decimal) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Constant):
        if isinstance(node.value, float):
            written = ast.get_source_segment(source, node)
            try:
                return Decimal(written.replace("_", "")) if written else Decimal(repr(node.value))
            except ArithmeticError:
                return Decimal(repr(node.value))
        if isinstance(node.value, complex | bytes):
            return ast.get_source_segment(source, node) or repr(node.value)
        return node.value
    return ast.unparse(node)
