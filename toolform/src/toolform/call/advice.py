"""The format the call loop uses when none is given: the advisor's choice for the model, on the study's evidence.

The advisor is its own part of the SDK (``toolform.advisor``); it is looked up
when it is needed, so the loop runs with ``--format`` on an installation
whose advisor is missing, and says what to pass when it is.
"""

from __future__ import annotations

import importlib
from typing import Any

from toolform.errors import BadRequest
from toolform.ir import ToolSet


def advised(model: str, tools: ToolSet, rule: str) -> dict[str, Any]:
    """The advisor's recommendation for ``model`` with these tools under ``rule`` (its ``to_dict()``)."""
    try:
        advisor: Any = importlib.import_module("toolform.advisor")
    except ImportError:
        raise BadRequest("no --format given, and the advisor is not in this installation; pass --format") from None
    situation = advisor.Situation(model=model, rule=rule)
    recommendation: dict[str, Any] = advisor.recommend(situation, tools=tools).to_dict()
    return recommendation
