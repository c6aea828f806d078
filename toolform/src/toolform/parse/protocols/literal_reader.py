"""A small reader for the literal syntaxes of SQL, GraphQL and s-expressions (strings, numbers,
booleans, null, lists and objects), shared by their parsers."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_WORD = re.compile(r"[A-Za-z_][\w.\-]*")
_NOT_SKIPPED = re.compile(r"[^ \t\r\n,]")
#: Inside a string, the characters that end a run of plain text: its quote, and for '"' the escape.
_STRING_STOPS = {'"': re.compile(r'[\\"]'), "'": re.compile("'")}
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}
#: A JSON-style ``\\uXXXX`` escape, and a surrogate pair written as two (an emoji).
_UNICODE = re.compile(r"u([0-9A-Fa-f]{4})(?:\\u([dD][c-fC-F][0-9A-Fa-f]{2}))?")


class LiteralReader:
    """Reads values from ``text`` starting at ``pos``; ``quotes`` are the string delimiters."""

    def __init__(self, text: str, quotes: str = "\"'") -> None:
        self.text = text
        self.pos = 0
        self.quotes = quotes

    def skip(self) -> None:
        found = _NOT_SKIPPED.search(self.text, self.pos)
        self.pos = found.start() if found is not None else max(self.pos, len(self.text))

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos : self.pos + 1]

    def word(self) -> str | None:
        self.skip()
        match = _WORD.match(self.text, self.pos)
        if match is None:
            return None
        self.pos = match.end()
        return match.group(0)

    def expect(self, token: str) -> bool:
        self.skip()
        if self.text.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def string(self) -> str:
        # Runs of plain text are taken whole, up to the next quote or escape; replies hold long strings.
        text = self.text
        quote = text[self.pos]
        stops = _STRING_STOPS.get(quote) or re.compile(re.escape(quote))
        pos = self.pos + 1
        out: list[str] = []
        while True:
            stop = stops.search(text, pos)
            if stop is None:
                self.pos = len(text)
                raise ValueError("unterminated string")
            i = stop.start()
            out.append(text[pos:i])
            if text[i] == "\\" and quote == '"':
                if i + 1 == len(text):
                    self.pos = len(text)
                    raise ValueError("unterminated string")
                escaped = text[i + 1]
                code = _UNICODE.match(text, i + 1) if escaped == "u" else None
                if code is not None:
                    out.append(_unicode(code))
                    pos = code.end()
                    continue
                out.append(_ESCAPED.get(escaped, escaped))
                pos = i + 2
                continue
            # SQL doubles a quote to escape it.
            if quote == "'" and text[i + 1 : i + 2] == "'":
                out.append("'")
                pos = i + 2
                continue
            self.pos = i + 1
            return "".join(out)

    def value(self, list_open: str = "[", list_close: str = "]") -> Any:
        """One value; raises ValueError when there is none."""
        ch = self.peek()
        if not ch:
            raise ValueError("no value")
        if ch in self.quotes:
            return self.string()
        if ch == list_open:
            self.pos += 1
            items = []
            while self.peek() != list_close:
                if not self.peek():
                    raise ValueError("unterminated list")
                items.append(self.value(list_open, list_close))
            self.pos += 1
            return items
        if ch == "{":
            self.pos += 1
            members: dict[str, Any] = {}
            while self.peek() != "}":
                key = self.string() if self.peek() in self.quotes else self.word()
                if key is None or not (self.expect(":") or self.expect("=")):
                    raise ValueError("bad object")
                members[key] = self.value(list_open, list_close)
            self.pos += 1
            return members
        number = _NUMBER.match(self.text, self.pos)
        if number is not None:
            self.pos = number.end()
            literal = number.group(0)
            return Decimal(literal) if any(c in literal for c in ".eE") else int(literal)
        word = self.word()
        if word is None:
            raise ValueError(f"unexpected {ch!r}")
        lowered = word.lower()
        if lowered in ("true", "t"):
            return True
        if lowered in ("false", "nil"):
            return False if lowered == "false" else None
        if lowered in ("null", "none"):
            return None
        return word


def _unicode(code: re.Match[str]) -> str:
    """The character of a ``\\uXXXX`` escape (a pair of surrogates as one character), as JSON reads it."""
    high = int(code.group(1), 16)
    if code.group(2) is not None and 0xD800 <= high <= 0xDBFF:
        return chr(0x10000 + ((high - 0xD800) << 10) + (int(code.group(2), 16) - 0xDC00))
    if code.group(2) is not None:
        # The second escape is no low half of this one: it is read on its own.
        return chr(high) + chr(int(code.group(2), 16))
    return chr(high)
