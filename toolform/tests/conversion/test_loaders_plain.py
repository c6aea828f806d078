"""The loaders' plain paths read what the general reading reads: the same IR, warnings and errors.

A tool whose parameters are scalar types with descriptions is read by
``openai.plain_tool`` and ``jsonschema.plain_fields`` without the general path,
and the value-depth check walks only containers holding containers. Each is held
here to the general reading on seeded catalogues, plain and spoiled at random,
with the plain paths switched off for the other side.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from toolform.errors import LoaderError
from toolform.ir import ToolSet
from toolform.loaders import common, jsonschema, load, openai

from support import catalogues, toolsets

SPOILERS: list[tuple[str, object]] = [
    ("description", 5),
    ("description", None),
    ("default", None),
    ("default", "x"),
    ("enum", ["a", None]),
    ("title", "T"),
    ("additionalProperties", False),
    ("minimum", 1),
    ("type", "strin"),
    ("type", ["string", "null"]),
    ("type", None),
    ("$ref", "#/nope"),
    ("examples", [1]),
]


def _spoil(rng: random.Random, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    tools = copy.deepcopy(tools)
    for tool in tools:
        function = tool["function"]
        roll = rng.random()
        if roll < 0.05:
            function["description"] = rng.choice([3, None, ""])
        elif roll < 0.08:
            function["extra"] = 1
        elif roll < 0.10:
            tool["extra"] = 1
        elif roll < 0.12:
            function["parameters"] = rng.choice([None, "{}", [], {"type": "string"}, {"type": None}])
        parameters = function.get("parameters")
        if not isinstance(parameters, dict):
            continue
        properties = parameters.get("properties", {})
        if rng.random() < 0.05:
            parameters["required"] = rng.choice([["missing"], [1], "city", list(properties)])
        if rng.random() < 0.03:
            parameters[rng.choice(["additionalProperties", "title", "$defs"])] = False
        for schema in properties.values():
            if rng.random() < 0.05:
                key, value = rng.choice(SPOILERS)
                schema[key] = value
    return tools


def _general(monkeypatch: pytest.MonkeyPatch, source: str, payload: object) -> object:
    with monkeypatch.context() as patched:
        patched.setattr(openai, "plain_tool", lambda item: None)
        patched.setattr(jsonschema, "_plain_field", lambda name, prop, required: None)
        return _read(source, payload)


def _read(source: str, payload: object) -> object:
    try:
        loaded = load(source, payload)
    except LoaderError as err:
        return str(err)
    return loaded.kind, loaded.warnings, loaded.toolset.to_dicts()


@pytest.mark.parametrize("seed", range(40))
def test_plain_paths_read_as_the_general_one(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    rng = random.Random(seed)
    plain = catalogues.catalogue(seed, 60)
    # The plain path is taken (else this test would compare the general path with itself).
    assert all(openai.plain_tool(tool) is not None for tool in plain)
    ugly = toolsets.openai_list(toolsets.tool_set(seed, 12))
    for source, payload in [
        ("openai", plain),
        ("openai", _spoil(rng, plain)),
        ("auto", _spoil(rng, plain)),
        ("openai", ugly),
        ("anthropic", toolsets.anthropic(toolsets.tool_set(seed, 12))),
    ]:
        assert _read(source, payload) == _general(monkeypatch, source, payload)


def _deep(levels: int) -> Any:
    value: Any = "x"
    for level in range(levels):
        value = [value] if level % 2 else {"k": value}
    return value


def _first_too_deep(toolset: ToolSet) -> str | None:
    """The value-depth rule as first written: every value looked at, in order."""
    for tool in toolset:
        found: list[tuple[str, object]] = [("examples", tool.examples), ("annotations", tool.annotations)]
        for p in tool.params:
            found += [(f"$.{p.name} default", p.default), (f"$.{p.name} example", p.example)]
        for t in tool.types():
            found.append(("an enum's values", t.enum_values))
            found += [(f"field {f.name!r} default", f.default) for f in t.fields]
        for where, value in found:
            if isinstance(value, dict | list) and common.value_depth(value) > common.MAX_VALUE_DEPTH:
                return f"tool '{tool.name}': {where} nests"
    return None


@pytest.mark.parametrize("seed", range(60))
def test_the_value_depth_check_names_the_first_value_too_deep(seed: int) -> None:
    rng = random.Random(seed)
    tools = toolsets.openai_list(toolsets.tool_set(seed, 8))
    toolset = load("openai", tools).toolset
    plants = 0
    for tool in toolset:
        for t in tool.types():
            for f in t.fields:
                if rng.random() < 0.1:
                    f.default = _deep(rng.choice([2, 64, 65, 70]))
                    plants += 1
            if t.enum_values and rng.random() < 0.3:
                t.enum_values.append(_deep(rng.choice([1, 1, 65])))
        for p in tool.params:
            if rng.random() < 0.1:
                p.example = _deep(rng.choice([64, 66]))
    expected = _first_too_deep(toolset)
    try:
        common.check_values(toolset)
    except LoaderError as err:
        assert expected is not None and str(err).startswith(expected), (str(err), expected)
    else:
        assert expected is None, expected


@pytest.mark.parametrize("where", ["union", "item", "field"])
def test_a_value_too_deep_anywhere_in_a_type_is_refused(where: str) -> None:
    # An enum's values are a list: a value 64 deep inside makes it 65 deep.
    deep_enum: dict[str, Any] = {"type": "string", "enum": ["a", _deep(64)]}
    shapes: dict[str, dict[str, Any]] = {
        "union": {"oneOf": [{"type": "integer"}, deep_enum]},
        "item": {"type": "array", "items": deep_enum},
        "field": {"type": "object", "properties": {"b": {"type": "string", "default": _deep(66)}}},
    }
    inner = shapes[where]
    parameters = {"type": "object", "properties": {"a": inner}}
    tools: list[dict[str, Any]] = [{"type": "function", "function": {"name": "f", "parameters": parameters}}]
    with pytest.raises(LoaderError, match="nests deeper than 64 levels"):
        load("openai", tools)
    inner_flat = copy.deepcopy(inner)
    tools[0]["function"]["parameters"]["properties"]["a"] = inner_flat
    if where == "field":
        inner_flat["properties"]["b"]["default"] = _deep(64)
    else:
        (inner_flat["oneOf"][1] if where == "union" else inner_flat["items"])["enum"][1] = _deep(63)
    load("openai", tools)
