"""The XML protocols: xml_call (``<invoke name>``/``<parameter name>``), xml_generic_call
(``<call><tool>``/``<args>`` children) and function_tags (``<function=NAME>``). Parameter values
are text, converted by the tool's schema."""

from __future__ import annotations

import bisect
import html
import re
from typing import Any

from toolform.parse.literals import loaded_spans
from toolform.parse.protocols.base import Context, Found, as_arguments, found
from toolform.parse.result import RawCall

_INVOKE = re.compile(r"<invoke\s+name\s*=\s*[\"']([^\"']*)[\"']\s*>(.*?)(?:</invoke>|\Z)", re.DOTALL)
_PARAMETER = re.compile(r"<parameter\s+name\s*=\s*[\"']([^\"']*)[\"']\s*>(.*?)</parameter>", re.DOTALL)


def _closed_findall(pattern: re.Pattern[str], text: str, close: str) -> list[Any]:
    """``pattern.findall(text)`` for a pattern whose every match ends with ``close``, searched only up to
    the last ``close``: an opening tag after it (which cannot match) is not read to the end of the text."""
    last = text.rfind(close)
    return pattern.findall(text, 0, last + len(close)) if last >= 0 else []


def _last_end(pattern: re.Pattern[str], text: str) -> int:
    """Where the last match of ``pattern`` ends (0 with none): no match of an expression ending with it ends later."""
    end = 0
    for match in pattern.finditer(text):
        end = match.end()
    return end


_NAME_END = re.compile(r"[>\s]")
_NOT_SPACE = re.compile(r"\S")


def _tags(text: str, opening: re.Pattern[str], close: str, to_end: bool) -> list[tuple[str, str]]:
    r"""``re.findall(opening + r"([^>\s]+)\s*>(.*?)" + close_or_end, text, re.DOTALL)``, read in one pass.

    The name runs to the first ``>`` or space, and the tag opens when spaces and a ``>`` follow it; the
    body runs to the first ``close`` (or, with ``to_end``, the text's end). The regular expression
    reads a name from every opening, to the end of the text when no ``>`` follows, which is quadratic
    in a run of openings; here each run is read once, and a body once.
    """
    found: list[tuple[str, str]] = []
    pos = 0
    run: tuple[int, int] = (-1, -1)  # (from, to): no '>' or space in text[from:to], and one at ``to``
    while True:
        head = opening.search(text, pos)
        if head is None:
            return found
        name_start = head.end()
        if not run[0] <= name_start <= run[1]:
            stop = _NAME_END.search(text, name_start)
            run = (name_start, stop.start() if stop is not None else len(text))
        name_end = run[1]
        if name_end == len(text):
            return found  # no later opening has a '>' after its name either
        after = _NOT_SPACE.search(text, name_end)
        if name_end == name_start or after is None or text[after.start()] != ">":
            pos = head.start() + 1
            continue
        body_start = after.start() + 1
        body_end = text.find(close, body_start)
        if body_end < 0:
            if not to_end:
                return found
            found.append((text[name_start:name_end], text[body_start:]))
            return found
        found.append((text[name_start:name_end], text[body_start:body_end]))
        pos = body_end + len(close)


def _text(value: str) -> str:
    return html.unescape(value.strip())


def parse_xml_call(text: str, context: Context) -> Found | None:
    calls = []
    for name, body in _INVOKE.findall(text):
        texts = {key: _text(value) for key, value in _closed_findall(_PARAMETER, body, "</parameter>")}
        calls.append(context.text_call(name.strip(), texts))
    return found(calls)


_CALL = re.compile(r"<call>(.*?)(?:</call>|\Z)", re.DOTALL)
#: ``<tool>\s*(.*?)\s*</tool>`` (or name, tool_name), its body taken a run of spaces and a character at a time, so
#: that a run of spaces is read once; searched only up to the last closing tag (``_last_tool_close``).
_TOOL = re.compile(r"<(?:tool|name|tool_name)>\s*+((?:\s*+\S)*?)\s*+</(?:tool|name|tool_name)>", re.DOTALL)
_TOOL_CLOSE = re.compile(r"</(?:tool|name|tool_name)>")
#: Where ``<(args|arguments|parameters)>(.*?)</\1>`` and ``<([A-Za-z_][\w.\-]*)>(.*?)</\1>`` open; their
#: closings are looked up in an index of the text's closing tags (``_closed_tags``), where the expressions read
#: the rest of the text from each opening that no closing follows.
_ARGS_OPENING = re.compile(r"<(args|arguments|parameters)>")
_CHILD_OPENING = re.compile(r"<([A-Za-z_][\w.\-]*+)>")
_CLOSING_TAG = re.compile(r"</([A-Za-z_][\w.\-]*+)>")


def _closed_tags(text: str, opening: re.Pattern[str], first_only: bool = False) -> list[tuple[str, str]]:
    """Each ``(name, body)`` of a tag that ``opening`` opens and ``</name>`` closes, as ``findall`` reads them."""
    closings: dict[str, list[int]] = {}
    for closing in _CLOSING_TAG.finditer(text):
        closings.setdefault(closing.group(1), []).append(closing.start())
    found: list[tuple[str, str]] = []
    position = 0
    while (tag := opening.search(text, position)) is not None:
        name = tag.group(1)
        ends = closings.get(name, [])
        index = bisect.bisect_left(ends, tag.end())
        if index == len(ends):
            position = tag.start() + 1
            continue
        found.append((name, text[tag.end() : ends[index]]))
        if first_only:
            break
        position = ends[index] + len(name) + 3
    return found


def parse_xml_generic(text: str, context: Context) -> Found | None:
    calls = []
    for body in _CALL.findall(text):
        tool = _TOOL.search(body, 0, _last_end(_TOOL_CLOSE, body))
        if tool is None:
            continue
        args = _closed_tags(body, _ARGS_OPENING, first_only=True)
        texts = {key: _text(value) for key, value in _closed_tags(args[0][1], _CHILD_OPENING)} if args else {}
        calls.append(context.text_call(_text(tool.group(1)), texts))
    return found(calls)


#: Where a ``<function=NAME>`` tag and a ``<parameter=NAME>`` tag open (``_tags`` reads the rest).
_FUNCTION_OPENING = re.compile(r"<function\s*=\s*")
_PARAM_OPENING = re.compile(r"<parameter\s*=\s*")


def parse_function_tags(text: str, context: Context) -> Found | None:
    calls: list[RawCall] = []
    for name, body in _tags(text, _FUNCTION_OPENING, "</function>", to_end=True):
        name = name.strip("\"'")
        params = _tags(body, _PARAM_OPENING, "</parameter>", to_end=False)
        if params:
            # Llama's tags are no XML: an entity in a value stands as written, as the reference reads it.
            calls.append(context.text_call(name, {k.strip("\"'"): v.strip() for k, v in params}))
            continue
        arguments: dict[str, object] = {}
        for _start, _end, ok, value in loaded_spans(body, "{"):
            parsed = as_arguments(value) if ok else None
            if parsed is not None:
                arguments = dict(parsed)
            break
        calls.append(RawCall(name, arguments))
    return found(calls)
