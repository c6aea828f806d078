"""A step's cost in the study's relative price units (``cost.json``'s ``prices``, per million tokens).

The call loop prices its requests as a frontier API does (the study's
``frontier_api`` prices: cached prompt tokens cheaper than the rest); without
the evidence, there is no price and the cost is zero, said so by ``source``.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolform.errors import EvidenceUnavailable, UnknownEvidence
from toolform.evidence import Evidence

PRICE = "frontier_api"
SOURCE = "paper:tab_cost"


@dataclass(frozen=True)
class Prices:
    """Relative units per million tokens; ``source`` is empty when the evidence gave none."""

    input_per_m: float
    cached_input_per_m: float
    output_per_m: float
    source: str

    def cost(self, prompt_tokens: int, completion_tokens: int, cached_tokens: int) -> float:
        """The price of one request; cached tokens are part of the prompt tokens."""
        cached = min(cached_tokens, prompt_tokens)
        units = (
            (prompt_tokens - cached) * self.input_per_m
            + cached * self.cached_input_per_m
            + completion_tokens * self.output_per_m
        )
        return round(units / 1_000_000, 12)


NO_PRICES = Prices(0.0, 0.0, 0.0, "")


def prices(evidence: Evidence, price: str = PRICE) -> Prices:
    """The study's prices for ``price``, or zero prices when the evidence is missing."""
    try:
        data = evidence.data("cost")
    except (EvidenceUnavailable, UnknownEvidence):
        return NO_PRICES
    table = data.get("prices", {}) if isinstance(data, dict) else {}
    entry = table.get(price) if isinstance(table, dict) else None
    if not isinstance(entry, dict):
        return NO_PRICES
    return Prices(
        input_per_m=float(entry.get("input_per_m", 0)),
        cached_input_per_m=float(entry.get("cached_input_per_m", 0)),
        output_per_m=float(entry.get("output_per_m", 0)),
        source=SOURCE,
    )
