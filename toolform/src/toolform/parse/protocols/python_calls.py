"""The Python-call protocols: python_call, python_list_call, bfcl_python_list, python_tag and
bracket_call. ``name(arg=value)`` calls are read with Python's own parser, wherever they stand."""

from __future__ import annotations

import ast
import keyword
import re
from decimal import Decimal
from typing import Any

from toolform.parse.literals import brackets_of, python_value
from toolform.parse.protocols.base import Context, Found, found
from toolform.parse.protocols.json_calls import parse_json_anywhere
from toolform.parse.result import RawCall

#: A name that may be called: dotted or dashed, whole (possessive: a shorter one is followed by a word
#: character, a dot or a dash, never by the parenthesis).
_CALLABLE = re.compile(r"(?<![\w.])[A-Za-z_]\w*+(?:[.\-][A-Za-z_]\w*+)*+")


def _call_start(text: str, position: int) -> tuple[str, int] | None:
    """What ``re.compile(r"(?<![\\w.])([A-Za-z_][\\w]*(?:[.\\-][A-Za-z_]\\w*)*)\\(").search(text, position)``
    finds, as (group 1, end), read once. The expression, before a name not followed by a parenthesis, tried
    again from each dash in it (a-a-a-...: quadratic); every one of those tries ends where the name does, so
    none can match, and the reading goes on after the name.
    """
    while True:
        name = _CALLABLE.search(text, position)
        if name is None:
            return None
        end = name.end()
        if text.startswith("(", end):
            return name.group(0), end + 1
        position = end


def python_calls(text: str, context: Context) -> list[RawCall]:
    """Every outermost ``name(...)`` call that Python parses, left to right."""
    calls: list[RawCall] = []
    brackets = brackets_of(text)
    i = 0
    while True:
        start = _call_start(text, i)
        if start is None:
            return calls
        name, opened = start
        simple = _simple_call(name, text, opened - 1)
        if simple is not None:
            calls.append(simple[0])
            i = simple[1]
            continue
        end = brackets.end(opened - 1)
        if end < 0:
            i = opened
            continue
        call = _read_call(name, text[opened - 1 : end], context)
        if call is None:
            i = opened
            continue
        calls.append(call)
        i = end


#: The commonest calls, read without Python's parser: keyword arguments only, each a double-quoted string
#: with no escape, quote or control character, an integer, a positive decimal fraction, or a constant.
#: ASCII names only; a string stops short of a surrogate, which Python's parser refuses.
_SIMPLE_LITERAL = (
    r'"[^"\\\x00-\x1f\x7f\ud800-\udfff]*"'
    r"|-?(?:0|[1-9][0-9]{0,40})(?:\.[0-9]{1,40})?(?![0-9A-Za-z_.])"
    r"|(?:True|False|None|true|false|null)(?![0-9A-Za-z_])"
)
_SIMPLE_PAIR = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*=[ \t\n]*(" + _SIMPLE_LITERAL + r")")
_SIMPLE_ARGUMENTS = re.compile(
    r"\((?:[ \t\n]*[A-Za-z_][A-Za-z0-9_]*[ \t\n]*=[ \t\n]*(?:" + _SIMPLE_LITERAL + r")[ \t\n]*(?:,|(?=\))))*[ \t\n]*\)"
)
_CONSTANTS: dict[str, Any] = {"True": True, "False": False, "None": None, "true": True, "false": False, "null": None}


def _simple_call(name: str, text: str, start: int) -> tuple[RawCall, int] | None:
    """The call whose arguments open at ``start``, and where they close, when they are of the commonest kind.

    Read as Python's parser and ``python_value`` read them: a string as its text, an
    integer as int, a fraction as the Decimal of its digits, ``true``/``null`` as JSON's.
    A negative fraction (negated in Decimal's context), a repeated or reserved name
    (which Python refuses), and any text where a keyword stands before ``=`` are left
    to the parser.
    """
    match = _SIMPLE_ARGUMENTS.match(text, start)
    if match is None:
        return None
    written = match.group(0)
    if _KEYWORD_ARGUMENT.search(written):
        return None
    arguments: dict[str, Any] = {}
    for key, literal in _SIMPLE_PAIR.findall(written):
        if key in arguments or key == "__debug__":
            return None
        first = literal[0]
        if first == '"':
            arguments[key] = literal[1:-1]
        elif first == "-" or first.isdigit():
            if "." not in literal:
                arguments[key] = int(literal)
            elif first == "-":
                return None
            else:
                arguments[key] = Decimal(literal)
        else:
            arguments[key] = _CONSTANTS[literal]
    return RawCall(name, arguments), match.end()


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
