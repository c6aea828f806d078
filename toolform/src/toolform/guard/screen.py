"""A literal screen in front of a large pattern: text holding none of the words every match needs is not searched.

The guard's largest patterns (TS201's directives, TS202's exfiltration, the
reference's TS105) are alternations of dozens of phrases that the regular
expression engine tries at every position of a sentence; most sentences hold
none of them. ``required_literals`` reads the pattern's parsed form and finds a
set of lowercase strings one of which is in every match (a phrase of each
alternative, the longest it can prove); a sentence whose lowercase form holds
none of them cannot match, and is answered without the search. Only ASCII text
is screened: case-insensitive matching lets a few other letters stand for ASCII
ones (the Kelvin sign for k, the long s for s), which a lowercase test would miss.
"""

from __future__ import annotations

import re
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

#: Items that match no text and leave the literals either side of them adjacent in the match.
_ZERO_WIDTH = {sre.AT}
_REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT)}
#: How many strings an exact set may grow to before it is given up for a shorter one.
_MOST_STRINGS = 24


def _best(candidates: list[frozenset[str]]) -> frozenset[str] | None:
    """Of several sets each of which every match holds one of, the one whose shortest string is longest."""
    useful = [c for c in candidates if "" not in c]
    if not useful:
        return None
    return max(useful, key=lambda c: (min(map(len, c)), -len(c)))


def _exact(op: Any, argument: Any) -> frozenset[str] | None:
    """Every string (lowercase) the item can match, where they are few; None otherwise."""
    if op is sre.LITERAL:
        char = chr(argument)
        if not char.isascii():
            raise _Unscreenable
        return frozenset({char.lower()})
    if op in _ZERO_WIDTH:
        return frozenset({""})
    if op is sre.SUBPATTERN:
        return _exact_sequence(argument[-1])
    if op is sre.BRANCH:
        union: set[str] = set()
        for branch in argument[1]:
            found = _exact_sequence(branch)
            if found is None:
                return None
            union |= found
        return frozenset(union)
    if op in _REPEATS and argument[1] <= 1:
        found = _exact_sequence(argument[2])
        if found is None:
            return None
        return found | {""} if argument[0] == 0 else found
    if op is sre.IN and all(item_op is sre.LITERAL for item_op, _ in argument):
        return frozenset().union(*(_exact(item_op, char) or frozenset() for item_op, char in argument))
    return None


def _exact_sequence(items: Any) -> frozenset[str] | None:
    strings = frozenset({""})
    for op, argument in items:
        found = _exact(op, argument)
        if found is None or len(strings) * len(found) > _MOST_STRINGS:
            return None
        strings = frozenset(a + b for a in strings for b in found)
    return strings


def _sequence(items: Any) -> frozenset[str] | None:
    """Strings one of which every match of the sequence holds, or None where none can be proved.

    Consecutive items whose matches are few strings are joined into the strings their run can match
    (``(?:act|behave) as`` gives ``act as``, ``behave as``); any other item breaks the run, and
    gives a set of its own when it must match at least once.
    """
    candidates: list[frozenset[str]] = []
    run = frozenset({""})
    for op, argument in items:
        found = _exact(op, argument)
        if found is not None and len(run) * len(found) <= _MOST_STRINGS:
            run = frozenset(a + b for a in run for b in found)
            continue
        candidates.append(run)
        run = frozenset({""})
        if found is not None:
            run = found
        elif op is sre.SUBPATTERN:
            candidates.append(_sequence(argument[-1]) or frozenset({""}))
        elif op is sre.BRANCH:
            candidates.append(_alternatives(argument[1]) or frozenset({""}))
        elif op in _REPEATS and argument[0] >= 1:
            candidates.append(_sequence(argument[2]) or frozenset({""}))
    candidates.append(run)
    return _best(candidates)


def _alternatives(branches: Any) -> frozenset[str] | None:
    union: set[str] = set()
    for branch in branches:
        found = _sequence(branch)
        if found is None:
            return None
        union |= found
    return frozenset(union)


class _Unscreenable(Exception):
    pass


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Lowercase strings one of which the lowercase form of every match holds; None where none can be proved."""
    try:
        found = _sequence(sre_parse.parse(pattern.pattern, pattern.flags))
    except _Unscreenable:
        return None
    if found is None:
        return None
    # A string that holds another of the set adds nothing: the text holding it holds the other.
    return frozenset(s for s in found if not any(t != s and t in s for t in found))


class Screened:
    """A compiled pattern whose ``search`` first tests ASCII text for the literals every match holds."""

    __slots__ = ("pattern", "literals")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        literals = required_literals(pattern)
        if literals is None:
            raise ValueError(f"no literal screens the pattern {pattern.pattern[:60]!r}")
        self.pattern = pattern
        self.literals = literals

    def search(self, text: str) -> re.Match[str] | None:
        """``self.pattern.search(text)``: None at once where ASCII text holds none of the literals."""
        # map and any keep the loop over the literals in C: a Python loop over 80 of them cost as much as the search.
        if text.isascii() and not any(map(text.lower().__contains__, self.literals)):
            return None
        return self.pattern.search(text)
