"""Each JSON shape, its detection by auto, and the refusals that name the tool and the fix."""

from __future__ import annotations

from typing import Any

import pytest
from toolform.errors import LoaderError

from toolform import loaders

SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
SHAPES: list[tuple[str, Any, str]] = [
    ("openai list", [{"type": "function", "function": {"name": "f", "parameters": SCHEMA}}], "openai"),
    ("openai wrapped", {"tools": [{"type": "function", "function": {"name": "f", "parameters": SCHEMA}}]}, "openai"),
    ("openai bare", [{"name": "f", "parameters": SCHEMA}], "openai"),
    ("openai responses", [{"type": "function", "name": "f", "parameters": SCHEMA}], "openai"),
    ("anthropic", [{"name": "f", "input_schema": SCHEMA}], "anthropic"),
    ("anthropic one", {"name": "f", "input_schema": SCHEMA}, "anthropic"),
    ("mcp", {"tools": [{"name": "f", "inputSchema": SCHEMA}]}, "mcp"),
    ("mcp jsonrpc", {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "f", "inputSchema": SCHEMA}]}}, "mcp"),
    ("ir", {"tools": [{"name": "f", "params": [{"name": "a"}]}]}, "ir"),
    ("json text", '[{"type": "function", "function": {"name": "f", "parameters": {}}}]', "openai"),
]


@pytest.mark.parametrize(("label", "payload", "kind"), SHAPES, ids=[s[0] for s in SHAPES])
def test_auto_says_which_shape_it_detected(label: str, payload: Any, kind: str) -> None:
    detected = loaders.load("auto", payload)
    assert detected.kind == detected.shape == kind
    assert detected.toolset.source == kind
    named = loaders.load(kind, payload)
    assert named.toolset == detected.toolset


def test_mixed_shapes_are_refused_naming_both() -> None:
    payload = [{"type": "function", "function": {"name": "f"}}, {"name": "g", "input_schema": SCHEMA}]
    with pytest.raises(LoaderError, match="tool 0 is an OpenAI function tool but tool 1 is an Anthropic tool"):
        loaders.load("auto", payload)


@pytest.mark.parametrize(
    ("source", "payload", "message"),
    [
        ("auto", [], "no tools were given; send at least one tool"),
        ("mcp", {"tools": []}, "no tools were given"),
        ("auto", [{"name": "f"}], "cannot tell what kind of tool input this is"),
        ("openai", [{"function": {"description": "x"}}], "tool 0 has no name"),
        ("anthropic", ["x"], "tool 0 is not a JSON object"),
        ("openai", [{"name": "f"}, {"name": "f"}], "duplicate tool name 'f'"),
        ("ir", [{"params": []}], "tool 0 is not a ToolIR dict"),
        ("ir", [{"name": "f", "params": [{"name": "a", "type": {"kind": "strin"}}]}], "'strin' is not a kind"),
        ("openai", [{"name": "f", "parameters": "{not json"}], "tool 'f': parameters is text that is not JSON"),
        ("nope", [], "unknown tools source 'nope'"),
    ],
)
def test_refusals_name_the_tool_and_the_rule(source: str, payload: Any, message: str) -> None:
    with pytest.raises(LoaderError, match=message.replace("(", r"\(")):
        loaders.load(source, payload)


def test_json_text_that_is_not_json_names_its_line() -> None:
    with pytest.raises(LoaderError) as caught:
        loaders.load("openai", '[\n{"name": "f",,}]')
    assert caught.value.line == 2


def test_mcp_keeps_title_annotations_and_output_schema() -> None:
    tool = {
        "name": "f",
        "title": "F",
        "inputSchema": SCHEMA,
        "outputSchema": {"type": "object", "properties": {"x": {"type": "integer"}}},
        "annotations": {"readOnlyHint": True},
        "_meta": {"k": 1},
    }
    result = loaders.load("mcp", {"tools": [tool]})
    ir = result.toolset.to_dicts()[0]
    assert ir["annotations"] == {"mcp": {"title": "F", "annotations": {"readOnlyHint": True}}}
    assert ir["returns"] == {
        "kind": "object",
        "fields": [{"name": "x", "type": {"kind": "integer"}, "required": False}],
    }
    assert result.warnings == ["tool 'f' at $: the mcp tool member '_meta' is not read; dropped"]


def test_a_shape_key_the_named_source_does_not_read_is_warned() -> None:
    # The reference reads this as a tool with no parameters and says nothing.
    result = loaders.load("openai", [{"name": "f", "input_schema": SCHEMA}])
    assert result.toolset.to_dicts()[0]["params"] == []
    assert result.warnings == ["tool 'f' at $: the openai tool member 'input_schema' is not read; dropped"]


def test_an_anthropic_server_tool_loads_with_a_warning() -> None:
    result = loaders.load("anthropic", [{"type": "web_search_20250305", "name": "web_search"}])
    assert result.toolset.names == ["web_search"]
    assert "an Anthropic server tool (type 'web_search_20250305')" in result.warnings[0]


def test_the_ir_loader_keeps_every_member_and_defaults_the_rest() -> None:
    tool = {
        "name": "f",
        "params": [{"name": "a", "default": "x", "example": "y", "description": "d", "required": False}],
        "returns": {"kind": "string"},
        "returns_description": "r",
        "examples": [{"a": "x"}],
        "tags": ["t"],
        "annotations": {"k": 1},
        "domain": "legal",
        "extra": 1,
    }
    result = loaders.load("ir", [tool])
    assert result.toolset.to_dicts()[0] == {
        "name": "f",
        "description": "",
        "params": [
            {
                "name": "a",
                "type": {"kind": "string"},
                "required": False,
                "description": "d",
                "default": "x",
                "example": "y",
            }
        ],
        "domain": "legal",
        "category": "generic",
        "origin": "synthetic",
        "returns": {"kind": "string"},
        "returns_description": "r",
        "examples": [{"a": "x"}],
        "tags": ["t"],
        "annotations": {"k": 1},
    }
    assert result.warnings == ["tool 'f' at $: 'extra' is not a member of the IR; dropped"]


def test_values_and_types_nested_too_deep_are_refused_not_overflowed() -> None:
    deep_type: dict[str, Any] = {"kind": "string"}
    for _ in range(400):
        deep_type = {"kind": "array", "item": deep_type}
    with pytest.raises(LoaderError, match="types nest deeper than 64 levels"):
        loaders.load("ir", [{"name": "f", "params": [{"name": "a", "type": deep_type}]}])
    deep_value: list[Any] = []
    for _ in range(900):
        deep_value = [deep_value]
    with pytest.raises(LoaderError, match=r"tool 'f': \$\.a default nests deeper than 64 levels"):
        loaders.load("ir", [{"name": "f", "params": [{"name": "a", "default": deep_value}]}])
    with pytest.raises(LoaderError, match="nests too deep to read"):
        loaders.load("openai", "[" * 100_000 + "]" * 100_000)
