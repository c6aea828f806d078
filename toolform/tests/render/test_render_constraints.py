"""What the model will not see: each format's constraints, as its rendered text shows them.

Every format is rendered with a tool whose constraints have values found
nowhere else (not the probe's values), with --constraints on and off. A format
supports constraints exactly when some value is in its text with them on and
gone with them off; a render's hidden_constraints lists exactly the values its
text does not show.
"""

from __future__ import annotations

from typing import Any

import pytest
from toolform.evidence import Evidence
from toolform.registry import Registry
from toolform.render import RenderOptions, render

from support.evidence_files import evidence_json

FORMATS = {f: e for f, e in evidence_json("formats")["data"].items() if not e["two_stage"]}

#: Each constraint with the text that shows it.
_CONSTRAINTS: dict[str, tuple[str, dict[str, Any], str]] = {
    "minimum": ("floor_count", {"kind": "integer", "constraints": {"minimum": 2719}}, "2719"),
    "maximum": ("ceiling_count", {"kind": "number", "constraints": {"maximum": 9613}}, "9613"),
    "min_length": ("short_text", {"kind": "string", "constraints": {"min_length": 1847}}, "1847"),
    "max_length": ("long_text", {"kind": "string", "constraints": {"max_length": 2963}}, "2963"),
    "min_items": ("few_tags", {"kind": "array", "item": {"kind": "string"}, "constraints": {"min_items": 4157}},
                  "4157"),
    "max_items": ("many_tags", {"kind": "array", "item": {"kind": "string"}, "constraints": {"max_items": 5261}},
                  "5261"),
    "pattern": ("zip_code", {"kind": "string", "constraints": {"pattern": "^vw[0-4]+$"}}, "vw[0-4]"),
    "format": ("when_due", {"kind": "string", "constraints": {"format": "date-time"}}, "date-time"),
}
IR = {
    "tools": [
        {
            "name": "file_claim",
            "description": "File a claim.",
            "params": [{"name": n, "type": t, "required": True} for n, t, _ in _CONSTRAINTS.values()],
        }
    ]
}


def _keys(hidden: list[dict[str, Any]]) -> set[str]:
    return {key for h in hidden for key in h["constraints"]}


def _shown(block: str) -> set[str]:
    return {key for key, (_, _, text) in _CONSTRAINTS.items() if text.lower() in block.lower()}


@pytest.mark.parametrize("format_id", list(FORMATS))
def test_supports_constraints_and_hidden_constraints_say_what_the_text_shows(
    format_id: str, evidence: Evidence
) -> None:
    on = render(IR, format_id)
    off = render(IR, format_id, options=RenderOptions(constraints=False))
    shown = _shown(on.tool_block) - _shown(off.tool_block)
    entry = Registry(evidence).format(format_id).entry
    assert entry["supports_constraints"] is bool(shown)
    assert on.format["supports_constraints"] is bool(shown)
    assert _keys(on.hidden_constraints) == set(_CONSTRAINTS) - shown
    assert _keys(off.hidden_constraints) == set(_CONSTRAINTS)


def test_the_formats_the_issue_names_hide_bounds_and_say_so() -> None:
    for format_id in ("xml_schema", "typescript", "markdown_table"):
        prompt = render(IR, format_id)
        assert prompt.format["supports_constraints"] is False
        floor = {"tool": "file_claim", "path": "floor_count", "constraints": {"minimum": 2719}}
        assert floor in prompt.hidden_constraints
    assert render(IR, "json_schema_openai").hidden_constraints == []


_ITEM = {"kind": "array", "item": {"kind": "integer", "constraints": {"minimum": 1}}}


def test_nested_and_item_constraints_have_their_paths() -> None:
    nested = {
        "tools": [
            {
                "name": "ship",
                "params": [
                    {
                        "name": "order",
                        "type": {
                            "kind": "object",
                            "fields": [
                                {"name": "lines", "type": _ITEM},
                            ],
                        },
                    }
                ],
            }
        ]
    }
    assert render(nested, "xml_schema").hidden_constraints == [
        {"tool": "ship", "path": "order.lines[]", "constraints": {"minimum": 1}}
    ]


def test_about_a_sixth_of_the_formats_show_any_constraint(evidence: Evidence) -> None:
    registry = Registry(evidence)
    showing = [f for f in FORMATS if registry.format(f).entry["supports_constraints"]]
    assert 15 <= len(showing) <= 30, showing
