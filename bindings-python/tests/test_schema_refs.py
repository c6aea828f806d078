"""Every `$ref` of every schema the project generates resolves with
python-jsonschema and `referencing`, as users run them, with the schema as
written (decisions.md section 4: a `$ref` is a URI reference). The schemas:
the signature and call-view vectors, every Tool signature of every listing in
the vectors, the examples and the hostile fixtures (both forms), and the
generated samples' metadata (Python and Rust; bindings-node/test checks the
TypeScript ones with ajv)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

import flow_toolkit
from conftest import REPO, WEATHER_LISTING

VECTORS = sorted((REPO / "tests" / "vectors").glob("*.json"))
LISTINGS = [
    *sorted((REPO / "tests" / "examples").glob("*.tools.json")),
    *sorted((REPO / "tests" / "mcp").glob("*.tools.json")),
    REPO / "bindings-node" / "test" / "fixtures" / "hostile.tools.json",
]
# The describe.json every generated package serves from (metadata.py reads
# Python's; Rust's and TypeScript's are the same bytes for the same listing).
PACKAGE_DESCRIBE = sorted([
    *(REPO / "generated-samples").glob("*/*/describe.json"),
    *(REPO / "generated-samples").glob("*/*/src/describe.json"),
    REPO / "examples" / "python" / "weather_tools" / "describe.json",
    REPO / "examples" / "typescript" / "weather-tools" / "src" / "describe.json",
])
BASE = "urn:flow:schema"


def signature_schemas(signature: dict[str, Any]) -> Iterator[Any]:
    for _name, schema in signature["params"]:
        yield schema
    yield signature["ok"]
    yield signature["err"]


def listing_texts() -> Iterator[tuple[str, str]]:
    for path in LISTINGS:
        yield path.name, path.read_text(encoding="utf-8")
    for path in VECTORS:
        listing = json.loads(path.read_text(encoding="utf-8")).get("listing")
        if isinstance(listing, dict):
            yield path.name, json.dumps(listing)
        elif listing == "weather":
            yield path.name, WEATHER_LISTING.read_text(encoding="utf-8")


def collect() -> list[Any]:
    """`(where, schema)` for every schema, as pytest params."""
    out: list[Any] = []

    def add(where: str, signature: dict[str, Any]) -> None:
        for i, schema in enumerate(signature_schemas(signature)):
            out.append(pytest.param(schema, id=f"{where}/{i}"))

    for path in VECTORS:
        file = json.loads(path.read_text(encoding="utf-8"))
        for case in file["cases"]:
            for member in ("signature", "canonical_signature"):
                if member in case:
                    add(f"{path.stem}/{case['name']}/{member}", json.loads(case[member]))
            if file["kind"] == "call_view" and case.get("ok"):
                out.append(pytest.param(case["schema"], id=f"{path.stem}/{case['name']}/schema"))
    for name, text in listing_texts():
        for tool in json.loads(text)["tools"]:
            for stripped in (False, True):
                try:
                    signature = flow_toolkit.tool_signature(text, tool["tool"], stripped=stripped)
                except flow_toolkit.DecodeError as refused:
                    # Tools the vectors hold because they cannot be served.
                    assert refused.rule in ("cannot-cross", "not-servable"), str(refused)
                    continue
                add(f"{name}/{tool['tool']}/{'canonical' if stripped else 'describe'}", json.loads(signature))
    for path in PACKAGE_DESCRIBE:
        for entry in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            add(f"{path.relative_to(REPO)}/{entry['tool']}", entry["signature"])
    return out


def refs(schema: Any) -> Iterator[str]:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref":
                yield value
            elif key in ("$defs", "properties"):
                for member in value.values():
                    yield from refs(member)
            else:
                yield from refs(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from refs(item)


SCHEMAS = collect()


def test_the_schemas_include_the_hard_keys() -> None:
    """The collection is not empty, and holds keys a fragment must encode."""
    texts = [json.dumps(p.values[0]) for p in SCHEMAS]
    assert len(texts) > 200
    assert any("%3C" in t for t in texts), "no instantiated generic key"
    assert any("%20" in t or "%C3" in t or "%22" in t for t in texts), "no key with a space, quote or non-ASCII"


@pytest.mark.parametrize("schema", SCHEMAS)
def test_every_ref_resolves_to_its_own_defs_entry(schema: Any) -> None:
    Draft202012Validator.check_schema(schema)
    registry: Registry[Any] = Registry().with_resource(BASE, DRAFT202012.create_resource(schema))
    resolver = registry.resolver(base_uri=BASE)
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
    targets: dict[str, int] = {}
    for ref in refs(schema):
        contents = resolver.lookup(ref).contents
        matches = [key for key, entry in defs.items() if entry is contents]
        assert len(matches) == 1, f"{ref} resolves to no $defs entry of this schema"
        targets[ref] = id(contents)
    # One entry per reference, and every entry is referred to.
    assert len(set(targets.values())) == len(targets)
    assert len(targets) == len(defs)


def test_values_validate_through_instantiated_refs() -> None:
    """The weather vectors' Page<Station> values validate against
    list_stations's success schema: the validator follows `Page%3C...%3E`."""
    listing = WEATHER_LISTING.read_text(encoding="utf-8")
    tool = "github.com/acme/weather@1.2.0/weather.flow.list_stations"
    ok = json.loads(flow_toolkit.tool_signature(listing, tool))["ok"]
    assert "%3C" in ok["$ref"]
    validator = Draft202012Validator(ok)
    page_of_station = next(t["ok"] for t in json.loads(listing)["tools"] if t["tool"] == tool)
    file = json.loads((REPO / "tests" / "vectors" / "decode-weather.json").read_text(encoding="utf-8"))
    values = [json.loads(c["canonical"]) for c in file["cases"] if "canonical" in c and c["type"] == page_of_station]
    assert len(values) >= 3
    for value in values:
        validator.validate(value)
    # And it is really asked: a page whose items are no stations is refused.
    assert not validator.is_valid({"items": [{"id": "x"}]})
