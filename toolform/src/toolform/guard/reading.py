"""What one scan has read, so that it reads each text once.

A catalogue repeats itself: the same parameter description (``The page
number.``), enum value or sentence comes back in tool after tool. What a text
gives that does not depend on the tool it sits in (its segments, its folded
forms, whether a fixed pattern matches it, the catalogue's names it mentions)
is worked out the first time a scan meets the text and looked up after that.
Everything kept is a pure function of the text, so a lookup answers exactly
what the work would; the memo lives for one scan, so memory stays bounded by
the tool set and a call is never faster for having come after another.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from toolform.guard.screen import Screened
from toolform.guard.text import Segment, fold, fold_letters, segments

_Value = TypeVar("_Value")
#: What ``Reading.search`` searches with: a compiled pattern, or one behind a literal screen.
Pattern = re.Pattern[str] | Screened
#: What a memo table answers for a text not read yet (None is an answer: no match).
_UNREAD = object()


class Reading:
    """One scan's memo of what its texts gave."""

    def __init__(self) -> None:
        # Keyed by the pattern's id: hashing a compiled pattern hashes its whole
        # program (tens of microseconds). The pattern is kept beside its table
        # so that its id cannot be reused while this memo lives.
        self._matches: dict[int, tuple[Pattern, dict[str, re.Match[str] | None]]] = {}
        self._segments: dict[str, list[Segment]] = {}
        self._folds: dict[str, str] = {}
        self._letters: dict[str, str] = {}
        self._other: dict[tuple[str, str], object] = {}
        #: A field's outcome by its text, kind and rule set, kept by ``toolform.guard.text_hits``.
        self.texts: dict[tuple[str, str, bool], Any] = {}

    def search(self, pattern: Pattern, text: str) -> re.Match[str] | None:
        """``pattern.search(text)``, once per pattern and text. Only for patterns that live as long as
        the scan (module constants, the catalogue's names)."""
        entry = self._matches.get(id(pattern))
        if entry is None:
            entry = self._matches[id(pattern)] = (pattern, {})
        found = entry[1]
        match = found.get(text, _UNREAD)
        if match is _UNREAD:
            match = found[text] = pattern.search(text)
        return match  # type: ignore[return-value]

    def found(self, pattern: Pattern, text: str) -> bool:
        """Whether ``pattern`` matches anywhere in ``text``."""
        return self.search(pattern, text) is not None

    def segments(self, text: str) -> list[Segment]:
        """``text.segments(text)``; the list is shared, so callers must not change it."""
        found = self._segments.get(text)
        if found is None:
            found = self._segments[text] = segments(text)
        return found

    def fold(self, text: str) -> str:
        """``text.fold(text)``: how our rules read text."""
        found = self._folds.get(text)
        if found is None:
            found = self._folds[text] = fold(text)
        return found

    def fold_letters(self, text: str) -> str:
        """``text.fold_letters(text)``: how the reference's rules read text."""
        found = self._letters.get(text)
        if found is None:
            found = self._letters[text] = fold_letters(text)
        return found

    def once(self, what: str, text: str, work: Callable[[str], _Value]) -> _Value:
        """``work(text)``, once per ``what`` and text; ``work`` must depend on nothing but the text."""
        key = (what, text)
        if key in self._other:
            return self._other[key]  # type: ignore[return-value]
        value = self._other[key] = work(text)
        return value
