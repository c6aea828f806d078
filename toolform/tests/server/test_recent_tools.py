"""The server's recent tool sets: the same tools give the same tool set once read, and nothing else does."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from typing import Any

import pytest
from toolform.errors import LoaderError
from toolform.loaders import load
from toolform.parse import parse_reply
from toolform.server.recent_tools import RECENT_TOOL_SETS, recent_load

from support.parse_corpus import TOOLS, corpus


def _with_default(value: object) -> list[dict[str, Any]]:
    tools = copy.deepcopy(TOOLS)
    parameters = tools[0]["function"]["parameters"]
    first = next(iter(parameters["properties"]))
    parameters["properties"][first]["default"] = value
    return tools


def test_equal_tools_are_read_once_and_values_that_differ_in_kind_are_not_shared() -> None:
    first = recent_load("openai", copy.deepcopy(TOOLS))
    assert recent_load("openai", copy.deepcopy(TOOLS)) is first
    loaded = [recent_load("openai", _with_default(v)) for v in (1, 1.0, True, Decimal("1"), "1")]
    assert len({id(x) for x in loaded}) == len(loaded)
    assert recent_load("auto", copy.deepcopy(TOOLS)) is not first


def test_the_same_body_parsed_twice_is_read_once_whatever_its_values() -> None:
    # Two parses share no objects; the key must not depend on which objects a value is made of.
    text = json.dumps(_with_default({"a": [1, 1.5, True, None, "", "x" * 300], "b": -0.0}))
    first = recent_load("openai", json.loads(text))
    assert recent_load("openai", json.loads(text)) is first
    assert recent_load("openai", json.loads(text.replace("-0.0", "0.0"))) is not first
    # A value marshal cannot write keys by its repr: equal values still share, others do not.
    with_decimal = recent_load("openai", _with_default(Decimal("2.50")))
    assert recent_load("openai", _with_default(Decimal("2.50"))) is with_decimal
    assert recent_load("openai", _with_default(Decimal("2.5"))) is not with_decimal


def test_only_the_last_few_are_kept() -> None:
    oldest = recent_load("openai", _with_default("oldest"))
    for i in range(RECENT_TOOL_SETS):
        recent_load("openai", _with_default(f"newer {i}"))
    assert recent_load("openai", _with_default("oldest")) is not oldest


def test_a_tool_set_that_fails_to_load_fails_every_time() -> None:
    broken = [TOOLS[0], TOOLS[0]]  # the same name twice
    for _ in range(2):
        with pytest.raises(LoaderError, match="duplicate tool name"):
            recent_load("openai", copy.deepcopy(broken))


def test_replies_parsed_against_a_shared_tool_set_are_those_against_a_fresh_one() -> None:
    # Parsing never changes its tools: the whole corpus against one shared set gives what a fresh load gives.
    shared = recent_load("openai", copy.deepcopy(TOOLS)).toolset
    for case in corpus():
        body = case.body()
        options = {k: body[k] for k in ("rule", "validate", "lenient_fallback") if k in body}
        fresh = load("openai", copy.deepcopy(TOOLS)).toolset
        assert (
            parse_reply(shared, body["text"], body["protocol"], **options).to_dict()
            == parse_reply(fresh, body["text"], body["protocol"], **options).to_dict()
        ), body["text"][:80]


def test_the_key_is_written_once_for_a_request_that_asks_then_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolform.server.recent_tools as recent_tools

    written: list[object] = []
    key = recent_tools._key

    def counted(source: str, payload: object) -> bytes | str:
        written.append(payload)
        return key(source, payload)

    monkeypatch.setattr(recent_tools, "_key", counted)
    payload = copy.deepcopy(TOOLS)
    first = recent_load("openai", payload)
    assert recent_tools.is_recent("openai", payload)
    assert recent_load("openai", payload) is first
    assert len(written) == 2  # the first load, then the question, whose key the second load took
    # The kept key serves one load of that very payload object and source only.
    assert recent_load("openai", payload) is first
    assert len(written) == 3
    other = copy.deepcopy(TOOLS)
    recent_tools.is_recent("openai", payload)
    assert recent_load("openai", other) is first
    recent_tools.is_recent("openai", payload)
    assert recent_load("auto", payload) is not first
    assert len(written) == 7


def test_replies_parsed_with_the_shared_reading_are_those_parsed_afresh() -> None:
    from toolform.server.recent_tools import recent_reading

    loaded = recent_load("openai", copy.deepcopy(TOOLS))
    reading = recent_reading(loaded)
    assert reading is not None and recent_reading(loaded) is reading
    for case in corpus():
        body = case.body()
        options = {k: body[k] for k in ("rule", "validate", "lenient_fallback") if k in body}
        fresh = load("openai", copy.deepcopy(TOOLS)).toolset
        assert (
            parse_reply(loaded.toolset, body["text"], body["protocol"], reading=reading, **options).to_dict()
            == parse_reply(fresh, body["text"], body["protocol"], **options).to_dict()
        ), body["text"][:80]
    # A tool set no longer kept has no shared reading: its replies are read afresh.
    for n in range(RECENT_TOOL_SETS):
        recent_load("openai", _with_default(f"pushed out {n}"))
    assert recent_reading(loaded) is None
