"""TypeScript declarations read by the TypeScript compiler's parser (through Node)."""

from __future__ import annotations

import json

import pytest
from toolform.errors import LoaderError
from toolform.summary import fingerprint

from support.paths import DATA
from toolform import loaders


def test_the_declarations_read_as_the_reference_reads_them() -> None:
    # The source and the tools the reference's /tools/load gave for it.
    expected = json.loads((DATA / "typescript_tools.reference.json").read_text(encoding="utf-8"))
    result = loaders.load("auto", expected["source"])
    assert result.kind == "typescript"
    assert result.toolset.to_dicts() == expected["tools"]
    assert fingerprint(result.toolset) == expected["fingerprint"]
    # What the reference reads silently, named.
    assert any("at $.d: a tuple is read as an array" in w for w in result.warnings)
    assert any("tool 'rec' at $.n.next: the type 'Node' refers to itself" in w for w in result.warnings)


def test_enum_declarations_are_enums() -> None:
    source = 'enum Units { Metric = "metric", Imperial = "imperial" }\nenum Level { Low, High }\n'
    source += "declare function f(u: Units, l: Level): void;"
    params = loaders.load("typescript", source).toolset.tools[0].params
    assert [p.type.to_dict() for p in params] == [
        {"kind": "enum", "enum_values": ["metric", "imperial"], "base": "string"},
        {"kind": "enum", "enum_values": [0, 1], "base": "number"},
    ]


@pytest.mark.parametrize(
    ("source", "message", "line"),
    [
        ("function f(a: string): void;\nf(: ;", "TypeScript syntax error", 2),
        ("\n\ndeclare function f(a: Missing): void;", "unknown type 'Missing'; declare it in the file", 3),
        ("const f = (a: string) => a;", "no function declarations found", None),
        ("declare function f(a: string): void;\ndeclare function f(a: number): void;", "declared more than once", 2),
    ],
)
def test_refusals_name_the_line(source: str, message: str, line: int | None) -> None:
    with pytest.raises(LoaderError, match=message) as caught:
        loaders.load("typescript", source)
    assert caught.value.line == line


def test_a_payload_that_is_not_text_is_refused() -> None:
    with pytest.raises(LoaderError, match="must be the source text"):
        loaders.load("typescript", {"a": 1})
