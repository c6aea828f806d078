"""The Python-call protocols: python_call, python_list_call, bfcl_python_list, python_tag and
bracket_call. ``name(arg=value)`` calls are read with Python's own parser, wherever they stand."""

from __future__ import annotations

import ast
import keyword
import re
from typing import Any

from toolform.parse.literals import balanced_end, python_value
from toolform.parse.protocols.base import Context, Found, found
from toolform.parse.protocols.json_calls import parse_json_anywhere
from toolform.parse.result import RawCall

_CALL_START = re.compile(r"(?<![\w.])([A-Za-z_][\w]*(?:[.\-][A-Za-z_]\w*)*)\(")


def python_calls(text: str, context: Context) -> list[RawCall]:
    """Every outermost ``name(...)`` call that Python parses, left to right."""
    calls: list[RawCall] = []
    i = 0
    while True:
        match = _CALL_START.search(text, i)
        if match is None:
            return calls
        end = balanced_end(text, match.end() - 1)
        if end < 0:
            i = match.end()
            continue
        call = _read_call(match.group(1), text[match.end() - 1 : end], context)
        if call is None:
            i = match.end()
            continue
        calls.append(call)
        i = end


#: An argument named like a Python keyword (``class=``), renamed so that Python's parser reads it.
_KEYWORD_ARGUMENT = re.compile(r"(?<![\w.])(" + "|".join(keyword.kwlist) + r")(\s*=(?!=))")
_RENAMED = "__toolform_keyword_"


def _read_call(name: str, argument_text: str, context: Context) -> RawCall | None:
    source = "f" + _KEYWORD_ARGUMENT.sub(lambda m: _RENAMED + m.group(1) + m.group(2), argument_text)
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    node = tree.body
    if not isinstance(node, ast.Call):
        return None
    arguments: dict[str, Any] = {}
    tool = context.tool(name)
    positional_names = [p.name for p in tool.params] if tool is not None else []
    for position, arg in enumerate(node.args):
        if isinstance(arg, ast.Starred):
            return None
        key = positional_names[position] if position < len(positional_names) else f"arg{position}"
        arguments[key] = python_value(arg, source)
    for given in node.keywords:
        if given.arg is None:
            return None
        arguments[given.arg.removeprefix(_RENAMED)] = python_value(given.value, source)
    return RawCall(name, arguments)


def parse_python(text: str, context: Context) -> Found | None:
    """Python-style calls anywhere in the reply."""
    return found(python_calls(text, context))


_PYTHON_TAG = "<|python_tag|>"
_END_TOKENS = re.compile(r"<\|(?:eom_id|eot_id|end_of_text)\|>")


def parse_python_tag(text: str, context: Context) -> Found | None:
    """The call after ``<|python_tag|>`` (a Python call or Llama's JSON call); without the tag, anywhere."""
    body = text.split(_PYTHON_TAG, 1)[1] if _PYTHON_TAG in text else text
    body = _END_TOKENS.sub("\n", body)
    if found_python := parse_python(body, context):
        return found_python
    # Llama's JSON form is the whole reply after the tag, not JSON inside a sentence.
    return parse_json_anywhere(body, context) if body.strip()[:1] in "{[" else None
