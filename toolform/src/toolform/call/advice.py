"""The format the call loop uses when none is given: the advisor's choice for the model, on the study's evidence.

The situation is the model and the rule; the tool count, the tier and each
core format's token cost come from the tools themselves, as the advisor takes
them for ``recommend`` with tools.
"""

from __future__ import annotations

import importlib
from typing import Any

from toolform.evidence import Evidence
from toolform.ir import ToolSet


def advised(evidence: Evidence, model: str, tools: ToolSet, rule: str) -> dict[str, Any]:
    """The advisor's recommendation for ``model`` with these tools under ``rule`` (its ``to_dict()``)."""
    from toolform.advisor import Situation, recommend
    from toolform.conversion import LoadedTools

    situation = {"model": model, "rule": rule}
    try:
        # The advisor's entry point with tools (counts and tokens measured on them), where it exists.
        advise: Any = importlib.import_module("toolform.advisor.advise").advise
    except (ImportError, AttributeError):
        chosen = Situation(model=model, rule=rule, n_tools=max(len(tools), 1))
        return recommend(evidence, chosen).to_dict()
    loaded = LoadedTools(toolset=tools, kind=tools.source)
    recommendation: dict[str, Any] = advise(evidence, situation, tools=loaded).to_dict()
    return recommendation
