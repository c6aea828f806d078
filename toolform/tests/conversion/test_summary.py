"""The summary and its fingerprint, against values the reference gave for the same tools."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from toolform.summary import canonical_json, fingerprint, summarize

from support.tools_evidence import render_cases
from toolform import export, loaders

# Tool sets and the fingerprints the reference's /tools/load answered for them.
REFERENCE_FINGERPRINTS: list[tuple[str, Any, str]] = [
    ("ir", [{"name": "f"}], "214eaa26f17f2d86"),
    (
        "mcp",
        {
            "tools": [
                {
                    "name": "read_file",
                    "description": "Read a text file.",
                    "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
                }
            ]
        },
        "469a65bdcc511fae",
    ),
    ("ir", [{"name": "f"}, {"name": "g", "description": "x"}], "e5783da588e7075e"),
    (
        "ir",
        [{"name": "f", "params": [{"name": "a", "type": {"kind": "number", "constraints": {"minimum": 1.0}}}]}],
        "43bcaa8a0f57b4ea",
    ),
]


@pytest.mark.parametrize(("source", "payload", "expected"), REFERENCE_FINGERPRINTS)
def test_the_fingerprint_is_the_reference_one(source: str, payload: Any, expected: str) -> None:
    assert summarize(loaders.load(source, payload).toolset).fingerprint == expected


def test_the_fingerprint_follows_order_and_every_character() -> None:
    a, b = {"name": "a"}, {"name": "b"}
    ab = summarize(loaders.load("ir", [a, b]).toolset).fingerprint
    assert ab != summarize(loaders.load("ir", [b, a]).toolset).fingerprint
    spaced = summarize(loaders.load("ir", [{"name": "a", "description": "x "}, b]).toolset).fingerprint
    assert spaced != summarize(loaders.load("ir", [{"name": "a", "description": "x"}, b]).toolset).fingerprint


def test_a_decimal_fingerprints_as_the_float_it_equals() -> None:
    assert canonical_json(Decimal("1.0")) == canonical_json(1.0) == "1.0"
    assert canonical_json(Decimal("1E+20")) == canonical_json(1e20)
    # One a float cannot hold keeps every digit.
    assert canonical_json(Decimal("0.1000000000000000000001")) == "0.1000000000000000000001"
    assert canonical_json({"b": "é", "a": [True, None]}) == '{"a": [true, null], "b": "\\u00e9"}'


def _shapes(openai: list[dict[str, Any]]) -> dict[str, Any]:
    functions = [t["function"] for t in openai]
    return {
        "openai": openai,
        "anthropic": [{k if k != "parameters" else "input_schema": v for k, v in f.items()} for f in functions],
        "mcp": {"tools": [{k if k != "parameters" else "inputSchema": v for k, v in f.items()} for f in functions]},
        "jsonrpc": {
            "jsonrpc": "2.0",
            "id": 7,
            "result": {
                "tools": [{k if k != "parameters" else "inputSchema": v for k, v in f.items()} for f in functions]
            },
        },
    }


@pytest.mark.parametrize("case", render_cases(), ids=lambda c: c["id"])
def test_one_fingerprint_for_one_tool_set_in_every_shape(case: dict[str, Any]) -> None:
    prints = {}
    for shape, payload in _shapes(case["openai"]).items():
        for source in ("auto", "mcp" if shape == "jsonrpc" else shape):
            prints[f"{shape}/{source}"] = summarize(loaders.load(source, payload).toolset).fingerprint
    assert len(set(prints.values())) == 1, prints


@pytest.mark.parametrize("case", render_cases(), ids=lambda c: c["id"])
@pytest.mark.parametrize("target", ["openai", "anthropic", "mcp", "ir"])
def test_exported_and_reloaded_gives_the_same_fingerprint(case: dict[str, Any], target: str) -> None:
    toolset = loaders.load("openai", case["openai"]).toolset
    again = loaders.load(target, export.export(toolset, target).payload).toolset
    assert again == toolset
    assert fingerprint(again) == fingerprint(toolset)


def test_the_summary_counts_as_the_reference_does() -> None:
    # The reference's summary of these tools: tier 5 (three levels), depth 3, 2 + 3 description characters
    # (it counts the tools' and their top-level parameters' descriptions only).
    payload = [
        {"name": "a", "description": "ab", "params": [{"name": "x", "type": {"kind": "string"}, "description": "xyz"}]},
        {
            "name": "b",
            "params": [
                {
                    "name": "y",
                    "type": {
                        "kind": "array",
                        "item": {
                            "kind": "array",
                            "item": {"kind": "object", "fields": [{"name": "q", "description": "n"}]},
                        },
                    },
                }
            ],
        },
    ]
    summary = summarize(loaders.load("ir", payload).toolset, warnings=["w"]).to_dict()
    assert summary == {
        "n_tools": 2,
        "names": ["a", "b"],
        "source": "ir",
        "tier_estimate": 5,
        "max_depth": 3,
        "desc_chars": 5,
        "fingerprint": "82d5cd3f7b15c308",
        "warnings": ["w"],
    }


@pytest.mark.parametrize(
    ("params", "tier"),
    [
        ([{"name": "a"}, {"name": "b"}, {"name": "c"}], 1),
        ([{"name": "a", "required": False}], 2),
        ([{"name": "a", "type": {"kind": "enum", "enum_values": ["x"]}}], 2),
        ([{"name": "a", "type": {"kind": "array", "item": {"kind": "string"}}}], 3),
        ([{"name": "a", "type": {"kind": "union", "union_of": [{"kind": "string"}, {"kind": "integer"}]}}], 4),
        ([{"name": "a", "type": {"kind": "object", "fields": [{"name": "b", "type": {"kind": "object"}}]}}], 4),
        (
            [
                {"name": "a", "type": {"kind": "union", "union_of": [{"kind": "string"}, {"kind": "integer"}]}},
                {"name": "b", "type": {"kind": "union", "union_of": [{"kind": "string"}, {"kind": "null"}]}},
            ],
            5,
        ),
    ],
)
def test_the_tier_estimate_is_the_reference_one(params: list[dict[str, Any]], tier: int) -> None:
    assert summarize(loaders.load("ir", [{"name": "f", "params": params}]).toolset).tier_estimate == tier
