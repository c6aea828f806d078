"""A string a regular expression matches, drawn from the expression's parsed form.

``sample_pattern(pattern, rng)`` walks the tree Python's own regex parser builds
(literals, classes, categories, alternations, groups, repeats, back-references)
and writes one string of its language, short repeats preferred. Anchors and
lookarounds write nothing: a lookaround may make a draw miss, which the caller
finds by matching the result and drawing again. A pattern Python cannot parse
raises PatternUnsupported.
"""

from __future__ import annotations

import random
import re
import string

# The parser behind ``re.compile``; ``sre_parse`` is its deprecated alias.
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

#: How many extra repetitions an open-ended repeat (``+``, ``*``, ``{2,}``) draws at most.
_EXTRA_REPEATS = 3
#: A pattern that needs more repetitions than this makes a value no request should carry.
_MOST_REPEATS = 1000
#: What a negated class or ``.`` draws from: printable, no whitespace but the space.
_PRINTABLE = string.ascii_letters + string.digits + "-_.:/@ "
_CATEGORIES: dict[Any, str] = {
    sre_constants.CATEGORY_DIGIT: string.digits,
    sre_constants.CATEGORY_NOT_DIGIT: string.ascii_letters + "-_",
    sre_constants.CATEGORY_WORD: string.ascii_letters + string.digits + "_",
    sre_constants.CATEGORY_NOT_WORD: "-. :/@",
    sre_constants.CATEGORY_SPACE: " ",
    sre_constants.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits,
}


class PatternUnsupported(Exception):
    """The pattern cannot be parsed (or uses a construct this sampler cannot write)."""


def sample_pattern(pattern: str, rng: random.Random) -> str:
    """One string ``re.search(pattern, s)`` finds a match in (most of the time: lookarounds may miss)."""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError) as error:
        raise PatternUnsupported(f"pattern {pattern!r} cannot be parsed: {error}") from None
    groups: dict[int, str] = {}
    ignore_case = bool(parsed.state.flags & re.IGNORECASE)
    out: list[str] = []
    _write(list(parsed), rng, groups, out, ignore_case)
    return "".join(out)


def _write(items: list[tuple[Any, Any]], rng: random.Random, groups: dict[int, str], out: list[str],
           ignore_case: bool) -> None:
    for op, argument in items:
        if op is sre_constants.LITERAL:
            out.append(chr(argument))
        elif op is sre_constants.NOT_LITERAL:
            out.append(rng.choice([c for c in _PRINTABLE if ord(c) != argument]))
        elif op is sre_constants.ANY:
            out.append(rng.choice(_PRINTABLE.replace(" ", "")))
        elif op is sre_constants.IN:
            out.append(_from_class(argument, rng, ignore_case))
        elif op is sre_constants.BRANCH:
            _write(list(rng.choice(argument[1])), rng, groups, out, ignore_case)
        elif op is sre_constants.SUBPATTERN:
            group, _add_flags, _del_flags, body = argument
            start = len(out)
            _write(list(body), rng, groups, out, ignore_case)
            if group is not None:
                groups[group] = "".join(out[start:])
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT, _POSSESSIVE_REPEAT):
            low, high, body = argument
            if low > _MOST_REPEATS:
                raise PatternUnsupported(f"a repeat of at least {low} is longer than a request states")
            top = low + _EXTRA_REPEATS if high is sre_constants.MAXREPEAT or high > low + _EXTRA_REPEATS else high
            # One repetition where the pattern allows it: a required value reads better non-empty.
            count = rng.randint(max(low, min(1, top)), top)
            for _ in range(count):
                _write(list(body), rng, groups, out, ignore_case)
        elif op is sre_constants.GROUPREF:
            out.append(groups.get(argument, ""))
        elif op is _ATOMIC_GROUP:
            _write(list(argument), rng, groups, out, ignore_case)
        elif op in (sre_constants.AT, sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            continue  # anchors and lookarounds write nothing; the caller's match decides
        elif op is sre_constants.GROUPREF_EXISTS:
            group, yes, no = argument
            branch = yes if group in groups else no
            if branch is not None:
                _write(list(branch), rng, groups, out, ignore_case)
        else:
            raise PatternUnsupported(f"the regular expression construct {op} cannot be sampled")


# Python 3.11 on: possessive repeats and atomic groups (absent before, so never matched then).
_POSSESSIVE_REPEAT = getattr(sre_constants, "POSSESSIVE_REPEAT", object())
_ATOMIC_GROUP = getattr(sre_constants, "ATOMIC_GROUP", object())


def _from_class(items: list[tuple[Any, Any]], rng: random.Random, ignore_case: bool) -> str:
    allowed: set[str] = set()
    negate = False
    for op, argument in items:
        if op is sre_constants.NEGATE:
            negate = True
        elif op is sre_constants.LITERAL:
            allowed.add(chr(argument))
        elif op is sre_constants.RANGE:
            low, high = argument
            # A wide range (\u0000-\uffff) is drawn from its printable ASCII part when it has one.
            span = [chr(c) for c in range(low, min(high, low + 4096) + 1)]
            printable = [c for c in span if c in _PRINTABLE and c != " "]
            allowed.update(printable or span[:64])
        elif op is sre_constants.CATEGORY:
            allowed.update(_CATEGORIES.get(argument, string.ascii_letters))
    if negate:
        candidates = [c for c in _PRINTABLE if c not in allowed and not (ignore_case and c.swapcase() in allowed)]
    else:
        candidates = sorted(allowed)
    if not candidates:
        raise PatternUnsupported("a character class nothing printable matches")
    return rng.choice(candidates)
