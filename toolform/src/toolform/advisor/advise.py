"""The advisor's one entry point for the server and the CLI: a situation, optional tools, the stores.

With tools, the tool count and tier default to the tools' own (their summary),
and each core format's block is rendered on them to count its tokens; a guard
advice is folded in when the tools come from someone else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolform.advisor.guard_advice import guard_advice
from toolform.advisor.recommend import Recommendation, recommend
from toolform.advisor.situation import Situation
from toolform.advisor.study import Study
from toolform.conversion import LoadedTools
from toolform.errors import LoaderError
from toolform.evidence import Evidence
from toolform.evidence.local import LocalStore
from toolform.render import compare


def advise(
    evidence: Evidence,
    situation: Situation | Mapping[str, Any] | None = None,
    tools: LoadedTools | None = None,
    store: LocalStore | None = None,
) -> Recommendation:
    """Recommend for ``situation`` (a Situation or its JSON members), on ``tools`` when given.

    Raises LoaderError for an empty tool list, BadRequest for a situation the
    rules refuse, UnknownFormat/UnknownProtocol for ids not in the registry.
    """
    fields: dict[str, Any] = (
        situation.to_dict() if isinstance(situation, Situation) else dict(situation or {})
    )
    measured: dict[str, int] | None = None
    if tools is not None:
        if not len(tools.toolset):
            raise LoaderError("no tools were given; send at least one tool")
        if fields.get("n_tools") is None:
            fields["n_tools"] = len(tools.toolset)
        if fields.get("tier") is None:
            fields["tier"] = tools.summary.tier_estimate
        study = Study(evidence)
        rows = compare(tools.toolset, list(study.core_formats), evidence=evidence).rows
        measured = {str(row["format_id"]): int(str(row["tokens_estimate"])) for row in rows if row.get("error") is None}
    chosen = Situation.from_dict(fields)
    first = recommend(evidence, chosen, store=store, measured_tokens=measured)
    if not chosen.third_party_tools:
        return first
    first.guard = guard_advice(evidence, first.format_id)
    return first
