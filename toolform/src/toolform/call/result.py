"""The call loop as data: each step's reply, its parsed calls and what running them gave."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal

from toolform.call.executed import ExecutedCall

#: Why the loop ended: the first reply of a dry run, a reply with no call (the answer),
#: the step limit, or an error (the endpoint, or the host client) that ``error`` explains.
Stopped = Literal["dry_run", "no_call", "max_steps", "error"]


@dataclass(frozen=True)
class CallStep:
    """One request to the model and what came of its reply."""

    index: int
    reply: str
    parsed: dict[str, Any]
    executed: list[ExecutedCall]
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    latency_s: float
    cost: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "reply": self.reply,
            "parsed": copy.deepcopy(self.parsed),
            "executed": [e.to_dict() for e in self.executed],
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cached_tokens": self.cached_tokens,
            "latency_s": round(self.latency_s, 4),
            "cost": self.cost,
        }


@dataclass
class CallResult:
    """The whole loop: the request, every step, the calls made, why it stopped, and its token cost."""

    request: str
    format_id: str
    protocol_id: str
    rule: str
    steps: list[CallStep] = field(default_factory=list)
    final_text: str = ""
    stopped: Stopped = "error"
    error: str = ""
    recommendation: dict[str, Any] | None = None
    guard: dict[str, Any] | None = None
    #: Where the cost's prices come from (``paper:tab_cost``), empty with no evidence.
    cost_source: str = ""
    #: The executor that ran the calls: ``python``, ``flow``, or empty for a dry run.
    executor: str = ""

    @property
    def calls(self) -> list[ExecutedCall]:
        """The calls that were made (valid ones; a refused call is in its step, not here)."""
        return [e for step in self.steps for e in step.executed if e.validation is None]

    @property
    def prompt_tokens(self) -> int:
        return sum(s.prompt_tokens for s in self.steps)

    @property
    def completion_tokens(self) -> int:
        return sum(s.completion_tokens for s in self.steps)

    @property
    def cost(self) -> float:
        return round(sum(s.cost for s in self.steps), 12)

    def to_dict(self) -> dict[str, Any]:
        """The reference's members, then ours (``executor``, ``cost_source``)."""
        return {
            "request": self.request,
            "final_text": self.final_text,
            "steps": [s.to_dict() for s in self.steps],
            "calls": [{"name": c.name, "arguments": copy.deepcopy(c.arguments)} for c in self.calls],
            "stopped": self.stopped,
            "format_id": self.format_id,
            "protocol_id": self.protocol_id,
            "rule": self.rule,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost": self.cost,
            "recommendation": copy.deepcopy(self.recommendation),
            "guard": copy.deepcopy(self.guard),
            "error": self.error,
            "executor": self.executor,
            "cost_source": self.cost_source,
        }
