"""The reference's parity fixtures for the advisor: advisor_cases.json, 382 situations.

Each situation's recommendation must carry the fixture's format, protocol,
expected accuracy, interval, basis, catalogue strategy, ties, schema tokens and
cost per request (decisions section 2); the explanatory sentences are ours.
"""

from __future__ import annotations

from typing import Any

import pytest
from toolform.advisor import Situation, recommend
from toolform.evidence import Evidence

from support.evidence_files import evidence_json

CASES: list[dict[str, Any]] = evidence_json("advisor_cases")["data"]["cases"]
MEMBERS = (
    "format_id", "protocol_id", "expected_accuracy", "interval", "basis", "catalogue_strategy", "tied_with",
    "schema_tokens", "cost_per_request",
)


def _members(answer: dict[str, Any]) -> dict[str, Any]:
    picked = {name: answer.get(name) for name in MEMBERS if name != "catalogue_strategy"}
    picked["catalogue_strategy"] = answer["catalogue"]["strategy"]
    return picked


def test_there_are_382_cases() -> None:
    assert len(CASES) == 382


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_each_situation_gets_the_fixture_recommendation(evidence: Evidence, case: dict[str, Any]) -> None:
    answer = recommend(evidence, Situation.from_dict(case["situation"])).to_dict()
    expected = {name: case["expected"][name] for name in MEMBERS}
    assert _members(answer) == expected


def test_every_figure_served_carries_a_study_label(evidence: Evidence) -> None:
    for case in CASES[::7]:
        answer = recommend(evidence, Situation.from_dict(case["situation"])).to_dict()
        sources = [item["source"] for item in answer["evidence"] + answer["catalogue"]["evidence"]]
        assert sources and all(source.split(":")[0] in {"paper", "export"} for source in sources)
