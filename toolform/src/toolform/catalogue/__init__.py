"""Large catalogues: BM25 retrieval, the one-shot / retrieval / two-stage plan, and the two-stage prompt.

Agents with hundreds of tools cannot show them all. ``plan`` says which way to
show a catalogue and why, quoting the study's figures; ``retrieve`` ranks the
tools against a request; ``TwoStage`` writes the names-first selection prompt.
``catalogue_strategy`` is the rule alone, for the advisor.
"""

from toolform.catalogue.bm25 import BM25Index
from toolform.catalogue.fit import Fit, Removal, fit_to_budget
from toolform.catalogue.plan import DEFAULT_FORMAT, CataloguePlan, plan, schema_tokens
from toolform.catalogue.retrieval import (
    DEFAULT_K,
    MAX_CATALOGUE_TOOLS,
    Catalogue,
    Retrieval,
    retrieve,
    tool_document,
)
from toolform.catalogue.strategy import (
    RETRIEVE_FROM,
    TWO_STAGE_FROM,
    Grounds,
    Strategy,
    StrategyChoice,
    catalogue_strategy,
    weigh,
)
from toolform.catalogue.tokens import words
from toolform.catalogue.two_stage import FIRST_STEP, TwoStage, TwoStagePrompt, two_stage_prompt
from toolform.evidence import Figure

__all__ = [
    "DEFAULT_FORMAT",
    "DEFAULT_K",
    "FIRST_STEP",
    "MAX_CATALOGUE_TOOLS",
    "RETRIEVE_FROM",
    "TWO_STAGE_FROM",
    "BM25Index",
    "Catalogue",
    "CataloguePlan",
    "Figure",
    "Fit",
    "Grounds",
    "Removal",
    "Retrieval",
    "Strategy",
    "StrategyChoice",
    "TwoStage",
    "TwoStagePrompt",
    "catalogue_strategy",
    "fit_to_budget",
    "plan",
    "retrieve",
    "schema_tokens",
    "tool_document",
    "two_stage_prompt",
    "weigh",
    "words",
]
