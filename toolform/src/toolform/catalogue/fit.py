"""Shrinking a catalogue's block to a token budget, as the reference's ``catalogue --fit`` does.

With a request, the tools it ranks lowest by BM25 go first, down to one.
Without one, first the optional parameters' descriptions go, the longest first (at equal
length, by tool name then parameter name, from Z to A, as the reference orders
them); required parameters keep theirs. Then tools are
dropped from the end of the list, down to one. Each step stops as soon as the
block fits, and each removal is recorded with the tokens it saved (the whole
block re-estimated, so savings carry the estimate's rounding).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from toolform.catalogue.plan import DEFAULT_FORMAT, schema_tokens
from toolform.catalogue.toolsets import as_toolset
from toolform.errors import BadRequest
from toolform.evidence import Evidence, given_or_installed
from toolform.ir import ToolSet

DESCRIPTION_REMOVED = "optional parameter description removed"
TOOL_DROPPED = "dropped from the end of the list to fit the budget"
LOWEST_RANKED = "lowest BM25 score for the query"


@dataclass(frozen=True)
class Removal:
    """One thing fitting removed: a parameter's description (``param`` set) or a whole tool."""

    tool: str
    reason: str
    tokens: int
    param: str | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"tool": self.tool}
        if self.param is not None:
            out["param"] = self.param
        out["reason"] = self.reason
        out["tokens"] = self.tokens
        return out


@dataclass(frozen=True)
class Fit:
    """The tools reduced to a budget: sizes before and after, what went, the steps, and whether it fits."""

    format_id: str
    budget_tokens: int
    tokens_before: int
    tokens_after: int
    toolset: ToolSet
    dropped: list[Removal] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)

    @property
    def fits(self) -> bool:
        return self.tokens_after <= self.budget_tokens

    @property
    def kept(self) -> list[str]:
        return self.toolset.names

    def to_dict(self) -> dict[str, object]:
        return {
            "format_id": self.format_id,
            "budget_tokens": self.budget_tokens,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "kept": self.kept,
            "dropped": [removal.to_dict() for removal in self.dropped],
            "steps": list(self.steps),
            "fits": self.fits,
            "tools": self.kept,
        }


def fit_to_budget(
    tools: object,
    budget_tokens: int,
    format_id: str = DEFAULT_FORMAT,
    evidence: Evidence | None = None,
    *,
    query: str | None = None,
) -> Fit:
    """``tools`` reduced until their block in ``format_id`` takes at most ``budget_tokens`` (or one tool is left).

    With a non-empty ``query``, the tools it ranks lowest are dropped first; without,
    optional parameters' descriptions go first, then tools from the end of the list. ``evidence`` (the
    registry) None: the installed study's.
    """
    if isinstance(budget_tokens, bool) or not isinstance(budget_tokens, int) or budget_tokens < 1:
        raise BadRequest(f"budget_tokens must be a positive integer, not {budget_tokens!r}")
    evidence = given_or_installed(evidence)
    original = as_toolset(tools)
    toolset = ToolSet(tools=copy.deepcopy(original.tools), source=original.source)
    before = tokens = schema_tokens(toolset, format_id, evidence)
    steps = [
        f"rendered {len(toolset)} tools in {format_id}: about {before:,} tokens against a budget of {budget_tokens:,}"
    ]
    dropped: list[Removal] = []
    if query and tokens > budget_tokens:
        from toolform.catalogue.retrieval import retrieve

        steps.append("ranked the tools against the query by BM25 and dropped the lowest-ranked first")
        ranked = [name for name, _ in retrieve(toolset, query, include_tools=False).ranked]
        for name in reversed(ranked[1:]):
            if tokens <= budget_tokens:
                break
            toolset.tools = [tool for tool in toolset.tools if tool.name != name]
            now = schema_tokens(toolset, format_id, evidence)
            dropped.append(Removal(name, LOWEST_RANKED, tokens - now))
            tokens = now
    if not query and tokens > budget_tokens:
        optional = [
            (len(param.description), tool.name, param.name, t, p)
            for t, tool in enumerate(toolset.tools)
            for p, param in enumerate(tool.params)
            if not param.required and param.description
        ]
        if optional:
            steps.append("removed the longest optional-parameter descriptions first; required parameters keep theirs")
        for *_, t, p in sorted(optional, reverse=True):
            if tokens <= budget_tokens:
                break
            tool = toolset.tools[t]
            tool.params[p].description = ""
            now = schema_tokens(toolset, format_id, evidence)
            dropped.append(Removal(tool.name, DESCRIPTION_REMOVED, tokens - now, tool.params[p].name))
            tokens = now
    if not query and tokens > budget_tokens and len(toolset) > 1:
        steps.append("dropped tools from the end of the list")
        while tokens > budget_tokens and len(toolset) > 1:
            gone = toolset.tools.pop()
            now = schema_tokens(toolset, format_id, evidence)
            dropped.append(Removal(gone.name, TOOL_DROPPED, tokens - now))
            tokens = now
    verdict = "fits" if tokens <= budget_tokens else "still over the budget; nothing left to drop"
    steps.append(f"about {tokens:,} tokens with {len(toolset)} tools: {verdict}")
    return Fit(format_id, budget_tokens, before, tokens, toolset, dropped, steps)
