"""Tools loaded once, one model: load_tools gives the IR itself, its summary is worked out once, on demand,
and render takes the IR as it is; the registry of an evidence set is made once."""

from __future__ import annotations

from toolform.conversion import load_tools
from toolform.evidence import Evidence, open_evidence
from toolform.registry import registry_of
from toolform.render import render
from toolform.render.toolsets import tools_of
from toolform.summary import summarize

PAYLOAD = [
    {
        "type": "function",
        "function": {
            "name": "get_forecast",
            "description": "Forecast.",
            "parameters": {
                "type": "object",
                "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 7}},
                "required": ["days"],
            },
        },
    }
]


def test_the_summary_is_worked_out_on_first_use_and_kept() -> None:
    loaded = load_tools("openai", PAYLOAD)
    assert "summary" not in vars(loaded)
    first = loaded.summary
    assert loaded.summary is first
    assert first.to_dict() == summarize(loaded.toolset, warnings=loaded.warnings).to_dict()
    body = loaded.to_dict()
    assert body["tools"] == loaded.toolset.to_dicts() and body["summary"] == first.to_dict()


def test_render_takes_the_loaded_ir_as_it_is() -> None:
    toolset = load_tools("openai", PAYLOAD).toolset
    assert tools_of(toolset) is toolset.tools
    assert render(toolset, "typescript").tool_block == render(toolset.to_dict(), "typescript").tool_block


def test_one_registry_per_evidence(evidence: Evidence) -> None:
    assert registry_of(evidence) is registry_of(evidence)
    other = open_evidence()
    assert registry_of(other) is not registry_of(evidence)
    assert registry_of(other).format("xml_schema").entry == registry_of(evidence).format("xml_schema").entry
