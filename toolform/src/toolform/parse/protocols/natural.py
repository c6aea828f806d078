"""The natural-language protocols: nl_intent (the tool named in words, ``name: value`` pairs) and
nl_intent_structured (``Use TOOL with arg = value, arg = value.``), read by rules, not a model."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

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
# A value said in words, as the expression
#   \bwith\s+(?:the\s+)?NAME\s+(.+?)(?=\s+and\s|,|\.\s|\.?\s*$)|(?<![\w.])NAME\s+is\s+(.+?)(?=<the same>)
# finds it (test_parse_linear holds the two to the same answers). The expression tried the stop from each
# character of the value and read a run of spaces again from each of its positions; here where a value may
# stop is found once per text, and each start looks its stop up.
_SPACE_RUN = re.compile(r"\s+")
_PAIR_VALUE = re.compile(rf"\s*{_VALUE}")
# A run of spaces before "and" is a stop at each of its positions; a comma; a full stop before a space.
_SAID_STOPS = re.compile(r"(?<!\s)\s+(?=and\s)|,|\.(?=\s)")
_WITH = re.compile(r"\bwith")


class _IntentText:
    """The runs of spaces of one text, and where a value said in words may stop, read once for all its
    parameters: each value is then found by lookups, not by reading its run of spaces again."""

    def __init__(self, text: str) -> None:
        self.text = text
        size = len(text)
        runs = [match.span() for match in _SPACE_RUN.finditer(text)]
        self._run_starts = [start for start, _ in runs]
        self._run_ends = [end for _, end in runs]
        self._newlines = [match.start() for match in re.finditer("\n", text)]
        # The positions a value may stop at, as sorted spans: the lookahead holds at each of their positions.
        stops = [match.span() for match in _SAID_STOPS.finditer(text)]
        # ``\.?\s*$``: from the last run of spaces (and a full stop before it) to the end.
        trailing = len(text.rstrip())
        stops.append((trailing - 1 if trailing > 0 and text[trailing - 1] == "." else trailing, size + 1))
        self._stop_starts = [start for start, _ in stops]
        self._stop_ends = [end for _, end in stops]
        self._last_kept: dict[int, int | None] = {}
        self._withs = {match.start() for match in _WITH.finditer(text)}

    def _space_end(self, position: int) -> int:
        """The end of the run of spaces at ``position`` (``position`` itself when there is none)."""
        run = bisect.bisect_right(self._run_starts, position) - 1
        return self._run_ends[run] if run >= 0 and self._run_ends[run] > position else position

    def _stop(self, position: int) -> int:
        """The first position at or after ``position`` where a value may stop."""
        stop = bisect.bisect_right(self._stop_ends, position)
        return max(self._stop_starts[stop], position)

    def _line_end(self, position: int) -> int:
        newline = bisect.bisect_left(self._newlines, position)
        return self._newlines[newline] if newline < len(self._newlines) else len(self.text)

    def _starts_value(self, position: int) -> bool:
        """``(.+?)(?=...)`` matches at ``position``: a character other than a newline, then a stop on its line."""
        return (
            position < len(self.text)
            and self.text[position] != "\n"
            and self._stop(position + 1) <= self._line_end(position)
        )

    def after_spaces(self, position: int) -> str | None:
        r"""The value ``\s+(.+?)(?=...)`` reads at ``position``, the run of spaces given back from its end."""
        end = self._space_end(position)
        if end == position:
            return None
        # The whole run, then all but its last space: past them, each start is a space of the run, whose value
        # stops at once when the run's spaces are stops, and at no stop on its line before the last space's.
        start: int | None = end
        if not self._starts_value(end):
            start = end - 1 if end - 1 > position and self._starts_value(end - 1) else None
        if start is None and end - 2 > position and self._stop(end - 1) == end - 1:
            kept = self._last_kept.get(end, -1)
            if kept == -1:
                kept = self._last_not_newline(end - 2)
                self._last_kept[end] = kept
            start = kept if kept is not None and kept > position else None
        return None if start is None else self.text[start : self._stop(start + 1)]

    def _last_not_newline(self, position: int) -> int | None:
        run_start = self._run_starts[bisect.bisect_right(self._run_starts, position) - 1]
        while position >= run_start and self.text[position] == "\n":
            position -= 1
        return position if position >= run_start else None

    def paired(self, name: str) -> str | None:
        r"""The value ``(?<![\w.])NAME`?\s*[:=]\s*(VALUE)`` finds, ignoring case: the first place the name is
        written where, past a backtick, its run of spaces ends at ``:`` or ``=``."""
        text, size = self.text, len(name)
        for match in re.finditer(rf"(?<![\w.])(?={re.escape(name)})", text, re.IGNORECASE):
            after = match.start() + size
            after += text.startswith("`", after)
            colon = self._space_end(after)
            if text.startswith((":", "="), colon):
                value = _PAIR_VALUE.match(text, colon + 1)
                return value.group(1) if value is not None else ""
        return None

    def said(self, name: str) -> str | None:
        """The value said for ``name``, from the first place the expression above matches."""
        text, size = self.text, len(name)
        withs = self._withs
        named = {match.start() for match in re.finditer(rf"(?<![\w.])(?={re.escape(name)})", text)}
        for start in sorted(withs | named):
            if start in withs:
                value = self._with_name(start + 4, name)
                if value is not None:
                    return value
            if start in named:
                before_is = self._space_end(start + size)
                if before_is > start + size and text.startswith("is", before_is):
                    value = self.after_spaces(before_is + 2)
                    if value is not None:
                        return value
        return None

    def _with_name(self, position: int, name: str) -> str | None:
        r"""``\s+(?:the\s+)?NAME\s+(.+?)`` at ``position``, in the order the expression backtracks."""
        for name_at in self._name_places(position, name):
            value = self.after_spaces(name_at + len(name))
            if value is not None:
                return value
        return None

    def _name_places(self, position: int, name: str) -> Iterator[int]:
        text = self.text
        end = self._space_end(position)
        # A name that starts with a letter follows the whole run; one that starts with a space (or is empty)
        # may start at any of its positions, the longest run first.
        first = end if name and not name[0].isspace() else position + 1
        for at in range(end, first - 1, -1) if end > position else ():
            if text.startswith("the", at):
                after_the = at + 3
                the_end = self._space_end(after_the)
                first_after = the_end if name and not name[0].isspace() else after_the + 1
                for name_at in range(the_end, first_after - 1, -1) if the_end > after_the else ():
                    if text.startswith(name, name_at):
                        yield name_at
            if text.startswith(name, at):
                yield at


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
    params = tool.params if tool is not None else []
    intent = _IntentText(text if params else "")
    for param in params:
        # "loan_id: L-5", "loan_id = L-5": a pair, as ``(?<![\w.])NAME`?\s*[:=]\s*VALUE`` finds it, ignoring case.
        pair = intent.paired(param.name)
        if pair is not None:
            texts[param.name] = pair.strip().strip("\"'").rstrip(".").strip()
            continue
        # "with loan_id L-5 and days 3", "loan_id is L-5": the value in words, up to "and", a comma or
        # the sentence's end, as the reference reads an intent.
        said = intent.said(param.name)
        if said is not None:
            texts[param.name] = said.strip()
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
