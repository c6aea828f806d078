"""A measurement's result: each format's score with its 95% Wilson interval, and the verdict.

The verdict is ``winner`` when the leader's interval overlaps no other format's,
``no_difference`` when every format scored zero or every interval overlaps the
leader's, and ``inconclusive`` when more than a quarter of the requests failed
(then no winner is named, whatever the scores).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolform.evidence.local import wilson_interval

#: The normal quantile of evidence.local.wilson_interval, for the one-decimal display of the same interval.
_Z = 1.96
#: More than this share of failed requests makes a measurement inconclusive.
INCONCLUSIVE_FAILED_SHARE = 0.25


@dataclass(frozen=True)
class Record:
    """One request of a measurement: what was asked, what came back, how it was graded."""

    format_id: str
    protocol_id: str
    instance_id: str
    request: str
    reply: str
    correct: bool
    error: str
    parse_strict: bool
    hallucinated: bool
    schema_valid: bool
    prompt_tokens: int | None
    completion_tokens: int | None
    truncated: bool
    retries: int
    #: Why it was graded so, in words (the grader's reason, or the transport failure).
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "format_id": self.format_id, "protocol_id": self.protocol_id, "instance_id": self.instance_id,
            "request": self.request, "reply": self.reply, "correct": self.correct, "error": self.error,
            "parse_strict": self.parse_strict, "hallucinated": self.hallucinated, "schema_valid": self.schema_valid,
            "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
            "truncated": self.truncated, "retries": self.retries, "reason": self.reason,
        }


def _percent(part: int, whole: int) -> float:
    return round(100 * part / whole, 2) if whole else 0.0


def interval_text(correct: int, n: int, width: int = 0) -> str:
    """The 95% Wilson interval as ``[low, high]`` in percent to one decimal, right-aligned to ``width``.

    Shown from the unrounded bounds (1 of 2 is [9.5, 90.5]), as the reference shows them; the figures
    served keep two decimals (``wilson_interval``).
    """
    z2 = _Z * _Z
    p = correct / n
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low, high = max(0.0, centre - half) * 100, min(1.0, centre + half) * 100
    return f"[{low:>{width}.1f}, {high:>{width}.1f}]"


def _mean(values: Sequence[int]) -> float:
    return round(sum(values) / len(values), 1) if values else 0.0


@dataclass(frozen=True)
class FormatScore:
    """One format's score over its n requests (a failed request counts in n, never as correct)."""

    format_id: str
    protocol_id: str
    n: int
    correct: int
    parse_strict: float
    hallucinated: float
    schema_valid: float
    prompt_tokens_mean: float
    completion_tokens_mean: float
    errors: int
    truncated: int
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    retries: int = 0

    @property
    def accuracy(self) -> float:
        return _percent(self.correct, self.n)

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.correct, self.n)

    @classmethod
    def of(cls, format_id: str, protocol_id: str, records: Sequence[Record]) -> FormatScore:
        """The score of one format's records; rates other than accuracy are over the requests that answered."""
        answered = [r for r in records if not r.error]
        prompt = [r.prompt_tokens for r in answered if r.prompt_tokens is not None]
        completion = [r.completion_tokens for r in answered if r.completion_tokens is not None]
        return cls(
            format_id=format_id,
            protocol_id=protocol_id,
            n=len(records),
            correct=sum(r.correct for r in records),
            parse_strict=_percent(sum(r.parse_strict for r in answered), len(answered)),
            hallucinated=_percent(sum(r.hallucinated for r in answered), len(answered)),
            schema_valid=_percent(sum(r.schema_valid for r in answered), len(answered)),
            prompt_tokens_mean=_mean(prompt),
            completion_tokens_mean=_mean(completion),
            errors=len(records) - len(answered),
            truncated=sum(r.truncated for r in answered),
            prompt_tokens=sum(prompt) if prompt else None,
            completion_tokens=sum(completion) if completion else None,
            retries=sum(r.retries for r in records),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format_id": self.format_id, "protocol_id": self.protocol_id, "n": self.n, "correct": self.correct,
            "accuracy": self.accuracy, "interval": list(self.interval), "parse_strict": self.parse_strict,
            "hallucinated": self.hallucinated, "schema_valid": self.schema_valid,
            "prompt_tokens_mean": self.prompt_tokens_mean, "completion_tokens_mean": self.completion_tokens_mean,
            "errors": self.errors, "truncated": self.truncated, "retries": self.retries,
        }


@dataclass(frozen=True)
class Verdict:
    """Who won, who cannot be told apart from the leader, and why."""

    verdict: str
    winner: str | None
    winner_protocol: str | None
    tied_with: list[str]
    reason: str


def ranked(scores: Sequence[FormatScore]) -> list[FormatScore]:
    """Scores from the most accurate; equal accuracies keep the order the formats were asked in."""
    return sorted(scores, key=lambda score: -score.accuracy)


def verdict_of(scores: Sequence[FormatScore], errors: int, total: int) -> Verdict:
    """The verdict on ranked ``scores`` with ``errors`` failed requests of ``total``."""
    leader = scores[0]
    low = leader.interval[0]
    overlapping = [s.format_id for s in scores[1:] if s.interval[1] >= low]
    if total and errors / total > INCONCLUSIVE_FAILED_SHARE:
        reason = (f"{errors} of {total} requests failed, more than {INCONCLUSIVE_FAILED_SHARE:.0%}; fix the endpoint "
                  "and measure again.")
        return Verdict("inconclusive", None, None, overlapping, reason)
    if all(s.correct == 0 for s in scores):
        return Verdict("no_difference", None, None, [s.format_id for s in scores[1:]],
                       "every format scored 0%, so nothing tells them apart.")
    if overlapping and len(overlapping) == len(scores) - 1:
        return Verdict("no_difference", None, None, overlapping,
                       "every format's interval overlaps the highest one's; measure more requests to separate them.")
    return Verdict("winner", leader.format_id, leader.protocol_id, overlapping, "")


@dataclass(frozen=True)
class MeasureReport:
    """A finished measurement (``to_dict`` is the job's ``result``)."""

    model: str
    rule: str
    source: str
    n_requests: int
    n_tools: int
    tier: int
    seed: int
    scores: list[FormatScore]
    verdict: Verdict
    errors: int
    total_requests: int
    elapsed_s: float
    records: list[Record] = field(default_factory=list)
    endpoint_host: str = ""
    toolset_fingerprint: str = ""

    @property
    def summary(self) -> str:
        """The verdict in a sentence, then one line per format with its interval."""
        leader = self.scores[0]
        opening = {
            "winner": f"Winner: {leader.format_id} with {leader.protocol_id}.",
            "no_difference": f"No difference measured: {self.verdict.reason}",
            "inconclusive": f"Inconclusive: {self.verdict.reason}",
        }[self.verdict.verdict]
        head = (f"{opening} Highest: {leader.format_id} with {leader.protocol_id}, {leader.accuracy:.2f}% "
                f"{interval_text(leader.correct, leader.n)} on {self.n_requests} requests per format, "
                f"{self.rule} rule.")
        rows = [f"  {s.format_id:<22} {s.protocol_id:<18} {s.accuracy:5.2f}%  "
                f"{interval_text(s.correct, s.n, 5)}" for s in self.scores]
        return "\n".join([head, *rows])

    def to_dict(self, with_records: bool = True) -> dict[str, Any]:
        return {
            "model": self.model, "rule": self.rule, "source": self.source, "n_requests": self.n_requests,
            "n_tools": self.n_tools, "tier": self.tier, "seed": self.seed,
            "scores": [s.to_dict() for s in self.scores],
            "winner": self.verdict.winner, "winner_protocol": self.verdict.winner_protocol,
            "tied_with": list(self.verdict.tied_with), "verdict": self.verdict.verdict,
            "verdict_reason": self.verdict.reason, "errors": self.errors, "total_requests": self.total_requests,
            "elapsed_s": self.elapsed_s, "records": [r.to_dict() for r in self.records] if with_records else [],
            "summary": self.summary,
        }
