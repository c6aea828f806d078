"""``plan``: how to show a catalogue (one shot, retrieval or two stage), the block's size, and why.

With a query, a retrieval plan carries the ranking (without the tools) and a
two-stage plan the first stage's messages for it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from toolform.catalogue.retrieval import DEFAULT_K, Retrieval, check_catalogue_size, retrieve
from toolform.catalogue.strategy import Strategy, catalogue_strategy
from toolform.catalogue.toolsets import as_toolset
from toolform.catalogue.two_stage import two_stage_prompt
from toolform.errors import BadRequest
from toolform.evidence import Evidence, Figure, given_or_installed
from toolform.ir import ToolSet
from toolform.registry import registry_of
from toolform.render.block import render_tools, tokens_estimate

DEFAULT_FORMAT = "xml_schema"


@dataclass(frozen=True)
class CataloguePlan:
    """The chosen strategy for a catalogue in a format and window, its reason and figures."""

    strategy: Strategy
    n_tools: int
    format_id: str
    schema_tokens: int
    context_tokens: int | None
    reason: str
    evidence: list[Figure]
    retrieval: Retrieval | None = None
    selection_messages: list[dict[str, str]] | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "strategy": self.strategy,
            "n_tools": self.n_tools,
            "format_id": self.format_id,
            "schema_tokens": self.schema_tokens,
            "context_tokens": self.context_tokens,
            "reason": self.reason,
            "evidence": [figure.to_dict() for figure in self.evidence],
            "retrieval": None if self.retrieval is None else self.retrieval.to_dict(),
            "selection_messages": self.selection_messages,
        }


def _positive(name: str, value: int | None) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise BadRequest(f"{name} must be a positive integer or null, not {value!r}")


def schema_tokens(tools: object, format_id: str = DEFAULT_FORMAT, evidence: Evidence | None = None) -> int:
    """The estimated tokens (characters / 4) of the tools' block in ``format_id``; a two-stage format is BadRequest.

    ``evidence`` (the registry) None: the installed study's.
    """
    entry = registry_of(given_or_installed(evidence)).format(format_id).entry
    if entry.get("two_stage") is True:
        raise BadRequest(f"{format_id} is a two-stage format; use toolform.catalogue.TwoStage")
    return tokens_estimate(render_tools(as_toolset(tools).tools, format_id))


def plan(
    tools: object,
    format_id: str = DEFAULT_FORMAT,
    context_tokens: int | None = None,
    budget_tokens: int | None = None,
    query: str | None = None,
    k: int = DEFAULT_K,
    evidence: Evidence | None = None,
    *,
    split_identifiers: bool = False,
) -> CataloguePlan:
    """Plan how to show ``tools`` rendered in ``format_id``: one shot, retrieval, or two stage.

    ``context_tokens`` is the model's window and ``budget_tokens`` the most the
    block may take (None: no limit). With a non-empty ``query``, a retrieval plan
    ranks the tools against it (keeping ``k``), and a two-stage plan gives the first
    stage's messages for it. ``split_identifiers`` ranks with camelCase and digits
    split too (not the reference's scores). ``evidence`` (the registry and the figures the reason
    quotes) None: the installed study's.
    """
    _positive("context_tokens", context_tokens)
    _positive("budget_tokens", budget_tokens)
    _positive("k", k)
    evidence = given_or_installed(evidence)
    toolset = as_toolset(tools)
    check_catalogue_size(len(toolset))
    tokens = schema_tokens(toolset, format_id, evidence)
    retrieval = None
    retrieved = None
    if query:
        retrieval = retrieve(toolset, query, k, split_identifiers=split_identifiers)
        if budget_tokens is not None and tokens > budget_tokens:
            top = ToolSet(tools=list(retrieval.tools or []))
            retrieved = (retrieval.k, tokens_estimate(render_tools(top.tools, format_id)))
        # A plan names the tools to retrieve; it does not carry them.
        retrieval = replace(retrieval, tools=None)
    choice = catalogue_strategy(len(toolset), tokens, context_tokens, budget_tokens, evidence, retrieved=retrieved)
    messages = None
    if choice.strategy != "retrieve":
        retrieval = None
    if query and choice.strategy == "two_stage":
        messages = two_stage_prompt(toolset, query, evidence=evidence).messages
    return CataloguePlan(
        strategy=choice.strategy,
        n_tools=len(toolset),
        format_id=format_id,
        schema_tokens=tokens,
        context_tokens=context_tokens,
        reason=choice.reason,
        evidence=choice.evidence,
        retrieval=retrieval,
        selection_messages=messages,
    )
