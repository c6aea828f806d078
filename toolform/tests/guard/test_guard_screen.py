"""The literal screen in front of the guard's large patterns answers exactly what the search answers.

``required_literals`` must find strings one of which every match holds; a
screened pattern must match where, and what, the pattern alone matches. Held on
every screened pattern of the rules over the differential pool's sentences,
their folded and recased forms, seeded splices of them, and each literal set
into random text whole and with a letter dropped.
"""

from __future__ import annotations

import random
import re

import pytest
from toolform.guard import our_rules, reference_rules
from toolform.guard.screen import Screened, required_literals
from toolform.guard.text import fold, fold_letters

from support.guard_generated import pool

_SCREENED = {
    f"{module.__name__.rsplit('.', 1)[1]}.{name}": value
    for module in (our_rules, reference_rules)
    for name, value in vars(module).items()
    if isinstance(value, Screened)
}


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (re.compile(r"\bforget your\b"), {"forget your"}),
        (re.compile(r"\b(?:act|behave) as\b", re.I), {"act as", "behave as"}),
        (re.compile(r"\btakes? precedence\b"), {"take precedence", "takes precedence"}),
        (re.compile(r"[\w.+-]+@[\w-]+"), {"@"}),
        (re.compile(r"(?-i:\b[A-Z]+_(?:KEY|TOKEN)\b)", re.I), {"_key", "_token"}),
        (re.compile(r"\bsend\b.*?\bto\s+https?://|\bquietly\b"), {"http://", "https://", "quietly"}),
        (re.compile(r"IMPORTANT|REQUIRED"), {"important", "required"}),
        (re.compile(r"a?b*"), None),
        (re.compile(r"foo|\w+"), None),
        (re.compile(r"(?=secret)\w+"), None),
        (re.compile("caf\u00e9"), None),
    ],
)
def test_required_literals(pattern: re.Pattern[str], literals: set[str] | None) -> None:
    found = required_literals(pattern)
    assert (None if found is None else set(found)) == literals


def test_a_pattern_no_literal_screens_is_refused() -> None:
    with pytest.raises(ValueError, match="no literal screens"):
        Screened(re.compile(r"\w+\s+\w+"))


def _texts() -> list[str]:
    rng = random.Random(7)
    sentences = pool()
    texts: list[str] = []
    for sentence in sentences:
        texts += [sentence, fold(sentence), fold_letters(sentence), sentence.upper(), sentence.title()]
    for _ in range(3000):
        first, second = rng.sample(sentences, 2)
        cut_first, cut_second = rng.randrange(len(first) + 1), rng.randrange(len(second) + 1)
        texts.append(first[:cut_first] + rng.choice([" ", ". ", "\n", ""]) + second[cut_second:])
    words = [w for s in sentences for w in s.split()]
    for screened in _SCREENED.values():
        for literal in sorted(screened.literals or ()):
            around = " ".join(rng.choices(words, k=rng.randint(0, 6)))
            dropped = rng.randrange(len(literal))
            texts += [f"{around} {literal} {around}", f"{around} {literal[:dropped]}{literal[dropped + 1 :]} {around}"]
    return texts


def test_the_screen_answers_what_the_search_answers() -> None:
    texts = _texts()
    assert len(_SCREENED) >= 10
    matched = 0
    for name, screened in _SCREENED.items():
        for text in texts:
            fast, slow = screened.search(text), screened.pattern.search(text)
            assert (fast and (fast.span(), fast.group())) == (slow and (slow.span(), slow.group())), (name, text)
            matched += slow is not None
    # The texts must hold matches as well as misses, or the comparison proves little.
    assert matched > 1000
