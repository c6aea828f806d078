"""A finished measurement written to the local evidence store (decisions section 4)."""

from __future__ import annotations

import os

from toolform.evidence.local import FormatScore, LocalMeasurement, StoredMeasurement, utc_now, write_measurement
from toolform.measure.report import MeasureReport


def local_measurement(report: MeasureReport, job_id: str | None = None) -> LocalMeasurement:
    """The store's record of ``report``: model, endpoint host (never a key), date, fingerprint, rule, seed, scores.

    A format every request of which failed has no score to keep and is left out;
    seed is None for a task set from examples (no seed built it).
    """
    scores = tuple(
        FormatScore(s.format_id, s.protocol_id, n=s.n - s.errors, correct=s.correct,
                    prompt_tokens=s.prompt_tokens, completion_tokens=s.completion_tokens)
        for s in report.scores if s.n > s.errors
    )
    return LocalMeasurement(
        model=report.model, endpoint_host=report.endpoint_host, date=utc_now(),
        toolset_fingerprint=report.toolset_fingerprint, rule=report.rule,
        seed=report.seed if report.source == "generated" else None, formats=scores,
        n_tools=report.n_tools, tier=report.tier, job_id=job_id,
    )


def record_measurement(
    store_dir: str | os.PathLike[str], report: MeasureReport, job_id: str | None = None
) -> StoredMeasurement | None:
    """Write ``report`` to the store at ``store_dir``; None when no format has a request that answered."""
    measurement = local_measurement(report, job_id)
    return write_measurement(store_dir, measurement) if measurement.formats else None
