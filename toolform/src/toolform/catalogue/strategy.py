"""Which way to show a catalogue to a model (one shot, retrieval, two stage) and why, with the study's figures.

This module owns the rule; the advisor's catalogue advice weighs a situation with
``weigh`` too and words its own reason. The rule: a block over the token budget
whose top k tools for the request fit it, retrieval; else from TWO_STAGE_FROM
tools, two stage; then a block over the budget, or over half the context window,
or a budget no format asked for fits, two stage; from RETRIEVE_FROM tools,
retrieval; below, one shot. The thresholds are where the study's count table
turns (the figures each reason quotes carry their source labels).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from toolform.catalogue.figures import disclosure_figure, empty_turns_figure, retrieval_figures
from toolform.evidence import Evidence, Figure, given_or_installed

Strategy = Literal["one_shot", "retrieve", "two_stage"]

#: From this many tools the one-shot block starts to fill the window: one-shot turns start coming back
#: empty (paper:tab_count) and names first gains the most (paper:tab_disclosure_v2). Show names first.
TWO_STAGE_FROM = 64
#: From this many tools, retrieving the top 8 by BM25 beats showing the whole panel (paper:tab_count);
#: below it, the block fits the window.
RETRIEVE_FROM = 32


@dataclass(frozen=True)
class Grounds:
    """What the rule weighed for one catalogue, and the strategy that follows; each reason is worded from these."""

    n_tools: int
    #: At least TWO_STAGE_FROM tools.
    many_tools: bool
    #: The whole block is over the token budget.
    over_budget: bool
    #: The whole block would take more than half the context window.
    over_half_window: bool
    #: There is a budget and none of the formats asked for fits it.
    nothing_fits: bool
    #: The block is over the budget and the top k tools for the request fit it.
    retrieved_fits: bool

    @property
    def strategy(self) -> Strategy:
        if self.retrieved_fits:
            return "retrieve"
        if self.many_tools or self.over_budget or self.over_half_window or self.nothing_fits:
            return "two_stage"
        return "retrieve" if self.n_tools >= RETRIEVE_FROM else "one_shot"


def weigh(
    n_tools: int,
    block_tokens: int,
    context_tokens: int | None = None,
    budget_tokens: int | None = None,
    *,
    nothing_fits: bool = False,
    retrieved_tokens: int | None = None,
) -> Grounds:
    """The grounds for ``n_tools`` tools whose block takes ``block_tokens``, in a window of ``context_tokens``
    with at most ``budget_tokens`` for the block (None: no limit).

    ``nothing_fits`` says no format asked for fits the budget (it counts only with a budget);
    ``retrieved_tokens`` is the size of the top k tools' block for a request, when there is one.
    """
    over_budget = budget_tokens is not None and block_tokens > budget_tokens
    return Grounds(
        n_tools=n_tools,
        many_tools=n_tools >= TWO_STAGE_FROM,
        over_budget=over_budget,
        over_half_window=context_tokens is not None and 2 * block_tokens > context_tokens,
        nothing_fits=nothing_fits and budget_tokens is not None,
        retrieved_fits=(
            over_budget and retrieved_tokens is not None and budget_tokens is not None
            and retrieved_tokens <= budget_tokens
        ),
    )


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
    evidence = given_or_installed(evidence)
    disclosure = disclosure_figure(evidence, n_tools)
    grounds = weigh(
        n_tools, schema_tokens, context_tokens, budget_tokens,
        retrieved_tokens=None if retrieved is None else retrieved[1],
    )
    strategy = grounds.strategy
    if grounds.retrieved_fits and retrieved is not None and budget_tokens is not None:
        k, top_tokens = retrieved
        reason = (
            f"The whole block (about {schema_tokens:,} tokens) is over the budget of {budget_tokens:,}; the top "
            f"{k} tools by BM25 for this request take about {top_tokens:,}, so retrieve them. The gold tool is "
            "not forced in, so a retrieval miss makes a request unanswerable."
        )
        return StrategyChoice("retrieve", reason, [disclosure, *_empty_turns(evidence, n_tools)[1:]])
    if strategy == "two_stage":
        if grounds.many_tools:
            why = f"{n_tools} tools is past the point where the one-shot block starts to fill the window"
        elif grounds.over_budget and budget_tokens is not None:
            why = f"the tool block (about {schema_tokens:,} tokens) is over the token budget of {budget_tokens:,}"
        else:
            why = (
                f"the tool block (about {schema_tokens:,} tokens) would take more than half of the "
                f"{context_tokens or 0:,}-token context window"
            )
        clause = _disclosure_clause(disclosure)
        reason = f"Show the names first, then one schema, because {why}. {clause[0].upper()}{clause[1:]}."
        sentence, *empty = _empty_turns(evidence, n_tools)
        return StrategyChoice("two_stage", reason + sentence, [disclosure, *empty])
    if strategy == "retrieve":
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
