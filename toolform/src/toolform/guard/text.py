"""Reading text as the guard does: segments (sentences and clauses) with their offsets, and letters folded.

A segment ends after ``.``, ``!``, ``?`` or ``;`` when whitespace, an invisible
character or the end follows, and at every line break; an HTML comment is a
segment of its own, whatever it holds. Offsets are in code points of the
original text, so a finding's ``start``/``end`` slice the text the caller gave.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: Characters a reader does not see that can hide or reorder text: zero-width
#: marks, bidirectional embeddings, overrides and isolates, word joiners, the
#: byte-order mark, the soft hyphen, and the Unicode tag block.
INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\U000e0000-\U000e007f]")

_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_BOUNDARY = re.compile(r"[.!?;]+(?=[\s\u200b-\u200f\u2060\ufeff]|$)|\n")


@dataclass(frozen=True)
class Segment:
    """One sentence, clause, line or HTML comment: its text and where it sits in the field's text."""

    text: str
    start: int
    end: int
    comment: bool = False


def _trimmed(text: str, start: int, end: int, comment: bool = False) -> Segment | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    return Segment(text[start:end], start, end, comment)


def _prose_segments(text: str, start: int, end: int, out: list[Segment]) -> None:
    cursor = start
    for match in _BOUNDARY.finditer(text, start, end):
        stop = match.start() if match.group() == "\n" else match.end()
        segment = _trimmed(text, cursor, stop)
        if segment is not None:
            out.append(segment)
        cursor = match.end()
    segment = _trimmed(text, cursor, end)
    if segment is not None:
        out.append(segment)


def segments(text: str) -> list[Segment]:
    """The text's segments in order; HTML comments apart from the prose around them."""
    out: list[Segment] = []
    cursor = 0
    for match in _COMMENT.finditer(text):
        _prose_segments(text, cursor, match.start(), out)
        out.append(Segment(match.group(), match.start(), match.end(), comment=True))
        cursor = match.end()
    _prose_segments(text, cursor, len(text), out)
    return out


#: Cyrillic and Greek letters drawn like Latin ones, folded to the Latin letter.
LOOKALIKES: dict[str, str] = {
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
    "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ӏ": "l",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "τ": "t", "ι": "i", "κ": "k", "υ": "u",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}
_FOLD_TABLE = str.maketrans(LOOKALIKES)


def fold(text: str) -> str:
    """The text as the rules read it: look-alike letters folded to Latin, invisible characters dropped,
    compatibility forms (fullwidth letters, ligatures) normalised."""
    return unicodedata.normalize("NFKC", INVISIBLE.sub("", text.translate(_FOLD_TABLE)))


def script_of(char: str) -> str | None:
    """``latin``, ``cyrillic`` or ``greek`` for a letter of those scripts; None otherwise."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    for script in ("LATIN", "CYRILLIC", "GREEK"):
        if name.startswith(script):
            return script.lower()
    return None
