"""A measurement this installation made, as the basis of a recommendation.

The study is a prior; a measurement of the model itself, under the same rule and
at the situation's tool count and tier, answers the question directly. Its figures
are its own counts (accuracy and 95% Wilson interval), labelled ``local:<file>``,
and only the formats it measured are ranked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolform.advisor.estimate import Basis, Estimate
from toolform.advisor.resolve import Resolution
from toolform.advisor.situation import Situation
from toolform.advisor.study import FORMAT_LABELS, Study
from toolform.evidence import Figure
from toolform.evidence.local import LocalStore, StoredMeasurement


@dataclass(frozen=True)
class LocalBasis:
    """The stored measurement a recommendation rests on, and what using it implies."""

    stored: StoredMeasurement
    basis: Basis
    warnings: list[str]

    @property
    def note(self) -> str:
        m = self.stored.measurement
        return f"measured here on {m.date} at {m.endpoint_host}"

    def estimates(self, candidates: list[str], fixed_protocol: str | None) -> list[Estimate]:
        """One estimate per measured candidate format: the measured accuracy, its Wilson interval as the range."""
        m = self.stored.measurement
        found = []
        for score in m.formats:
            if score.format_id not in candidates:
                continue
            if fixed_protocol is not None and score.protocol_id != fixed_protocol:
                continue
            low, high = score.interval
            label = FORMAT_LABELS.get(score.format_id, score.format_id)
            item = Figure(
                self.stored.source,
                f"{m.model}, {label} with {score.protocol_id}, {m.n_tools or '?'} tools, tier {m.tier or '?'}, "
                f"{m.rule} rule",
                score.accuracy,
                interval=(low, high),
                note=f"{score.correct} of {score.n} correct; measured {m.date} at {m.endpoint_host}, seed {m.seed}",
            )
            found.append(Estimate(score.format_id, score.protocol_id, score.accuracy, [low, high], [item]))
        return found

    def to_dict(self) -> dict[str, Any]:
        m = self.stored.measurement
        return {
            "source": self.stored.source,
            "model": m.model,
            "date": m.date,
            "endpoint_host": m.endpoint_host,
            "rule": m.rule,
            "n_tools": m.n_tools,
            "tier": m.tier,
            "toolset_fingerprint": m.toolset_fingerprint,
            "formats": [s.format_id for s in m.formats],
        }


def _fits(stored: StoredMeasurement, situation: Situation) -> bool:
    m = stored.measurement
    return (m.n_tools is None or m.n_tools == situation.n_tools) and (m.tier is None or m.tier == situation.tier)


def local_recommendation(
    store: LocalStore | None, situation: Situation, resolution: Resolution, study: Study
) -> tuple[LocalBasis | None, list[str]]:
    """The newest stored measurement of the situation's model under its rule that fits its tool count and tier.

    The model is matched by the name asked for, the checkpoint it resolved to, or
    the anchor's label. A measurement at another count or tier is not moved by the
    study's tables; it is named in a warning, and the study is used.
    """
    if store is None:
        return None, []
    names = [situation.model, resolution.checkpoint, resolution.anchor.label if resolution.anchor else None]
    found = store.for_model(*names, rule=situation.rule)
    if not found:
        return None, _under_other_rules(store.for_model(*names), situation)
    core = set(study.core_formats)
    usable = [s for s in found if _fits(s, situation) and any(f.format_id in core for f in s.measurement.formats)]
    if not usable:
        newest = found[0]
        return None, [
            f"a local measurement of this model ({newest.source}) was made at {newest.measurement.n_tools} tools and "
            f"tier {newest.measurement.tier}, not at {situation.n_tools} and {situation.tier}; the study is used. "
            "Measure at this situation's count and tier to rest on it"
        ]
    chosen = usable[0]
    m = chosen.measurement
    accuracy = {score.format_id: score.accuracy for score in m.formats}
    basis = Basis("local", chosen.file, accuracy, chosen.source, m.model, f"measured on {m.date}")
    warnings = [
        f"this recommendation rests on a measurement made here ({chosen.source}), not on the study; "
        f"only the {len(m.formats)} format(s) it measured are ranked"
    ]
    return LocalBasis(chosen, basis, warnings), []


def _under_other_rules(found: list[StoredMeasurement], situation: Situation) -> list[str]:
    """A warning naming the newest measurement of the model graded under another rule, and how to rest on it.

    A recommendation and a measurement each default to their own rule (main and
    symmetric, as the study and the reference do); the warning keeps a fresh
    measurement from being passed over in silence.
    """
    if not found:
        return []
    chosen = next((s for s in found if _fits(s, situation)), found[0])
    m = chosen.measurement
    also = "" if _fits(chosen, situation) else (
        f", and at {m.n_tools} tools and tier {m.tier} rather than {situation.n_tools} and {situation.tier}"
    )
    return [
        f"a local measurement of this model ({chosen.source}, {m.date}) was graded under the {m.rule} rule, not "
        f"the {situation.rule} rule this recommendation uses{also}; the study is used. To rest on the measurement, "
        f"ask with rule {m.rule} (\"rule\": \"{m.rule}\" in the request, --rule {m.rule} on the command line)"
    ]
