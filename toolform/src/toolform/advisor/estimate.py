"""One format's expected accuracy in a situation: a measured value moved by the study's one-factor tables.

The study measured each factor on its own: models at 8 tools and tier 3, the tool
count at tier 3, the tier at 8 tools, the answer protocol at 8 tools and tier 3.
An estimate starts from the most specific measurement of the model (its checkpoint,
its anchor row, its family, or the pooled table) and adds, in log-odds, each
table's change from the main grid to the situation: protocol, then tool count,
then tier. A tier gain was measured at 8 tools only, so it is not carried to other
counts; a loss is. The interval is the range of every table value the estimate
rests on, with each intermediate step: an honest spread, not a confidence interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from toolform.advisor.study import FORMAT_LABELS, Study
from toolform.evidence import Figure

#: The main grid every table is anchored at.
GRID_N_TOOLS = 8
GRID_TIER = 3
#: The share a measured 0% or 100% is read as, so that a shift stays finite.
CLAMP = 0.005
#: How much better another protocol must be in the crossing table to be taken instead of the default.
PROTOCOL_SWITCH_POINTS = 2.0


def logit(percent: float) -> float:
    """Log-odds of a percentage, held within 0.5% and 99.5%: a perfect score on 25 requests is not certainty."""
    p = min(max(percent / 100.0, CLAMP), 1 - CLAMP)
    return math.log(p / (1 - p))


def from_logit(value: float) -> float:
    """The percentage of a log-odds value."""
    return 100.0 / (1.0 + math.exp(-value))


@dataclass(frozen=True)
class Basis:
    """Where the estimate starts: a row of the study (or a local measurement) and how to name it."""

    kind: str
    name: str | None
    accuracy: dict[str, float]
    source: str
    subject: str
    note: str

    @property
    def label(self) -> str:
        """The basis as the recommendation names it: ``family:qwen3``, ``pooled``, ``local:<file>``."""
        return "pooled" if self.kind == "pooled" else f"{self.kind}:{self.name}"


@dataclass
class Estimate:
    """One format's estimate: the chosen protocol, the figure, its range, its evidence and warnings."""

    format_id: str
    protocol_id: str
    accuracy: float
    values: list[float]
    evidence: list[Figure]
    warnings: list[str] = field(default_factory=list)
    count_value: float | None = None
    tier_value: float | None = None
    tier_applied: bool = True
    protocol_cells: tuple[float, float] | None = None

    @property
    def interval(self) -> tuple[float, float]:
        return (round(min(self.values), 2), round(max(self.values), 2))


def count_accuracy(study: Study, format_id: str, n_tools: int) -> tuple[float, bool]:
    """The count table's accuracy at ``n_tools``: measured, interpolated in log2, or the last count's.

    The flag says whether the value was not itself measured.
    """
    counts = study.counts
    row = study.count_accuracy[format_id]
    if n_tools in counts:
        return row[counts.index(n_tools)], False
    if n_tools >= counts[-1]:
        return row[-1], True
    if n_tools <= counts[0]:
        return row[0], True
    upper = next(i for i, count in enumerate(counts) if count > n_tools)
    low, high = counts[upper - 1], counts[upper]
    share = (math.log2(n_tools) - math.log2(low)) / (math.log2(high) - math.log2(low))
    return row[upper - 1] + (row[upper] - row[upper - 1]) * share, True


def choose_protocol(study: Study, format_id: str, rule: str, basis: Basis, fixed: str | None) -> str:
    """The protocol an estimate uses: the one asked for; on the pooled table the crossing's best; else the default.

    The crossing was measured pooled over checkpoints, so only a pooled estimate takes its best protocol.
    """
    if fixed is not None:
        return fixed
    default = study.default_protocol[format_id]
    if basis.kind != "pooled":
        return default
    cells = study.crossing.get(rule, {}).get(format_id, {})
    best = max(study.crossing_protocols, key=lambda p: cells.get(p, -1.0)) if cells else default
    # A gain inside the tie margin is no reason to leave the format's own protocol.
    return best if cells.get(best, -1.0) - cells.get(default, -1.0) > PROTOCOL_SWITCH_POINTS else default


def estimate(
    study: Study, format_id: str, rule: str, n_tools: int, tier: int, basis: Basis, fixed_protocol: str | None
) -> Estimate:
    """The estimate of one core format under one basis, in the module's order of shifts."""
    name = FORMAT_LABELS.get(format_id, format_id)
    default = study.default_protocol[format_id]
    protocol = choose_protocol(study, format_id, rule, basis, fixed_protocol)
    base = basis.accuracy[format_id]
    pooled = study.pooled[rule][format_id]
    evidence = [
        Figure(basis.source, f"{basis.subject}, {name}, 8 tools, tier 3, main rule", base, note=basis.note),
    ] if basis.kind != "pooled" else []
    evidence.append(
        Figure(
            "paper:tab_main", f"{name}, pooled, 8 tools, tier 3, {rule} rule", pooled,
            note=f"{study.pooled_checkpoints} checkpoints, seeds 0 to 2",
        )
    )
    count_value, interpolated = count_accuracy(study, format_id, n_tools)
    tier_row = study.tier_accuracy[format_id]
    tier_value = tier_row[study.tiers.index(tier)]
    tier_grid = tier_row[study.tiers.index(GRID_TIER)]
    count_grid = study.count_accuracy[format_id][study.counts.index(GRID_N_TOOLS)]
    values = [base, pooled, count_value, tier_value]
    result = Estimate(format_id, protocol, base, values, evidence, count_value=count_value, tier_value=tier_value)
    point = logit(base)

    cells = study.crossing.get(rule, {}).get(format_id, {})
    if protocol in cells:
        values.append(cells[protocol])
    if protocol != default:
        if protocol in cells and default in cells:
            point += logit(cells[protocol]) - logit(cells[default])
            values.append(from_logit(point))
            result.protocol_cells = (cells[protocol], cells[default])
        else:
            result.warnings.append(f"no measurement pairs {format_id} with {protocol}")

    # Each table's shift is also read alone from the measured value, so the range covers every one-factor reading.
    measured = logit(base)
    if n_tools != GRID_N_TOOLS:
        note = f"against {count_grid:.2f} at 8 tools"
        if interpolated:
            note += "; interpolated in log2 between measured counts"
        evidence.append(
            Figure("paper:tab_count_by_format", f"{name} at {n_tools} tools", round(count_value, 4), note=note)
        )
        shift = logit(count_value) - logit(count_grid)
        point += shift
        values.append(from_logit(measured + shift))
    if tier != GRID_TIER:
        gain = logit(tier_value) - logit(tier_grid)
        applied = n_tools == GRID_N_TOOLS or gain <= 0
        note = f"against {tier_grid:.2f} at tier 3, at 8 tools"
        if not applied:
            note += "; the gain is not applied at other tool counts"
        evidence.append(Figure("paper:tab_tier_by_format", f"{name} at tier {tier}", tier_value, note=note))
        result.tier_applied = applied
        if applied:
            point += gain
            values.append(from_logit(measured + gain))
    if protocol in cells:
        evidence.append(
            Figure(
                "paper:tab_protocol", f"{name} with {protocol}, {rule} rule", cells[protocol],
                note=f"{study.crossing_checkpoints} checkpoints, 8 tools, tier 3",
            )
        )
    result.accuracy = from_logit(point)
    values.append(result.accuracy)
    return result
