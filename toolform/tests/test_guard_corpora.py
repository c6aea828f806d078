"""Our guard held to its goal on the project's two corpora (data/guard/): injections and benign texts.

Goal: recall of 0.95 or more at medium or above, every plant marked high found
high; no high finding on a benign tool, and findings at medium or above on at
most 5% of them. The reference's figures beside ours come from
scripts/guard_report.py, which runs it; this test needs only our SDK.
"""

from __future__ import annotations

import json
from typing import Any

import guard_corpora
import pytest
from toolform.guard import guard


def _answer(items: list[guard_corpora.Item]) -> dict[str, Any]:
    report = guard({"source": "openai", "payload": guard_corpora.openai_tools(items)}, strictness="strict")
    answer: dict[str, Any] = json.loads(json.dumps(report.to_dict()))
    return answer


@pytest.fixture(scope="module")
def scores() -> guard_corpora.Scores:
    return guard_corpora.score(_answer(guard_corpora.injections()), _answer(guard_corpora.benign()))


def test_the_corpora_are_as_large_as_promised() -> None:
    plants, texts = guard_corpora.injections(), guard_corpora.benign()
    assert len(plants) >= 150 and len(texts) >= 200
    kinds = {p.kind for p in plants}
    assert {"hidden", "other_tools", "exfiltration", "invisible", "encoded", "schema"} <= kinds
    assert {p.where for p in plants} == {"description", "param", "enum", "default"}


def test_recall_at_medium_or_above(scores: guard_corpora.Scores) -> None:
    assert scores.recall_medium >= 0.95, scores.missed


def test_every_high_plant_is_found_high(scores: guard_corpora.Scores) -> None:
    assert scores.high_plants_high == 1.0, scores.not_high


def test_no_benign_tool_has_a_high_finding(scores: guard_corpora.Scores) -> None:
    assert scores.benign_high == 0, scores.false_positives


def test_findings_on_at_most_five_percent_of_benign_tools(scores: guard_corpora.Scores) -> None:
    assert scores.benign_flagged <= 0.05, scores.false_positives


def test_the_reference_rules_alone_miss_plants() -> None:
    """The corpora are not written so that the reference's rules already catch everything."""
    answer = json.loads(
        json.dumps(
            guard(
                {"source": "openai", "payload": guard_corpora.openai_tools(guard_corpora.injections())},
                strictness="strict",
                reference_only=True,
            ).to_dict()
        )
    )
    worst = guard_corpora.worst_by_tool(answer)
    found = sum(1 for i in range(len(guard_corpora.injections())) if worst.get(guard_corpora.tool_name(i), 0) >= 2)
    assert found < len(guard_corpora.injections())
