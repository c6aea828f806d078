"""Reading text as the guard does: segments (sentences and clauses) with their offsets, and letters folded.

A segment ends after ``.``, ``!``, ``?`` or ``;`` when whitespace, an invisible
character or the end follows, and at every line break. Offsets are in code points of the
original text, so a finding's ``start``/``end`` slice the text the caller gave.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: Characters a reader does not see that can hide or reorder text, as the
#: reference's TS109 knows them: zero-width marks, bidirectional embeddings,
#: overrides and isolates, and the byte-order mark.
INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
#: Further characters a reader does not see, that the reference lets through
#: (our TS203 catches them): the soft hyphen, the Mongolian vowel separator,
#: the word joiner and invisible operators, the Arabic letter mark, combining grapheme joiner,
#: Hangul and Braille blanks, variation selectors and the Unicode tag block.
MORE_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u180e\u2060-\u2064\u3164\u2800\uffa0\ufe00-\ufe0f"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef]"
)

_BOUNDARY = re.compile(r"[.!?;]+(?=[\s\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|$)|\n")
#: Sentences (for strip, which removes the whole sentence around a finding): no split at ``;``.
_SENTENCE_BOUNDARY = re.compile(r"[.!?]+(?=[\s\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]|$)|\n")


@dataclass(frozen=True)
class Segment:
    """One sentence, clause or line: its text and where it sits in the field's text."""

    text: str
    start: int
    end: int


def _trimmed(text: str, start: int, end: int) -> Segment | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    return Segment(text[start:end], start, end)


def _prose_segments(text: str, start: int, end: int, out: list[Segment], boundary: re.Pattern[str] = _BOUNDARY) -> None:
    cursor = start
    for match in boundary.finditer(text, start, end):
        stop = match.start() if match.group() == "\n" else match.end()
        segment = _trimmed(text, cursor, stop)
        if segment is not None:
            out.append(segment)
        cursor = match.end()
    segment = _trimmed(text, cursor, end)
    if segment is not None:
        out.append(segment)


def segments(text: str) -> list[Segment]:
    """The text's segments in order."""
    out: list[Segment] = []
    _prose_segments(text, 0, len(text), out)
    return out


def sentences(text: str) -> list[Segment]:
    """The text's sentences and lines (segments without the split at ``;``)."""
    out: list[Segment] = []
    _prose_segments(text, 0, len(text), out, _SENTENCE_BOUNDARY)
    return out


#: Cyrillic and Greek letters drawn like Latin ones, folded to the Latin letter.
LOOKALIKES: dict[str, str] = {
    "а": "a",
    "е": "e",
    "о": "o",
    "р": "p",
    "с": "c",
    "у": "y",
    "х": "x",
    "і": "i",
    "ј": "j",
    "ѕ": "s",
    "һ": "h",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "ɡ": "g",
    "ӏ": "l",
    "А": "A",
    "В": "B",
    "Е": "E",
    "К": "K",
    "М": "M",
    "Н": "H",
    "О": "O",
    "Р": "P",
    "С": "C",
    "Т": "T",
    "Х": "X",
    "У": "Y",
    "І": "I",
    "Ј": "J",
    "Ѕ": "S",
    "α": "a",
    "ο": "o",
    "ρ": "p",
    "ν": "v",
    "τ": "t",
    "ι": "i",
    "κ": "k",
    "υ": "u",
    "Α": "A",
    "Β": "B",
    "Ε": "E",
    "Ζ": "Z",
    "Η": "H",
    "Ι": "I",
    "Κ": "K",
    "Μ": "M",
    "Ν": "N",
    "Ο": "O",
    "Ρ": "P",
    "Τ": "T",
    "Υ": "Y",
    "Χ": "X",
}
_FOLD_TABLE = str.maketrans(LOOKALIKES)


def fold_letters(text: str) -> str:
    """Look-alike letters folded to Latin, one for one (offsets unchanged): how the reference's rules read text."""
    return text.translate(_FOLD_TABLE)


def fold(text: str) -> str:
    """The text as our rules read it: look-alike letters folded, every invisible character dropped,
    compatibility forms (fullwidth letters, ligatures) normalised."""
    dropped = MORE_INVISIBLE.sub("", INVISIBLE.sub("", text.translate(_FOLD_TABLE)))
    return unicodedata.normalize("NFKC", dropped)


def script_of(char: str) -> str | None:
    """``latin``, ``cyrillic`` or ``greek`` for a letter of those scripts; None otherwise."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    for script in ("LATIN", "CYRILLIC", "GREEK"):
        if name.startswith(script):
            return script.lower()
    return None
