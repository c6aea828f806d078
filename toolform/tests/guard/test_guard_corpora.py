"""Our guard held to its goal on the project's two corpora (data/guard/): injections and benign texts.

Goal: recall of 0.95 or more at medium or above, every plant marked high found
high; no high finding on a benign tool, and findings at medium or above on at
most 5% of them. The reference's figures beside ours come from
scripts/guard_report.py, which runs it; this test needs only our SDK.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from toolform.guard import guard

from support import guard_corpora


def _answer(items: list[guard_corpora.Item], strictness: str = "strict", **options: Any) -> dict[str, Any]:
    report = guard({"source": "openai", "payload": guard_corpora.openai_tools(items)}, strictness=strictness, **options)
    answer: dict[str, Any] = json.loads(json.dumps(report.to_dict()))
    return answer


@pytest.fixture(scope="module")
def scores() -> guard_corpora.Scores:
    return guard_corpora.score(_answer(guard_corpora.injections()), _answer(guard_corpora.benign()))


@pytest.fixture(scope="module")
def standard() -> guard_corpora.Scores:
    return guard_corpora.score(
        _answer(guard_corpora.injections(), "standard"), _answer(guard_corpora.benign(), "standard")
    )


def test_the_goal_holds_at_strictness_standard(standard: guard_corpora.Scores) -> None:
    assert standard.recall_medium >= 0.95, standard.missed
    assert standard.high_plants_high == 1.0, standard.not_high
    assert standard.benign_high == 0, standard.false_positives


def test_the_classes_the_reference_misses_are_planted_and_found_high(standard: guard_corpora.Scores) -> None:
    """Skipped confirmation, shadowing other tools, sending to a host, other tools' arguments: a dozen each."""
    kinds = [p.kind for p in guard_corpora.injections()]
    for kind in ("confirmation", "cross_tool", "send_out", "other_args"):
        assert kinds.count(kind) >= 10, kind
        assert not [label for label in standard.not_high if label.startswith(f"{kind}:")]


def test_strip_removes_every_high_finding_or_says_why_not() -> None:
    answer = _answer(guard_corpora.injections(), "standard", action="strip")
    cleaned = {tool["name"]: json.dumps(tool, ensure_ascii=False) for tool in answer["tools"]}
    reported = {kept["tool"] for kept in answer["kept"]}
    left = [
        (f["tool"], f["text"])
        for f in answer["findings"]
        if f["severity"] == "high"
        and json.dumps(f["text"], ensure_ascii=False)[1:-1] in cleaned[f["tool"]]
        and f["tool"] not in reported
    ]
    assert [f for f in answer["findings"] if f["severity"] == "high"]
    assert left == []


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
