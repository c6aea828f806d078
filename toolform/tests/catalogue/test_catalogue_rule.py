"""One catalogue rule: the advisor's catalogue advice and the catalogue's strategy choose alike, at the
thresholds and on every side of the budget and window checks."""

from __future__ import annotations

import itertools

import pytest
from toolform.advisor.strategy import catalogue_advice
from toolform.advisor.study import Study
from toolform.catalogue import RETRIEVE_FROM, TWO_STAGE_FROM, catalogue_strategy, weigh
from toolform.evidence import Evidence

COUNTS = (1, 2, 7, 8, 16, RETRIEVE_FROM - 1, RETRIEVE_FROM, 33, TWO_STAGE_FROM - 1, TWO_STAGE_FROM, 65, 500, 2000)
TOKENS = (1, 499, 500, 501, 1000, 1001, 40_000)
WINDOWS = (None, 1000, 2000)
BUDGETS = (None, 500, 1000)


@pytest.mark.parametrize(("n_tools", "expected"), [
    (1, "one_shot"), (RETRIEVE_FROM - 1, "one_shot"), (RETRIEVE_FROM, "retrieve"),
    (TWO_STAGE_FROM - 1, "retrieve"), (TWO_STAGE_FROM, "two_stage"), (2000, "two_stage"),
])
def test_the_thresholds(n_tools: int, expected: str) -> None:
    assert weigh(n_tools, 10).strategy == expected


def test_the_limits_turn_any_count_two_stage() -> None:
    assert weigh(4, 501, budget_tokens=500).strategy == "two_stage"
    assert weigh(4, 500, budget_tokens=500).strategy == "one_shot"
    assert weigh(4, 501, context_tokens=1000).strategy == "two_stage"
    assert weigh(4, 500, context_tokens=1000).strategy == "one_shot"
    assert weigh(4, 10, budget_tokens=500, nothing_fits=True).strategy == "two_stage"
    # Without a budget, "nothing fits" means nothing.
    assert weigh(4, 10, nothing_fits=True).strategy == "one_shot"


def test_a_retrieval_that_fits_the_budget_wins_at_any_count() -> None:
    assert weigh(500, 2000, budget_tokens=1000, retrieved_tokens=1000).strategy == "retrieve"
    assert weigh(500, 2000, budget_tokens=1000, retrieved_tokens=1001).strategy == "two_stage"
    assert weigh(4, 900, budget_tokens=1000, retrieved_tokens=100).strategy == "one_shot"


def test_the_advisor_and_the_catalogue_choose_alike(evidence: Evidence) -> None:
    study = Study(evidence)
    for n_tools, tokens, window, budget in itertools.product(COUNTS, TOKENS, WINDOWS, BUDGETS):
        advised = catalogue_advice(study, n_tools, tokens, budget, window).strategy
        chosen = catalogue_strategy(n_tools, tokens, window, budget, evidence).strategy
        assert advised == chosen == weigh(n_tools, tokens, window, budget).strategy, (n_tools, tokens, window, budget)
