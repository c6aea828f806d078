"""Every difference we mean between our render answers and the reference's, by name, with why and a witness.

A render answer is RenderedPrompt.to_dict() (the SDK) or the /api/v1/render body:
the same JSON. Before two answers are compared, each difference that applies
adjusts them; ``adjust`` names those that changed something, and the tests
check that every difference's witness still needs it, so this list stays true.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Answer = dict[str, Any]

#: A witness: one IR tool whose days has bounds that xml_schema's text does not show.
BOUNDED_IR: dict[str, Any] = {
    "tools": [
        {
            "name": "get_forecast",
            "description": "The forecast.",
            "params": [
                {
                    "name": "days",
                    "type": {"kind": "integer", "constraints": {"minimum": 1, "maximum": 7}},
                    "required": True,
                }
            ],
        }
    ]
}


@dataclass
class RenderDifference:
    """A difference we mean: how it adjusts the two answers (True when it changed something), why, a witness."""

    name: str
    why: str
    adjust: Callable[[Answer, Answer], bool]
    #: (IR tool set, format id): a render that needs this difference.
    witness: tuple[dict[str, Any], str]
    applied: int = field(default=0, compare=False)


def _hidden_constraints(ours: Answer, reference: Answer) -> bool:
    if "hidden_constraints" in ours and "hidden_constraints" not in reference:
        del ours["hidden_constraints"]
        return True
    return False


def _supports_constraints(ours: Answer, reference: Answer) -> bool:
    mine, theirs = ours.get("format"), reference.get("format")
    if not (isinstance(mine, dict) and isinstance(theirs, dict)):
        return False
    if "supports_constraints" in mine and mine.get("supports_constraints") != theirs.get("supports_constraints"):
        mine["supports_constraints"] = theirs.get("supports_constraints")
        return True
    return False


DIFFERENCES: list[RenderDifference] = [
    RenderDifference(
        "hidden-constraints",
        "Our render answer lists, in hidden_constraints, each field whose bounds, lengths, item counts, patterns "
        "or formats the tool block does not show (most formats show none); the reference says nothing of them.",
        _hidden_constraints,
        (BOUNDED_IR, "xml_schema"),
    ),
    RenderDifference(
        "supports-constraints-as-rendered",
        "A format's supports_constraints says whether its text shows any constraint, derived by rendering; the "
        "study's registry, which the reference serves, claims it for 128 of 133 formats, where 23 show one.",
        _supports_constraints,
        (BOUNDED_IR, "markdown_table"),
    ),
]


def adjust(ours: Answer, reference: Answer) -> list[str]:
    """Apply every difference to the two answers; the names of those that changed something."""
    used = []
    for difference in DIFFERENCES:
        if isinstance(ours, dict) and isinstance(reference, dict) and difference.adjust(ours, reference):
            difference.applied += 1
            used.append(difference.name)
    return used
