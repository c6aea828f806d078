"""``recommend``: the format and protocol to show a model its tools in, with the evidence behind them.

1. Resolve the model (``resolve``) and pick the basis: on the main rule its
   checkpoint row, its anchor row or its family's row; the pooled table otherwise
   (the family tables exist under the main rule only). A local measurement of the
   model, where the evidence store holds one, comes before all of them.
2. Estimate every candidate format (``estimate``) and price its tool block (``costs``).
3. Rank by the objective: accuracy, or accuracy per price unit. A block over the
   token budget, or over half the context window, is ranked last.
4. Name the ties: within 2 points of accuracy, or within 2% of accuracy per price unit.
5. Fold in the catalogue strategy, the guard for third-party tools, the fitted
   surface where the size is known, and a hint to measure.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from toolform.advisor.costs import BlockCost, block_cost
from toolform.advisor.estimate import PROTOCOL_SWITCH_POINTS, Basis, Estimate, estimate
from toolform.advisor.local_basis import local_recommendation
from toolform.advisor.resolve import Resolution, resolve
from toolform.advisor.situation import Situation
from toolform.advisor.strategy import CatalogueAdvice, catalogue_advice
from toolform.advisor.study import FORMAT_LABELS, Study
from toolform.errors import BadRequest
from toolform.evidence import Evidence, Figure
from toolform.evidence.local import LocalStore
from toolform.registry import close_matches

#: Two formats closer than this in expected accuracy (points) are a tie.
ACCURACY_TIE_POINTS = 2.0
#: Two formats closer than this share of accuracy per price unit are a tie.
COST_TIE_SHARE = 0.02
#: Protocols whose main-rule parser repairs a flat argument by re-nesting it.
TEXT_PROTOCOLS = ("xml_call", "nl_intent")


@dataclass
class Ranked:
    """One candidate as ranked: its estimate, its block's cost, its score, and whether it was pushed last."""

    estimate: Estimate
    cost: BlockCost
    score: float
    over_context: bool = False
    over_budget: bool = False

    @property
    def pushed_last(self) -> bool:
        return self.over_context


@dataclass
class Recommendation:
    """A recommended format and protocol, the alternatives, and everything the figures rest on."""

    format_id: str
    format_name: str
    protocol_id: str
    protocol_name: str
    expected_accuracy: float
    interval: tuple[float, float]
    interval_kind: str
    basis: str
    rule: str
    objective: str
    schema_tokens: int | None
    tokens_source: str
    cost_per_request: float | None
    tied_with: list[str]
    alternatives: list[dict[str, Any]]
    catalogue: CatalogueAdvice
    guard: dict[str, Any] | None
    measure_hint: str
    surface: dict[str, Any] | None
    evidence: list[Figure]
    explanation: str
    warnings: list[str]
    resolution: Resolution
    situation: Situation
    evidence_version: str | None
    context_tokens: int | None
    basis_note: str
    summary: str
    local: dict[str, Any] | None = field(default=None)

    def to_dict(self) -> dict[str, Any]:
        """The recommendation as the API returns it (the reference's members, then ours)."""
        out: dict[str, Any] = {
            "format_id": self.format_id,
            "format_name": self.format_name,
            "protocol_id": self.protocol_id,
            "protocol_name": self.protocol_name,
            "expected_accuracy": self.expected_accuracy,
            "interval": list(self.interval),
            "interval_kind": self.interval_kind,
            "basis": self.basis,
            "rule": self.rule,
            "objective": self.objective,
            "schema_tokens": self.schema_tokens,
            "tokens_source": self.tokens_source,
            "cost_per_request": self.cost_per_request,
            "tied_with": list(self.tied_with),
            "alternatives": [dict(a) for a in self.alternatives],
            "catalogue": self.catalogue.to_dict(),
            "guard": self.guard,
            "measure_hint": self.measure_hint,
            "surface": self.surface,
            "evidence": [e.to_dict() for e in self.evidence],
            "explanation": self.explanation,
            "warnings": list(self.warnings),
            "resolution": self.resolution.to_dict(),
            "situation": self.situation.to_dict(),
            "evidence_version": self.evidence_version,
            "context_tokens": self.context_tokens,
            "basis_note": self.basis_note,
            "summary": self.summary,
        }
        if self.local is not None:
            out["local"] = self.local
        return out


def _size_text(value: float) -> str:
    return f"{value:g}"


def _family_note(study: Study, family: str) -> str:
    row = study.families[family]
    count = f"mean of {row.checkpoints} checkpoint{'s' if row.checkpoints != 1 else ''}"
    if row.params is None:
        return count
    low, _, high = row.params.partition("-")
    return f"{count}, {low} to {high}B" if high else f"{count}, {low}B"


def study_basis(study: Study, situation: Situation, resolution: Resolution) -> tuple[Basis, list[str]]:
    """The study's basis for the situation, and the warnings choosing it raised."""
    rule = situation.rule
    pooled = Basis("pooled", None, study.pooled[rule], "paper:tab_main", "pooled", "")
    has_model_rows = (
        resolution.checkpoint is not None
        or resolution.anchor is not None
        or (resolution.family is not None and resolution.family in study.families)
    )
    if rule != "main":
        if has_model_rows:
            return pooled, ["family evidence exists only under the main rule; using the pooled table"]
        return pooled, []
    if resolution.checkpoint is not None:
        checkpoint = study.checkpoints[resolution.checkpoint.casefold()]
        basis = Basis(
            "checkpoint", checkpoint.id, checkpoint.accuracy, "paper:tab_models_full", checkpoint.id,
            "one checkpoint, three seeds of 50 requests per format",
        )
        return basis, []
    if resolution.anchor is not None:
        anchor = resolution.anchor
        basis = Basis(
            "anchor", anchor.label, anchor.accuracy, "paper:tab_models_main", anchor.label,
            "one model, 25 requests per format per seed",
        )
        return basis, []
    if resolution.family is not None:
        if resolution.family in study.families:
            row = study.families[resolution.family]
            basis = Basis(
                "family", row.family, row.accuracy, "paper:tab_models_main", f"{row.label} family",
                f"mean of {row.checkpoints} checkpoint{'s' if row.checkpoints != 1 else ''}",
            )
            return basis, []
        return pooled, [f"no family evidence for {resolution.family}; using the pooled table"]
    return pooled, []


def _candidates(study: Study, situation: Situation) -> list[str]:
    if situation.candidates is None:
        return list(study.core_formats)
    chosen: list[str] = []
    for candidate in situation.candidates:
        if candidate not in study.format_names:
            matches = close_matches(candidate, list(study.format_names))
            hint = f"; close matches: {', '.join(matches)}" if matches else ""
            raise BadRequest(f"situation.candidates: unknown format '{candidate}'{hint}")
        if candidate not in study.core_formats:
            raise BadRequest(
                f"situation.candidates: '{candidate}' is not one of the eight core formats the study's model, count "
                f"and tier tables measured ({', '.join(study.core_formats)}); rank core formats, or measure it with "
                "toolform ab-test"
            )
        if candidate not in chosen:
            chosen.append(candidate)
    return chosen


def _rank(ranked: list[Ranked]) -> list[Ranked]:
    """Best first by score, blocks over half the window last; blocks over the budget are left out.

    When no block fits the budget, only the smallest is kept (and two stages are advised).
    """
    fitting = [r for r in ranked if not r.over_budget]
    if not fitting:
        fitting = [min(ranked, key=lambda r: r.cost.schema_tokens)]
    return sorted(fitting, key=lambda r: (r.over_context, -r.score))


def _ties(top: Ranked, others: list[Ranked], objective: str) -> list[str]:
    tied = []
    for other in others:
        if other.pushed_last != top.pushed_last:
            continue
        if objective == "cost":
            close = other.score >= top.score * (1 - COST_TIE_SHARE)
        else:
            close = round(top.estimate.accuracy, 2) - round(other.estimate.accuracy, 2) <= ACCURACY_TIE_POINTS + 1e-9
        if close:
            tied.append(other.estimate.format_id)
    return tied


def _surface(
    study: Study, format_id: str, params_b: float | None, n_tools: int, tier: int
) -> tuple[dict[str, Any] | None, str | None]:
    if params_b is None or format_id not in study.surface_fits:
        return None, None
    low, high = study.checkpoint_params
    if not low <= params_b <= high:
        return None, (
            f"{_size_text(params_b)}B is outside the open checkpoints the surface was fitted on "
            f"({_size_text(low)} to {_size_text(high)}B); the fitted surface is left out"
        )
    fit = study.surface_fits[format_id]
    complexity = study.surface_complexity[tier]
    value = fit["a"] + fit["b"] * math.log(params_b) - fit["gamma"] * n_tools ** fit["q"] - fit["delta"] * complexity
    predicted = 100.0 / (1.0 + math.exp(-value))
    r2 = study.surface_heldout_r2
    return {
        "format_id": format_id,
        "predicted_accuracy": round(predicted, 2),
        "params_b": params_b,
        "form": study.surface_form,
        "heldout_r2": r2,
        "note": f"held-out R² {r2:g}; shown for extrapolation only",
    }, None


def _measure_hint(study: Study) -> str:
    facts = study.selection_facts
    parts = [facts.get(key) for key in ("measure_eight", "fitted_rule", "always_xml", "always_json")]
    if any(part is None for part in parts):
        return "Measure the formats on your model with toolform ab-test: the study's advice is a prior, not a result."
    eight, fitted, xml, json_default = (float(part["value"]) for part in parts if part is not None)
    return (
        "Measure on the model itself when you can call it (toolform ab-test): in the study, measuring eight formats "
        f"on the target model reached {eight:.2f}%, against {fitted:.2f}% for the fitted rule, {xml:.2f}% for always "
        f"XML and {json_default:.2f}% for always JSON Schema (tab_selection)."
    )


def recommend(
    evidence: Evidence,
    situation: Situation,
    *,
    store: LocalStore | None = None,
    measured_tokens: dict[str, int] | None = None,
    guard: dict[str, Any] | None = None,
) -> Recommendation:
    """Recommend a format and protocol for ``situation`` from the study's evidence (and the local store).

    ``measured_tokens`` holds each format's tool-block tokens rendered from the
    caller's tools (``tokens_source`` "rendered"); without it tokens are scaled
    from the study's cost table. ``guard`` is the guard's advice, folded in as is.
    """
    study = Study(evidence)
    if situation.protocol is not None and situation.protocol not in study.protocol_names:
        matches = close_matches(situation.protocol, list(study.protocol_names))
        hint = f"; close matches: {', '.join(matches)}" if matches else ""
        raise BadRequest(f"situation.protocol: unknown protocol '{situation.protocol}'{hint}")
    candidates = _candidates(study, situation)
    resolution = resolve(study, situation.model, situation.family, situation.params_b)
    basis, basis_warnings = study_basis(study, situation, resolution)
    local, local_warnings = local_recommendation(store, situation, resolution, study)
    if local is not None:
        basis = local.basis
        basis_warnings = []
    context = situation.context_tokens if situation.context_tokens is not None else resolution.context_tokens
    context_from_zoo = situation.context_tokens is None and resolution.context_tokens is not None

    # The warnings in a fixed order: the situation's range, the basis, the tables, the window, the protocol.
    warnings: list[str] = []
    if situation.n_tools > study.counts[-1]:
        warnings.append(
            f"more than {study.counts[-1]} tools is outside the measured range; "
            f"the {study.counts[-1]}-tool value is used"
        )
    tier = min(situation.tier, study.tiers[-1])
    if tier != situation.tier:
        warnings.append(
            f"tier {situation.tier} is outside the measured range {study.tiers[0]} to {study.tiers[-1]}; "
            f"tier {tier} is used"
        )
    warnings.extend(basis_warnings)
    if local is None and situation.rule != "main" and (situation.n_tools != 8 or tier != 3):
        warnings.append(
            f"the tool-count and tier shifts come from main-rule tables and are applied under the "
            f"{situation.rule.replace('_', '-')} rule"
        )

    def estimate_of(format_id: str) -> Estimate:
        return estimate(study, format_id, situation.rule, situation.n_tools, tier, basis, situation.protocol)

    def ranked_of(one: Estimate) -> Ranked:
        tokens = None if measured_tokens is None else measured_tokens.get(one.format_id)
        cost = block_cost(study, one.format_id, one.protocol_id, situation.n_tools, situation.price, tokens)
        # Accuracy per price unit; a protocol the cost table never measured has no price, so its accuracy stands.
        if situation.objective == "cost" and cost.exact_cost:
            score = one.accuracy / cost.exact_cost
        else:
            score = one.accuracy
        return Ranked(
            one, cost, score,
            over_context=context is not None and cost.schema_tokens > context / 2,
            over_budget=situation.token_budget is not None and cost.schema_tokens > situation.token_budget,
        )

    estimates = local.estimates(candidates, situation.protocol) if local is not None else [
        estimate_of(f) for f in candidates
    ]
    if not estimates:
        raise BadRequest("situation.candidates: the local measurement holds none of these formats with this protocol")
    ranked = [ranked_of(one) for one in estimates]
    if local is None and situation.token_budget is not None and all(r.over_budget for r in ranked):
        # Nothing asked for fits: the smallest core block is the one to show names first with.
        smallest = min(study.core_formats, key=lambda f: study.cost_rows[f].schema)
        if smallest not in candidates:
            ranked.append(ranked_of(estimate_of(smallest)))
    order = _rank(ranked)
    top, others = order[0], order[1:]
    tied = _ties(top, others, situation.objective)

    for r in ranked:
        warnings.extend(w for w in r.estimate.warnings if w not in warnings)
        if situation.objective == "cost" and r.cost.cost_per_request is None:
            warnings.append(
                f"the study has no output length for {r.estimate.protocol_id}; "
                f"{r.estimate.format_id} with it has no cost"
            )
    if tier != 3 and situation.n_tools != 8:
        crossed = (
            f"no table crossed the tool count and the tier: tier {tier} was measured at 8 tools and "
            f"{situation.n_tools} tools at tier 3"
        )
        if any(not r.estimate.tier_applied for r in ranked):
            crossed += "; a tier gain is therefore not applied at this count"
        warnings.append(crossed)
    over_budget = [r.estimate.format_id for r in ranked if r.over_budget and r.estimate.format_id in candidates]
    if over_budget and situation.token_budget is not None:
        warnings.append(f"over the token budget of {situation.token_budget:,}: {', '.join(over_budget)}")
        if len(over_budget) == len(candidates):
            if top.over_budget:
                warnings.append("no core format fits the budget; use two-stage disclosure")
            else:
                warnings.append(
                    f"only the {FORMAT_LABELS.get(top.estimate.format_id, top.estimate.format_id)} fits the budget; "
                    "two-stage disclosure keeps full schemas"
                )
    # Only the blocks still ranked (those within the budget) are named for the window.
    over_context = [r.estimate.format_id for r in ranked if r.over_context and r in order]
    if over_context and context is not None:
        note = " (the window is the model zoo's max_model_len)" if context_from_zoo else ""
        listed = ", ".join(over_context)
        warnings.append(f"over half of the {context:,}-token context window: {listed}; ranked last{note}")
    if situation.objective == "cost" and all(r.cost.cost_per_request is None for r in ranked):
        warnings.append("no candidate has a cost in the study's table; ranking by accuracy")
    chosen = top.estimate
    if situation.rule == "main" and chosen.protocol_id in TEXT_PROTOCOLS:
        fact = study.selection_facts.get("renest_overcredit")
        if fact is not None and fact.get("interval"):
            low, high = fact["interval"]
            warnings.append(
                f"{chosen.protocol_id} is a text protocol: under the main rule its parser re-nests a flat argument, "
                f"and a human check judged that repair wrong on {fact['value']}% [{low}, {high}] of the turns it "
                "touched; the symmetric rule applies the same repair to every protocol"
            )
    if basis.kind != "pooled" and situation.protocol is None and local is None:
        cells = study.crossing.get(situation.rule, {}).get(chosen.format_id, {})
        default = chosen.protocol_id
        if cells and default in cells:
            best = max(study.crossing_protocols, key=lambda p: cells.get(p, -1.0))
            if cells[best] - cells[default] > PROTOCOL_SWITCH_POINTS:
                warnings.append(
                    f"the pooled protocol table has {chosen.format_id} {cells[best] - cells[default]:.1f} points "
                    f"higher with {best} than with {default}, but that was not measured on this model, so {default} "
                    f"is kept; pass protocol={best} to use it"
                )
    surface, surface_warning = _surface(study, chosen.format_id, resolution.params_b, situation.n_tools, tier)
    if surface_warning:
        warnings.append(surface_warning)
    warnings.extend(local_warnings)
    if local is not None:
        warnings.extend(local.warnings)

    nothing_fits = situation.token_budget is not None and all(
        r.over_budget for r in ranked if r.estimate.format_id in candidates
    )
    catalogue = catalogue_advice(
        study, situation.n_tools, top.cost.schema_tokens, situation.token_budget, context, nothing_fits
    )
    basis_note = _family_note(study, basis.name) if basis.kind == "family" and basis.name else ""
    if local is not None:
        basis_note = local.note
    alternatives = [
        {
            "format_id": r.estimate.format_id,
            "format_name": study.format_names[r.estimate.format_id],
            "protocol_id": r.estimate.protocol_id,
            "expected_accuracy": round(r.estimate.accuracy, 2),
            "schema_tokens": r.cost.schema_tokens,
            "cost_per_request": r.cost.cost_per_request,
            "score": round(r.score, 6),
        }
        for r in others
    ]
    expected = round(chosen.accuracy, 2)
    interval = chosen.interval
    evidence_items = list(chosen.evidence)
    explanation = _explain(study, situation, tier, basis, chosen, top, tied, catalogue, local is not None)
    summary = (
        f"{chosen.format_id} + {chosen.protocol_id}, {expected:.2f}% expected "
        f"({interval[0]:.2f} to {interval[1]:.2f}), basis {basis.label}"
    )
    return Recommendation(
        format_id=chosen.format_id,
        format_name=study.format_names[chosen.format_id],
        protocol_id=chosen.protocol_id,
        protocol_name=study.protocol_names.get(chosen.protocol_id, chosen.protocol_id),
        expected_accuracy=expected,
        interval=interval,
        interval_kind="evidence_range" if local is None else "wilson95",
        basis=basis.label,
        rule=situation.rule,
        objective=situation.objective,
        schema_tokens=top.cost.schema_tokens,
        tokens_source="study" if measured_tokens is None else "rendered",
        cost_per_request=top.cost.cost_per_request,
        tied_with=tied,
        alternatives=alternatives,
        catalogue=catalogue,
        guard=guard,
        measure_hint=_measure_hint(study),
        surface=surface,
        evidence=evidence_items,
        explanation=explanation,
        warnings=warnings,
        resolution=resolution,
        situation=situation,
        evidence_version=study.version,
        context_tokens=context,
        basis_note=basis_note,
        summary=summary,
        local=None if local is None else local.to_dict(),
    )


def _explain(
    study: Study,
    situation: Situation,
    tier: int,
    basis: Basis,
    chosen: Estimate,
    top: Ranked,
    tied: list[str],
    catalogue: CatalogueAdvice,
    is_local: bool,
) -> str:
    """Our own account of how the figure was reached, step by step."""
    name = FORMAT_LABELS.get(chosen.format_id, chosen.format_id)
    base = basis.accuracy[chosen.format_id]
    if is_local:
        opening = f"This installation measured {basis.subject} itself: {name} scored {base:.2f}% ({basis.source})."
    elif basis.kind == "pooled":
        opening = (
            f"The study's pooled table ({study.pooled_checkpoints} checkpoints, 8 tools, tier 3) has {name} at "
            f"{base:.2f}% under the {situation.rule} rule (tab_main)."
        )
    else:
        opening = f"{basis.subject} at 8 tools and tier 3: {name} scored {base}% under the main rule ({basis.source})."
    steps = []
    if chosen.protocol_cells is not None:
        new, old = chosen.protocol_cells
        steps.append(f"with {chosen.protocol_id} the protocol table has {name} at {new}% against {old}%")
    if chosen.count_value is not None and situation.n_tools != 8:
        steps.append(f"the count table has it at {chosen.count_value:.2f}% for {situation.n_tools} tools")
    if chosen.tier_value is not None and tier != 3:
        applied = "" if chosen.tier_applied else " (a gain measured at 8 tools, so left out here)"
        steps.append(f"the tier table has it at {chosen.tier_value}% for tier {tier}{applied}")
    moved = f" Each table's change from the main grid is added in log-odds: {'; '.join(steps)}." if steps else ""
    low, high = chosen.interval
    text = (
        f"{opening}{moved} Expected: {chosen.accuracy:.2f}% with {chosen.protocol_id}, between {low:.2f} and "
        f"{high:.2f} across the values it rests on; the study measured each factor alone, not this combination."
    )
    text += f" The tool block takes about {top.cost.schema_tokens:,} tokens."
    if tied:
        text += f" Within the tie margin: {', '.join(tied)}."
    return f"{text} {catalogue.reason}"
