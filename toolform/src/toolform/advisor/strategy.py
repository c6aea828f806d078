"""How to show a catalogue, as the advisor words it: the catalogue's rule, with the advisor's sentences.

The rule and its thresholds are toolform.catalogue.strategy's (``weigh``); this
module words the advice the way the reference's recommend does, quoting the
study's figures with their source labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolform.advisor.study import Study
from toolform.catalogue.figures import nearest_count
from toolform.catalogue.strategy import RETRIEVE_FROM, weigh
from toolform.evidence import Figure


@dataclass(frozen=True)
class CatalogueAdvice:
    """The catalogue strategy, why, and the figures behind it."""

    strategy: str
    reason: str
    evidence: list[Figure] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "reason": self.reason, "evidence": [e.to_dict() for e in self.evidence]}


def disclosure_count(study: Study, n_tools: int) -> int:
    """The disclosure experiment's tool count that stands for ``n_tools``."""
    return nearest_count(n_tools, list(study.disclosure))


def _disclosure_item(study: Study, count: int) -> Figure:
    row = study.disclosure[count]
    gain = row["minus_json"]
    interval = gain.get("interval")
    return Figure(
        "paper:tab_disclosure_v2",
        f"names and descriptions first, minus one shot, at {count} tools",
        float(gain["value"]),
        interval=None if interval is None else (float(interval[0]), float(interval[1])),
        note=f"{row['checkpoints']} checkpoints, three seeds",
    )


def _disclosure_sentence(item: Figure, count: int) -> str:
    low, high = item.interval if item.interval is not None else (item.value, item.value)
    if low <= 0 <= high:
        return (
            f"At {count} tools, showing names and descriptions first changed accuracy by {item.value:+.2f}% "
            f"against one shot, with an interval that includes zero (tab_disclosure_v2)"
        )
    verb = "gained" if item.value > 0 else "lost"
    return (
        f"At {count} tools, showing names and descriptions first {verb} {abs(item.value):.2f}% over one shot "
        "(tab_disclosure_v2)"
    )


def catalogue_advice(
    study: Study,
    n_tools: int,
    block_tokens: int,
    token_budget: int | None,
    context_tokens: int | None,
    nothing_fits: bool = False,
) -> CatalogueAdvice:
    """The strategy for ``n_tools`` tools whose chosen block takes ``block_tokens`` tokens.

    ``nothing_fits`` says that no format asked for fitted the token budget.
    """
    count = disclosure_count(study, n_tools)
    disclosure = _disclosure_item(study, count)
    grounds = weigh(n_tools, block_tokens, context_tokens, token_budget, nothing_fits=nothing_fits)
    strategy = grounds.strategy
    empty_count = nearest_count(n_tools, list(study.count_overall))
    empty = float(study.count_overall[empty_count]["empty"])
    empty_item = Figure("paper:tab_count", f"turns with no answer at {empty_count} tools", empty,
                        note="pooled over the eight core formats")
    if strategy == "two_stage" and grounds.many_tools:
        reason = (
            f"Show the names first, then one schema: at {n_tools} tools the one-shot block starts to fill the window. "
            f"{_disclosure_sentence(disclosure, count)}. At {empty_count} tools, {empty:.2f}% of one-shot turns "
            "returned nothing (tab_count)."
        )
        return CatalogueAdvice("two_stage", reason, [disclosure, empty_item])
    items = [disclosure, empty_item] if empty > 0 else [disclosure]
    if strategy == "two_stage" and grounds.over_half_window:
        reason = (
            f"Show the names first, then one schema: the tool block (about {block_tokens:,} tokens) would take more "
            f"than half of the {context_tokens or 0:,}-token context window. {_disclosure_sentence(disclosure, count)}."
        )
        return CatalogueAdvice("two_stage", reason, items)
    if strategy == "two_stage":
        budget = token_budget or 0
        why = (
            f"the tool block (about {block_tokens:,} tokens) is over the token budget of {budget:,}"
            if grounds.over_budget
            else f"none of the formats asked for fits the token budget of {budget:,}"
        )
        reason = f"Show the names first, then one schema: {why}. {_disclosure_sentence(disclosure, count)}."
        return CatalogueAdvice("two_stage", reason, items)
    if strategy == "one_shot":
        reason = (
            f"Show every tool at once: below {RETRIEVE_FROM} tools the block fits the window. For comparison, "
            f"{_disclosure_sentence(disclosure, count)[0].lower()}{_disclosure_sentence(disclosure, count)[1:]}, "
            "at the cost of a second model call per request."
        )
        return CatalogueAdvice("one_shot", reason, [disclosure])
    whole = next(r for r in study.retrieval if str(r["label"]).endswith("shown whole"))
    top = next(r for r in study.retrieval if str(r["label"]) == "top 8, BM25")
    panel = str(whole["label"]).split()[0]
    items = [
        Figure("paper:tab_count", f"{panel}-tool panel shown whole", float(whole["accuracy"]),
                     note="the retrieval baseline"),
        Figure("paper:tab_count", f"top 8 of the {panel}-tool panel by BM25", float(top["accuracy"]),
                     note="the gold tool is not forced in"),
        disclosure,
    ]
    reason = (
        f"Retrieve the tools that match each request before showing them: on a {panel}-tool panel the top 8 by "
        f"BM25 reached {float(top['accuracy']):.2f}% against {float(whole['accuracy']):.2f}% for the whole panel "
        "(tab_count). Retrieval needs the request text, so it runs per request."
    )
    return CatalogueAdvice("retrieve", reason, items)
