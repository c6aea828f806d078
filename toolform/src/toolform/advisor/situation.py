"""The situation a recommendation is asked for: every field optional, with the study's defaults."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Literal

from toolform.errors import BadRequest

Objective = Literal["accuracy", "cost"]
Price = Literal["frontier_api", "self_hosted"]
Rule = Literal["main", "symmetric", "as_written"]

OBJECTIVES: tuple[str, ...] = ("accuracy", "cost")
PRICES: tuple[str, ...] = ("frontier_api", "self_hosted")
RULES: tuple[str, ...] = ("main", "symmetric", "as_written")
#: The study's main grid: what a situation means when it says nothing.
DEFAULT_N_TOOLS = 8
DEFAULT_TIER = 3


@dataclass(frozen=True)
class Situation:
    """Who calls tools, how many, how complex, and what matters (accuracy or cost).

    ``model`` is any name (resolved through the zoo); ``family`` a zoo family key;
    ``params_b`` the size in billions; ``token_budget`` the most tokens the tool
    block may take; ``context_tokens`` the model's window; ``protocol`` fixes the
    answer protocol; ``candidates`` limits the formats ranked.
    """

    model: str | None = None
    family: str | None = None
    params_b: float | None = None
    n_tools: int = DEFAULT_N_TOOLS
    tier: int = DEFAULT_TIER
    token_budget: int | None = None
    context_tokens: int | None = None
    objective: str = "accuracy"
    price: str = "frontier_api"
    rule: str = "main"
    protocol: str | None = None
    candidates: tuple[str, ...] | None = None
    third_party_tools: bool = False

    def __post_init__(self) -> None:
        if self.params_b is not None and (
            isinstance(self.params_b, bool) or not math.isfinite(self.params_b) or self.params_b <= 0
        ):
            raise BadRequest(f"situation.params_b: {self.params_b} is not a positive, finite number of billions")
        for name in ("n_tools", "tier", "token_budget", "context_tokens"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise BadRequest(f"situation.{name}: must be a positive integer; got {value!r}")
        for name, allowed in (("objective", OBJECTIVES), ("price", PRICES), ("rule", RULES)):
            if getattr(self, name) not in allowed:
                raise BadRequest(f"situation.{name}: {getattr(self, name)!r} is not one of {', '.join(allowed)}")
        if self.candidates is not None and not self.candidates:
            raise BadRequest("situation.candidates: must be a non-empty list of format ids, or None")

    def to_dict(self) -> dict[str, Any]:
        """The situation with every default filled in, as the recommendation echoes it."""
        out = asdict(self)
        out["candidates"] = None if self.candidates is None else list(self.candidates)
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Situation:
        """A situation from JSON members; absent or null members take the defaults."""
        known = {name for name in cls.__dataclass_fields__}
        unknown = sorted(set(raw) - known)
        if unknown:
            raise BadRequest(f"situation: unknown member(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        values = {k: v for k, v in raw.items() if v is not None}
        if raw.get("candidates") is not None and not raw["candidates"]:
            raise BadRequest("situation.candidates: must be a non-empty list of format ids, or None")
        if "candidates" in values:
            values["candidates"] = tuple(values["candidates"])
        if "params_b" in values and isinstance(values["params_b"], int) and not isinstance(values["params_b"], bool):
            values["params_b"] = float(values["params_b"])
        return cls(**values)
