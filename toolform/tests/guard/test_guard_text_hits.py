"""The scan's per-sentence memo answers exactly what the rules answer read one after the other.

``text_hits`` keeps a sentence's outcome for reuse when the sentence cannot
hold the tool's name; the plain path (``reference_hits``, ``refine``,
``our_hits``) reads every sentence for every tool. Seeded catalogues from the
guard's differential pool, whose sentences name the catalogue's tools, plus
sentences naming each tool in other cases, must give the same hits, in the
same order, both with and without our rules.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from toolform.guard.our_rules import our_hits
from toolform.guard.reading import Reading
from toolform.guard.reference_rules import reference_hits
from toolform.guard.refinements import refine
from toolform.guard.rules import Catalogue, Context, Hit
from toolform.guard.scan import param_names, tool_texts
from toolform.guard.text_hits import text_hits
from toolform.loaders import load

from support.guard_generated import NAMES, openai_tools, pool

_SENTENCES = pool()


def _plain(text: str, ctx: Context, extra_rules: bool) -> list[Hit]:
    hits = reference_hits(text, ctx)
    if extra_rules:
        hits = refine(hits, text, ctx)
        hits = hits + our_hits(text, ctx, hits)
    return hits


def _ordered(hits: list[Hit]) -> list[Hit]:
    # The order the scan reports them in (stable: equal keys keep the rules' order).
    return sorted(hits, key=lambda h: (h.start, h.rule_id, h.end))


def _catalogue(seed: int) -> list[dict[str, Any]]:
    second = openai_tools(seed + 10_000, _SENTENCES)
    for tool in second:
        tool["function"]["name"] += "_v2"
    tools = openai_tools(seed, _SENTENCES) + second
    rng = random.Random(seed)
    for tool in tools:
        function = tool["function"]
        other = rng.choice(NAMES)
        named = rng.choice([function["name"].upper(), function["name"].title(), other, f"`{function['name']}`"])
        # The tool's own name (or another's) in the forms TS101 and TS103 read, repeated across tools.
        extra = rng.choice(
            [f"Before using {named}, call get_token.", f"This tool ({named}) must be called first.",
             f"Then call {named} with the result.", "Use this tool when the user asks for the weather."]
        )
        function["description"] = f"{extra} {function.get('description', '')}".strip()
    return tools


@pytest.mark.parametrize("extra_rules", [True, False])
def test_the_memo_gives_the_hits_the_rules_give(extra_rules: bool) -> None:
    compared = 0
    for seed in range(120):
        toolset = load("openai", _catalogue(seed)).toolset
        names_of = {tool.name: param_names(tool) for tool in toolset}
        catalogue = Catalogue(tuple(toolset.names), frozenset().union(*names_of.values()))
        memo, plain = Reading(), Reading()
        for tool in toolset:
            for text in tool_texts(tool):
                fast = Context(tool.name, names_of[tool.name], text.kind, catalogue, memo)
                slow = Context(tool.name, names_of[tool.name], text.kind, catalogue, plain)
                assert _ordered(text_hits(text.text, fast, extra_rules)) == _ordered(
                    _plain(text.text, slow, extra_rules)
                ), (seed, tool.name, text.field, text.text)
                compared += 1
    assert compared > 1000
