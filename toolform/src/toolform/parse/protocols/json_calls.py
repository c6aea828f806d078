"""The JSON protocols: json_object, json_array, jsonl_call, code_block_json, native, slot_fill_call,
tool_call_tags, two_step_call and react. Calls are read from JSON anywhere in the reply, in the
shapes providers and models write (``name``/``arguments``, ``function``/``args``, OpenAI's nested
``function``, arguments as JSON text)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolform.parse.literals import FirstSpans, load_jsonish, loaded_spans, values_in
from toolform.parse.protocols.base import Context, Found, as_arguments, found
from toolform.parse.result import RawCall

_NAME_KEYS = ("name", "function", "tool", "tool_name", "function_name", "action")
_ARG_KEYS = ("arguments", "parameters", "args", "params", "input", "action_input", "kwargs")


def call_from(value: Any) -> RawCall | None:
    """One call from a JSON object in any of the common shapes, or None."""
    if not isinstance(value, dict):
        return None
    nested = value.get("function")
    if isinstance(nested, dict):
        return call_from(nested)
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str) and value[k]), None)
    if name is None:
        return None
    raw_args = next((value[k] for k in _ARG_KEYS if k in value), None)
    arguments = as_arguments(raw_args)
    if arguments is None:
        return None
    return RawCall(name, arguments)


def calls_from(value: Any) -> list[RawCall]:
    """Every call in a JSON value: an object, a list of them, or a ``tool_calls`` list."""
    if isinstance(value, list):
        return [c for item in value for c in calls_from(item)]
    if isinstance(value, dict):
        if isinstance(value.get("tool_calls"), list):
            return calls_from(value["tool_calls"])
        single = call_from(value)
        return [single] if single is not None else []
    return []


def json_values(text: str) -> list[Any]:
    """Every JSON value in the reply holding at least one call."""
    return [value for value in values_in(text) if calls_from(value)]


def parse_json_anywhere(text: str, _context: Context) -> Found | None:
    """All the calls of every JSON value in the reply."""
    return found([c for value in json_values(text) for c in calls_from(value)])


def parse_json_object(text: str, _context: Context, single_note: bool = True) -> Found | None:
    """The first JSON value with calls (an array gives all of its calls); later ones are named in the note."""
    values = json_values(text)
    if not values:
        return None
    note = ""
    objects = [v for v in values if isinstance(v, dict)]
    if len(values) > 1 and len(objects) == len(values) and single_note:
        note = (
            f"the reply holds {len(values)} JSON objects one after another; json_object reads the first only. "
            "Ask for one JSON array (json_array) to allow several calls"
        )
    return found(calls_from(values[0]), note)


def parse_first_json(text: str, context: Context) -> Found | None:
    """The first JSON value with calls, with no note on the ones after it (json_array, native)."""
    return parse_json_object(text, context, single_note=False)


def parse_jsonl(text: str, _context: Context) -> Found | None:
    """One call per line; a reply that is not line-shaped is read as JSON anywhere."""
    calls: list[RawCall] = []
    for line in text.splitlines():
        ok, value = load_jsonish(line.strip()) if line.strip()[:1] in "{[" else (False, None)
        if ok:
            calls.extend(calls_from(value))
    return found(calls) or parse_json_anywhere(text, _context)


#: ``<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)``, its body taken a run of spaces and a character at a time (the
#: same shortest body: one can only end after a character that is not a space), so that a run of spaces is
#: read once, not again from each of its positions.
_TOOL_CALL = re.compile(r"<tool_call>\s*((?:\s*+\S)*?)\s*+(?:</tool_call>|\Z)", re.DOTALL | re.IGNORECASE)


def parse_tool_call_tags(text: str, context: Context) -> Found | None:
    """A JSON call inside each <tool_call> element."""
    calls: list[RawCall] = []
    for body in _TOOL_CALL.findall(text):
        for _start, _end, ok, value in loaded_spans(body):
            if ok:
                calls.extend(calls_from(value))
    return found(calls)


_NAME_LINE = re.compile(r"^\s*[`*\"']*([A-Za-z_][\w.\-]*)[`*\"']*\s*$")


def parse_two_step(text: str, context: Context) -> Found | None:
    """Each line holding only a tool name, with the JSON object on the lines after it as its arguments."""
    lines = text.splitlines()
    # The lines after each name are read in place, in the lines joined once: each name's own join (and
    # reading) of the rest would be quadratic in a reply of many names.
    joined = "\n".join(lines)
    starts = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    first_spans = FirstSpans(joined, "{")
    calls: list[RawCall] = []
    for i, line in enumerate(lines):
        match = _NAME_LINE.match(line)
        if match is None or not context.resolver.known(match.group(1)):
            continue
        arguments: dict[str, Any] = {}
        rest = starts[i + 1] if i + 1 < len(lines) else len(joined)
        first = first_spans.first(rest)
        if first is not None:
            start, _end, ok, value = first
            # The object belongs to this name only when no other name line comes before it.
            if ok and isinstance(value, dict) and not _NAME_ONLY.fullmatch(joined, rest, start):
                arguments = {str(k): v for k, v in value.items()}
        calls.append(RawCall(match.group(1), arguments))
    return found(calls)


#: ``_NAME_LINE`` on the text before an object, stripped: one name and nothing else.
_NAME_ONLY = re.compile(r"\s*[`*\"']*([A-Za-z_][\w.\-]*)[`*\"']*\s*")


# Spaces before the keyword are those of its own line: ``\s*`` there would read every blank line after each
# line start again (quadratic in a run of them), and finds the same keyword, only from an earlier start.
_ACTION_HEAD = re.compile(r"^[^\S\n]*Action\s*:", re.MULTILINE | re.IGNORECASE)
_NOT_SPACE = re.compile(r"\S")


def _actions(text: str) -> Iterator[tuple[str, int]]:
    """What ``re.finditer(r"^[^\\S\\n]*Action\\s*:\\s*(.+?)\\s*$", text, re.M | re.I)`` finds, as (group 1,
    end), read once: the expression read a line's run of spaces again from each character before it.

    After the colon and its spaces, the name runs from the first character that is not a space to the last
    one on its line; the match then takes the spaces after it up to the last line break among them (or the
    end of the text). With nothing but spaces to the end, the name is the last character that is not a
    line break (the expression gives one back to its lazy group).
    """
    position = 0
    while True:
        head = _ACTION_HEAD.search(text, position)
        if head is None:
            return
        colon = head.end()
        first = _NOT_SPACE.search(text, colon)
        if first is None:
            last = len(text) - 1
            while last >= colon and text[last] == "\n":
                last -= 1
            if last < colon:
                return  # only line breaks after the colon: no match here, nor anywhere after it
            yield text[last], len(text)
            return
        start = first.start()
        line_end = text.find("\n", start)
        if line_end < 0:
            line_end = len(text)
        # Up to the last character on the line that is not a space (str.isspace is the expression's \s).
        name_end = start + len(text[start:line_end].rstrip())
        following = _NOT_SPACE.search(text, name_end)
        end = len(text) if following is None else text.rfind("\n", name_end, following.start())
        yield text[start:name_end], end
        position = end
_ACTION_INPUT = re.compile(r"^[^\S\n]*Action\s+Input\s*:\s*(.*)", re.MULTILINE | re.IGNORECASE | re.DOTALL)


def parse_react(text: str, _context: Context) -> Found | None:
    """``Action: name`` then ``Action Input: {json}``."""
    calls: list[RawCall] = []
    first_spans = FirstSpans(text, "{")
    given: re.Match[str] | None = None
    searched_from = -1
    for action, action_end in _actions(text):
        name = action.strip("`*\"' ")
        arguments: dict[str, Any] = {}
        # Searched in place from the end of the action line (which ends the text or stands before a line
        # break, so the same input is found as in the text after it), not in a copy of the rest.
        # The inputs are searched for once each: the first one at or after an earlier action's end is the
        # first at or after this one's too, when it starts after it (and none then means none now).
        if searched_from < 0 or (given is not None and given.start() < action_end):
            given = _ACTION_INPUT.search(text, action_end)
            searched_from = action_end
        if given is not None:
            first = first_spans.first(given.start(1))
            if first is not None and first[2] and isinstance(first[3], dict):
                arguments = {str(k): v for k, v in first[3].items()}
        if name:
            calls.append(RawCall(name, arguments))
    return found(calls)
