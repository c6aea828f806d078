"""Export to each target: the reference's shapes, round trips, and each target's table as warnings."""

from __future__ import annotations

from typing import Any

import pytest
from toolform.errors import BadRequest
from toolform.export.targets import TARGETS

from support.tools_evidence import render_cases
from toolform import export, loaders


@pytest.mark.parametrize("case", render_cases(), ids=lambda c: c["id"])
def test_openai_export_of_each_case_is_its_input(case: dict[str, Any]) -> None:
    toolset = loaders.load("openai", case["openai"]).toolset
    result = export.export(toolset, "openai")
    assert result.payload == case["openai"]
    assert result.warnings == []


@pytest.mark.parametrize("case", render_cases(), ids=lambda c: c["id"])
def test_every_target_writes_its_own_shape(case: dict[str, Any]) -> None:
    toolset = loaders.load("openai", case["openai"]).toolset
    functions = [t["function"] for t in case["openai"]]
    anthropic = export.export(toolset, "anthropic").payload
    assert anthropic == [
        {"name": f["name"], "description": f["description"], "input_schema": f["parameters"]} for f in functions
    ]
    mcp = export.export(toolset, "mcp").payload
    assert mcp == {
        "tools": [
            {"name": f["name"], "description": f["description"], "inputSchema": f["parameters"]} for f in functions
        ]
    }
    assert export.export(toolset, "ir").payload == case["ir"]


def test_an_unknown_target_is_a_bad_request() -> None:
    with pytest.raises(BadRequest, match="unknown export target 'xml'; use one of openai, anthropic, mcp, ir"):
        export.export(loaders.load("ir", [{"name": "f"}]).toolset, "xml")


def test_recursion_cannot_be_inlined_and_the_export_says_so() -> None:
    node = {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}
    toolset = loaders.load(
        "openai",
        [
            {
                "name": "f",
                "parameters": {"type": "object", "properties": {"a": {"$ref": "#/$defs/N"}}, "$defs": {"N": node}},
            }
        ],
    ).toolset
    result = export.export(toolset, "anthropic")
    assert "$ref" not in str(result.payload) and "$defs" not in str(result.payload)
    assert len(result.warnings) == 1
    assert "the schema here was recursive: it cannot be inlined" in result.warnings[0]
    assert result.warnings[0].startswith("tool 'f' at $.a" + ".next" * 12 + ":")


def test_each_target_table_is_checked() -> None:
    long_name = "n" * 65
    tools = [
        {"name": long_name, "description": "d" * 1025, "params": []},
        {
            "name": "dotted.name",
            "params": [{"name": "when", "type": {"kind": "string", "constraints": {"format": "iso"}}}],
        },
    ]
    toolset = loaders.load("ir", tools).toolset
    openai = "\n".join(export.export(toolset, "openai").warnings)
    assert f"tool '{long_name}' at $: openai refuses this name" in openai
    assert "the description has 1025 characters; openai accepts at most 1024" in openai
    assert "tool 'dotted.name' at $: openai refuses this name" in openai
    assert "tool 'dotted.name' at $.when: openai strict mode does not accept format 'iso'" in openai
    assert "has no place for domain, category and origin" in openai
    mcp = "\n".join(export.export(toolset, "mcp").warnings)
    assert "dotted.name' at $: mcp refuses" not in mcp and "1024" not in mcp and "format" not in mcp
    assert export.export(toolset, "ir").warnings == []
    assert set(TARGETS) == {"openai", "anthropic", "mcp", "ir"}


def test_mcp_round_trips_title_annotations_and_output_schema() -> None:
    payload = {
        "tools": [
            {
                "name": "f",
                "title": "F",
                "description": "",
                "inputSchema": {"type": "object", "properties": {}},
                "outputSchema": {"type": "object", "properties": {"x": {"type": "integer"}}},
                "annotations": {"readOnlyHint": True},
            }
        ]
    }
    toolset = loaders.load("mcp", payload).toolset
    result = export.export(toolset, "mcp")
    assert result.payload == payload
    assert result.warnings == []
    assert "the return type" in export.export(toolset, "openai").warnings[0]


def test_examples_and_enums_without_base_survive_a_round_trip() -> None:
    tools = [
        {
            "name": "f",
            "params": [
                {"name": "a", "type": {"kind": "string"}, "example": "x"},
                {"name": "b", "type": {"kind": "enum", "enum_values": [1, 2]}, "required": False},
            ],
            "domain": "user",
            "category": "user",
            "origin": "user",
        }
    ]
    toolset = loaders.load("ir", tools).toolset
    payload = export.export(toolset, "openai").payload
    assert payload[0]["function"]["parameters"]["properties"] == {  # type: ignore[index, call-overload]
        "a": {"type": "string", "examples": ["x"]},
        "b": {"type": "integer", "enum": [1, 2]},
    }
    again = loaders.load("openai", payload).toolset.to_dicts()[0]
    assert again["params"][0]["example"] == "x"  # type: ignore[index]
