"""The natural-language protocols: nl_intent (the tool named in words, ``name: value`` pairs) and
nl_intent_structured (``Use TOOL with arg = value, arg = value.``), read by rules, not a model."""

from __future__ import annotations

import re

from toolform.parse.protocols.base import Context, Found
from toolform.parse.protocols.json_calls import calls_from, json_values
from toolform.parse.result import RawCall

# A lazy group followed by ``\s*`` never ends on a space (the ``\s*`` would take it), so it grows by a run of
# spaces and the character after it at a time (``(?:\s*+\S)*?``), not a character at a time: grown one at a
# time, it read a run of spaces again from each of them.
_FRAME = re.compile(
    r"\bUse\s+`?([A-Za-z_][\w.\-]*)`?(?:\s+with\s+((?:\s*+\S)*?))?\s*(?:\.\s*$|\.\s+|$)",
    re.MULTILINE | re.DOTALL,
)
# The pairs of a frame, ``name = value, name = value``, read in one pass. The expression they are held to
# (test_parse_linear) is
#   (?<![A-Za-z_])([A-Za-z_][\w.\-]*)\s*=\s*("[^"]*"|'[^']*'|(?:\s*+[^,\s])*?)\s*(?=,\s*[A-Za-z_][\w.\-]*\s*=|$)
# which read a name's whole run from each letter in it, and a value up to its comma again from each ``=``
# before that comma. What it finds is decided once per name and once per comma: a name runs to the end of
# its run of name characters whichever letter of the run it starts at; a quoted value is taken when the
# closing quote is followed by spaces and a pair's comma or the end; any other value runs to the first comma,
# taken when that comma starts a pair (or there is none), left when not.
_HEAD = re.compile(r"([A-Za-z_][\w.\-]*+)\s*+(?:(=)\s*+)?")
_PAIR_COMMA = re.compile(r",\s*+[A-Za-z_][\w.\-]*+\s*+=")
_NOT_SPACE = re.compile(r"\S")
_STOPS = {",": re.compile(","), '"': re.compile('"'), "'": re.compile("'")}
_VALUE_RUN = re.compile(r"(?:\s*+[^,\s])*+")


def _past_spaces(text: str, position: int) -> int:
    after = _NOT_SPACE.search(text, position)
    return after.start() if after is not None else len(text)


def _pairs(text: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of ``text``, as ``findall`` of the expression above gives them."""
    found: list[tuple[str, str]] = []
    # The first comma at or after the last value read, and whether it starts a pair: values are read left to
    # right, so each comma is looked at once however many ``=`` come before it.
    comma, comma_starts_pair = -1, False
    position = 0
    while (head := _HEAD.search(text, position)) is not None:
        # A run that fails fails from each of its letters alike; the next name starts after it.
        position = head.end()
        if head.group(2) is None:
            continue
        value_start = head.end()
        if value_start < len(text) and text[value_start] in "\"'":
            closing_quote = _STOPS[text[value_start]].search(text, value_start + 1)
            if closing_quote is not None:
                closing = closing_quote.start()
                after = _past_spaces(text, closing + 1)
                if after == len(text) or _PAIR_COMMA.match(text, after) is not None:
                    found.append((head.group(1), text[value_start : closing + 1]))
                    position = after
                    continue
        if comma < value_start:
            next_comma = _STOPS[","].search(text, value_start)
            comma = next_comma.start() if next_comma is not None else len(text)
            comma_starts_pair = comma == len(text) or _PAIR_COMMA.match(text, comma) is not None
        if comma_starts_pair:
            value = _VALUE_RUN.match(text, value_start)
            found.append((head.group(1), value.group(0) if value is not None else ""))
            position = comma
    return found


def parse_nl_structured(text: str, context: Context) -> Found | None:
    """Each frame sentence; when there is none, the nl_intent rules (the note says ``frame-miss:`` and how)."""
    calls = []
    for match in _FRAME.finditer(text):
        pairs = _pairs((match.group(2) or "").strip().rstrip("."))
        calls.append(context.text_call(match.group(1), {k: v.strip("\"'") for k, v in pairs}))
    if calls:
        return Found(calls)
    fallback = parse_nl_intent(text, context)
    if fallback is not None:
        return Found(fallback.calls, "frame-miss:" + fallback.note)
    return None


def _embedded_json(text: str) -> Found | None:
    values = json_values(text)
    return Found(calls_from(values[0]), "embedded-json") if values else None


_VALUE = r"(\"[^\"]*\"|'[^']*'|[^,;)\n]*)"
_SAID = r"(.+?)(?=\s+and\s|,|\.\s|\.?\s*$)"


def parse_nl_intent(text: str, context: Context) -> Found | None:
    """JSON in the reply when there is some; else the first tool named, with ``name: value`` pairs."""
    embedded = _embedded_json(text)
    if embedded is not None:
        return embedded
    named = _first_tool_named(text, context)
    if named is None:
        return None
    tool = context.tool(named)
    texts: dict[str, str] = {}
    for param in tool.params if tool is not None else []:
        pair = re.search(rf"(?<![\w.]){re.escape(param.name)}`?\s*[:=]\s*{_VALUE}", text, re.IGNORECASE)
        if pair is not None:
            texts[param.name] = pair.group(1).strip().strip("\"'").rstrip(".").strip()
            continue
        # "with loan_id L-5 and days 3", "loan_id is L-5": the value in words, up to "and", a comma or
        # the sentence's end, as the reference reads an intent.
        name = re.escape(param.name)
        said = re.search(rf"\bwith\s+(?:the\s+)?{name}\s+{_SAID}|(?<![\w.]){name}\s+is\s+{_SAID}", text)
        if said is not None:
            texts[param.name] = (said.group(1) or said.group(2)).strip()
    return Found([context.text_call(named, texts)], "rule-based")


_WORD = re.compile(r"[A-Za-z_][\w.\-]*")


def _first_tool_named(text: str, context: Context) -> str | None:
    for match in _WORD.finditer(text):
        word = match.group(0).strip(".-")
        resolved = context.resolver.resolve(word) if "_" in word or word in context.tools.names else None
        if resolved is not None:
            return word
    return None


__all__ = ["RawCall", "parse_nl_intent", "parse_nl_structured"]
