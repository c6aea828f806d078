"""Parse verdicts against the reference: the corpus of replies sent to its /api/v1/parse and to our SDK.

Every member of the verdict is compared (each call's name, arguments,
resolution, normalised arguments, validation lists, repairs, acceptance; the
reply's strict and lenient flags, matched syntax, compliance, no-call,
hallucinated names, reasoning, note). parse_differences.py names what is set
aside, and why. The corpus (parse_corpus.py) is fixed: about 1,400 replies.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from toolform.errors import ToolFormError
from toolform.loaders import load
from toolform.parse import parse_reply

from support.differential import mismatches
from support.parse_corpus import PROTOCOLS, TOOLS, Case, corpus
from support.parse_differences import DIFFERENCES, adjust
from support.serving import Server
from toolform import jsontext


@cache
def _tools() -> Any:
    return load("openai", TOOLS).toolset


def ours(case: Case) -> tuple[int, Any]:
    """Our SDK's answer as the route would send it: status and JSON."""
    options = case.options
    try:
        reply = parse_reply(
            _tools(),
            case.text,
            case.protocol,
            rule=options.get("rule", "main"),
            validate=options.get("validate", True),
            lenient_fallback=options.get("lenient_fallback", False),
        )
    except ToolFormError as error:
        return error.status, error.to_dict()
    return 200, json.loads(jsontext.dumps(reply.to_dict()))


@pytest.fixture(scope="module")
def verdicts(reference: Server) -> list[tuple[Case, list[str]]]:
    """Each case with its unexplained differences (empty when both agree)."""
    found = []
    for case in corpus():
        reply = reference.post("/api/v1/parse", case.body())
        status, answer = ours(case)
        if status != reply.status:
            found.append((case, [f"status: ours {status}, the reference {reply.status}"]))
            continue
        mine, theirs = adjust(case, answer, reply.json())
        found.append((case, mismatches(mine, theirs)))
    return found


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_verdicts_as_the_reference(verdicts: list[tuple[Case, list[str]]], protocol: str) -> None:
    unexplained = {
        f"{case.name} {case.options or ''}: {case.text[:60]!r}": found
        for case, found in verdicts
        if case.protocol == protocol and found
    }
    assert unexplained == {}


def test_every_named_difference_is_needed(verdicts: list[tuple[Case, list[str]]]) -> None:
    assert verdicts
    assert [d.name for d in DIFFERENCES if d.needed == 0] == []


def test_the_corpus_covers_every_protocol_and_variant() -> None:
    cases = list(corpus())
    assert {c.protocol for c in cases} == set(PROTOCOLS)
    assert len(PROTOCOLS) == 31
    names = {c.name for c in cases}
    for needed in ("fenced", "reasoning_in_front", "wrong_syntax_lenient", "invented_name", "missing_required",
                   "extra_argument", "wrong_type", "enum", "constraint", "several_calls", "no_call"):  # fmt: skip
        assert needed in names
