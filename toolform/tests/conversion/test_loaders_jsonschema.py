"""JSON Schema read into the IR as the reference reads it, with a warning for every part lost."""

from __future__ import annotations

from typing import Any

from toolform.loaders.jsonschema import MAX_DEPTH

from toolform import loaders


def _load(parameters: Any) -> tuple[list[dict[str, Any]], list[str]]:
    result = loaders.load("openai", [{"type": "function", "function": {"name": "f", "parameters": parameters}}])
    params: list[dict[str, Any]] = result.toolset.to_dicts()[0]["params"]  # type: ignore[assignment]
    return params, result.warnings


def _chain(t: dict[str, Any]) -> str:
    """The kinds down the last field or item of a type: 'ooos' is three objects around a string."""
    out = ""
    while True:
        kind: str = t["kind"]
        out += {"object": "o", "array": "a", "any": "*"}.get(kind, kind[0])
        if t.get("fields"):
            t = t["fields"][-1]["type"]
        elif t.get("item"):
            t = t["item"]
        else:
            return out


def test_a_ref_chain_is_inlined_and_the_site_description_wins() -> None:
    params, warnings = _load(
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A", "description": "site"}, "b": {"$ref": "#/definitions/C"}},
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "integer", "minimum": 2, "description": "target"}},
            "definitions": {"C": {"type": "string", "description": "from C"}},
        }
    )
    assert params[0] == {
        "name": "a",
        "type": {"kind": "integer", "constraints": {"minimum": 2}},
        "required": False,
        "description": "site",
    }
    assert params[1]["description"] == "from C"
    assert warnings == []


def test_recursion_is_cut_as_the_reference_cuts_it_and_said() -> None:
    node = {"type": "object", "properties": {"v": {"type": "string"}, "next": {"$ref": "#/$defs/Node"}}}
    params, warnings = _load({"type": "object", "properties": {"a": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": node}})
    assert _chain(params[0]["type"]) == "o" * 12 + "*"
    assert len(warnings) == 1
    assert warnings[0].startswith("tool 'f' at $.a" + ".next" * 12 + ": $ref '#/$defs/Node' at 12 levels deep")
    assert "recursive schema cannot be inlined" in warnings[0]


def test_no_ref_is_followed_at_the_deepest_level() -> None:
    leaf: dict[str, Any] = {"$ref": "#/$defs/S"}
    for _ in range(MAX_DEPTH):
        leaf = {"type": "object", "properties": {"c": leaf}}
    params, warnings = _load({"type": "object", "properties": {"a": leaf}, "$defs": {"S": {"type": "string"}}})
    assert _chain(params[0]["type"]) == "o" * 12 + "*"
    plain: dict[str, Any] = {"type": "string"}
    for _ in range(MAX_DEPTH):
        plain = {"type": "object", "properties": {"c": plain}}
    assert _chain(_load({"type": "object", "properties": {"a": plain}})[0][0]["type"]) == "o" * 12 + "s"


def test_a_field_that_admits_null_is_not_required_and_the_null_is_named() -> None:
    params, warnings = _load(
        {
            "type": "object",
            "properties": {
                "a": {"anyOf": [{"type": "string", "description": "inner"}, {"type": "null"}], "default": None},
                "b": {"type": ["integer", "null"]},
                "c": {"enum": ["x", None]},
                "d": {"type": "null"},
            },
            "required": ["a", "b", "c", "d"],
        }
    )
    assert [(p["name"], p["required"]) for p in params] == [("a", False), ("b", False), ("c", False), ("d", True)]
    assert params[0]["type"] == {"kind": "string"} and params[0]["description"] == "inner"
    text = "\n".join(warnings)
    assert "tool 'f' at $.a: anyOf allows null" in text
    assert "tool 'f' at $.b: the type list allows null" in text
    assert "tool 'f' at $.c: the enum allows null" in text
    assert "tool 'f' at $.a: a null default is dropped" in text


def test_unions_all_of_and_enum_bases() -> None:
    params, warnings = _load(
        {
            "type": "object",
            "properties": {
                "u": {"oneOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]},
                "m": {"allOf": [{"type": "object", "properties": {"x": {"type": "string"}}}, {"required": ["x"]}]},
                "i": {"enum": [1, 2]},
                "n": {"enum": [1, 2.5]},
                "s": {"enum": [1, "a"]},
                "k": {"const": True},
            },
        }
    )
    kinds = {p["name"]: p["type"] for p in params}
    assert kinds["u"] == {
        "kind": "union",
        "union_of": [{"kind": "string"}, {"kind": "integer", "constraints": {"minimum": 0}}],
    }
    assert kinds["m"] == {"kind": "object", "fields": [{"name": "x", "type": {"kind": "string"}, "required": True}]}
    assert [kinds[k]["base"] for k in "insk"] == ["integer", "number", "string", "boolean"]
    assert "tool 'f' at $.u: oneOf (exactly one) read as a union (any of)" in warnings


def test_unknown_types_and_dropped_keywords_are_warned_with_paths() -> None:
    params, warnings = _load(
        {
            "type": "object",
            "properties": {
                "a": {"type": "strin"},
                "b": {"type": "number", "multipleOf": 2, "exclusiveMinimum": 0},
                "c": {"type": "string", "maxLength": "x", "minLength": 2.5, "title": "C"},
                "d": {"type": "object", "properties": {"e": {"type": "integer", "multipleOf": 3}}},
            },
            "required": ["zz"],
        }
    )
    assert params[0]["type"] == {"kind": "any"}
    assert params[2]["type"] == {"kind": "string", "constraints": {"min_length": 2}}
    assert "tool 'f' at $.a: unknown JSON Schema type 'strin', read as any value" in warnings
    assert "tool 'f' at $.b, $.d.e: JSON Schema keyword 'multipleOf' is not carried by the IR; dropped" in warnings
    assert "tool 'f' at $.c: maxLength \"x\" is not a valid value; dropped" in warnings
    assert "tool 'f' at $.zz: listed in required but not in properties; ignored" in warnings
    assert not any("title" in w for w in warnings)


def test_an_unresolved_ref_reads_as_any_value_and_says_why() -> None:
    params, warnings = _load(
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}, "b": {"$ref": "https://x.test/s.json"}}}
    )
    assert [p["type"] for p in params] == [{"kind": "any"}, {"kind": "any"}]
    assert "tool 'f' at $.a: $ref '#/$defs/Missing' does not resolve; read as any value" in warnings
    assert "tool 'f' at $.b: $ref 'https://x.test/s.json' is not a local reference; read as any value" in warnings


def test_parameters_as_json_text_are_parsed_with_exact_numbers() -> None:
    params, _ = _load(
        '{"type": "object", "properties": {"a": {"type": "number", "maximum": 0.1000000000000000000001}}}'
    )
    assert str(params[0]["type"]["constraints"]["maximum"]) == "0.1000000000000000000001"
