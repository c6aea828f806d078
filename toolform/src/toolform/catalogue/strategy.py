"""Which way to show a catalogue to a model (one shot, retrieval, two stage) and why, with the study's figures.

The rule, found by running the reference: a block over the token budget whose
top k tools for the request fit it, retrieval; else from TWO_STAGE_FROM tools,
two stage; then a block over the budget, or over half the context window, two
stage; from RETRIEVE_FROM tools, retrieval; below, one shot. The advisor's
``recommend`` folds this in through ``catalogue_strategy``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from toolform.catalogue.figures import disclosure_figure, empty_turns_figure, retrieval_figures
from toolform.evidence import Evidence, Figure

Strategy = Literal["one_shot", "retrieve", "two_stage"]

#: From this many tools the one-shot block starts to fill the window: show names first.
TWO_STAGE_FROM = 64
#: From this many tools, retrieve per request; below it, the block fits the window.
RETRIEVE_FROM = 32


@dataclass(frozen=True)
class StrategyChoice:
    """A catalogue strategy, the sentence that says why, and the figures the sentence quotes."""

    strategy: Strategy
    reason: str
    evidence: list[Figure] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {
            "strategy": self.strategy,
            "reason": self.reason,
            "evidence": [figure.to_dict() for figure in self.evidence],
        }


def _disclosure_clause(figure: Figure) -> str:
    """What the names-first figure says, starting lowercase ("at 4 tools, ...")."""
    at = figure.label.rsplit(", ", 1)[1]
    low, high = figure.interval or (figure.value, figure.value)
    if low <= 0.0 <= high:
        return (
            f"{at}, showing names and descriptions first changed accuracy by {figure.value:+.2f}% against one "
            "shot, with an interval that includes zero (tab_disclosure_v2)"
        )
    verb = "gained" if figure.value > 0 else "lost"
    preposition = "over" if figure.value > 0 else "against"
    size = f"{abs(figure.value):.2f}%"
    return f"{at}, showing names and descriptions first {verb} {size} {preposition} one shot (tab_disclosure_v2)"


def _empty_turns(evidence: Evidence, n_tools: int) -> tuple[str, *tuple[Figure, ...]]:
    """The empty-turns sentence and figure at the count nearest ``n_tools``; nothing where the study saw none."""
    empty = empty_turns_figure(evidence, n_tools)
    if empty.value <= 0:
        return ("",)
    at = empty.label.rsplit(" at ", 1)[1]
    return (f" At {at}, {empty.value:.2f}% of one-shot turns returned nothing (tab_count).", empty)


def catalogue_strategy(
    n_tools: int,
    schema_tokens: int,
    context_tokens: int | None = None,
    budget_tokens: int | None = None,
    evidence: Evidence | None = None,
    *,
    retrieved: tuple[int, int] | None = None,
) -> StrategyChoice:
    """The strategy for ``n_tools`` tools whose block takes ``schema_tokens``, in a window of
    ``context_tokens`` with at most ``budget_tokens`` for the block (None: no limit), and why.

    ``retrieved`` is (k, tokens of the top k tools' block) for a request, when there is one:
    a block over the budget whose top k fit it is retrieved. Figures come from ``evidence``
    (the installed study by default), each with its source label.
    """
    if evidence is None:
        from toolform.render.protocols import default_evidence

        evidence = default_evidence()
    disclosure = disclosure_figure(evidence, n_tools)
    over_budget = budget_tokens is not None and schema_tokens > budget_tokens
    if over_budget and retrieved is not None and budget_tokens is not None and retrieved[1] <= budget_tokens:
        k, top_tokens = retrieved
        reason = (
            f"The whole block (about {schema_tokens:,} tokens) is over the budget of {budget_tokens:,}; the top "
            f"{k} tools by BM25 for this request take about {top_tokens:,}, so retrieve them. The gold tool is "
            "not forced in, so a retrieval miss makes a request unanswerable."
        )
        return StrategyChoice("retrieve", reason, [disclosure, *_empty_turns(evidence, n_tools)[1:]])
    why: str | None = None
    if n_tools >= TWO_STAGE_FROM:
        why = f"{n_tools} tools is past the point where the one-shot block starts to fill the window"
    elif budget_tokens is not None and schema_tokens > budget_tokens:
        why = f"the tool block (about {schema_tokens:,} tokens) is over the token budget of {budget_tokens:,}"
    elif context_tokens is not None and 2 * schema_tokens > context_tokens:
        why = (
            f"the tool block (about {schema_tokens:,} tokens) would take more than half of the "
            f"{context_tokens:,}-token context window"
        )
    if why is not None:
        clause = _disclosure_clause(disclosure)
        reason = f"Show the names first, then one schema, because {why}. {clause[0].upper()}{clause[1:]}."
        sentence, *empty = _empty_turns(evidence, n_tools)
        return StrategyChoice("two_stage", reason + sentence, [disclosure, *empty])
    if n_tools >= RETRIEVE_FROM:
        whole, top8 = retrieval_figures(evidence)
        reason = (
            "Retrieve the tools that match each request before showing them: on a 128-tool panel the top 8 by "
            f"BM25 reached {top8.value:.2f}% against {whole.value:.2f}% for the whole panel (tab_count). "
            "Retrieval needs the request text, so it runs per request."
        )
        return StrategyChoice("retrieve", reason, [whole, top8, disclosure])
    reason = (
        f"Show every tool at once; below {RETRIEVE_FROM} tools the block fits the window. For reference, "
        f"{_disclosure_clause(disclosure)}, at the price of a second model call per request."
    )
    return StrategyChoice("one_shot", reason, [disclosure])
