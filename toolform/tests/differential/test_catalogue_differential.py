"""The catalogue routes, ours against the reference's, on generated catalogues and queries.

Retrieval (every tool's rank and score, selected, k, the kept tools), plans
across tool counts, windows, budgets, formats, queries and k, and the two-stage
prompt are compared member by member. The seeds are fixed, so a failure names a
case that reproduces. TOOLFORM_DIFF_CASES scales the number of catalogues; one
case is about ten requests to each server on loopback.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest

from support import catalogues
from support.differences import Request
from support.differential import compare
from support.serving import Server

CASES = int(os.environ.get("TOOLFORM_DIFF_CASES", "12"))
#: Tool counts around the plan's thresholds (32 and 64) and the measured counts the reasons quote.
SIZES = [1, 3, 7, 8, 12, 23, 31, 32, 46, 63, 64, 91, 127, 128, 182, 300]
FORMATS = ["xml_schema", "json_schema_openai", "typescript", "json_minimal", "natural_language", "python_stub"]


def _agree(ours: Server, reference: Server, request: Request) -> None:
    found = compare(ours, reference, request)
    assert not found, f"{request.path} {json.dumps(request.body)[:300]}:\n  " + "\n  ".join(found[:12])


def _tools(seed: int, size: int) -> dict[str, Any]:
    return {"source": "openai", "payload": catalogues.catalogue(seed, size)}


@pytest.mark.parametrize("case", range(CASES))
def test_retrieval_agrees(ours: Server, reference: Server, case: int) -> None:
    rng = random.Random(1000 + case)
    size = rng.choice([5, 20, 60, 150])
    tools = _tools(case, size)
    names = [tool["function"]["name"] for tool in tools["payload"]]
    for draw in range(4):
        body: dict[str, Any] = {"tools": tools, "query": catalogues.query(100 * case + draw)}
        if rng.random() < 0.7:
            body["k"] = rng.randint(1, 12)
        if rng.random() < 0.5:
            body["keep"] = rng.sample(names, k=rng.randint(0, 3))
        _agree(ours, reference, Request("POST", "/api/v1/catalogue/retrieve", body))


@pytest.mark.parametrize("case", range(CASES))
def test_plans_agree(ours: Server, reference: Server, case: int) -> None:
    rng = random.Random(2000 + case)
    for size in rng.sample(SIZES, k=4):
        body: dict[str, Any] = {"tools": _tools(10_000 + case * 100 + size, size)}
        body["format"] = rng.choice(FORMATS)
        if rng.random() < 0.4:
            body["context_tokens"] = rng.choice([1, 400, 2_000, 8_192, 32_768, 131_072, 1_048_576])
        if rng.random() < 0.4:
            body["budget_tokens"] = rng.choice([1, 50, 500, 5_000, 50_000, 2_000_000])
        if rng.random() < 0.6:
            body["query"] = rng.choice(["", catalogues.query(case * 7 + size)])
        if rng.random() < 0.5:
            body["k"] = rng.randint(1, 16)
        _agree(ours, reference, Request("POST", "/api/v1/catalogue/plan", body))
    # A block over the budget with a request: retrieval when the top k fit the budget, two stage otherwise.
    size = rng.choice([12, 40, 90])
    body = {"tools": _tools(30_000 + case, size), "query": catalogues.query(case), "k": rng.randint(1, 10)}
    body["budget_tokens"] = rng.choice([60, 300, 900, 2_000])
    _agree(ours, reference, Request("POST", "/api/v1/catalogue/plan", body))


@pytest.mark.parametrize("case", range(CASES))
def test_two_stage_prompts_agree(ours: Server, reference: Server, case: int) -> None:
    rng = random.Random(3000 + case)
    body = {
        "tools": _tools(20_000 + case, rng.choice([1, 4, 30, 80])),
        "request": rng.choice(["", catalogues.query(case), "Naïve café, 東京?\nSecond line"]),
        "include_descriptions": rng.choice([True, False]),
    }
    _agree(ours, reference, Request("POST", "/api/v1/catalogue/two-stage/prompt", body))


#: Descriptions whose summary the index cuts and trims: space and full stops at either end, a full stop inside
#: a token, before a line break or a no-break space, several, and nothing left.
EDGE_DESCRIPTIONS = [
    "  a. b", " \n x ", "a .b", "a . b", "x . ", "x .", ".", " . ", "..", " .. y. z", "a... b", "...x", "v1.2 ok",
    "a.\nb", "x.\u00a0y", "\u00a0x\u00a0", "x\u2028", "\tx\t", "a\u3000", "ab\r\n", "  ", "a?",
]  # fmt: skip


def test_two_stage_summaries_of_edge_descriptions_agree(ours: Server, reference: Server) -> None:
    payload = [{"type": "function", "function": {"name": f"t{i}", "description": d}}
               for i, d in enumerate(EDGE_DESCRIPTIONS)]  # fmt: skip
    body = {"tools": {"source": "openai", "payload": payload}, "request": "r", "include_descriptions": True}
    _agree(ours, reference, Request("POST", "/api/v1/catalogue/two-stage/prompt", body))


REFUSALS: list[tuple[str, dict[str, Any]]] = [
    ("retrieve", {"query": "x", "k": 0}),
    ("retrieve", {"query": "x", "keep": ["no_such_tool"]}),
    ("retrieve", {"query": None}),
    ("retrieve", {}),
    ("retrieve", {"query": "x", "method": "embedding"}),
    ("retrieve", {"query": "x", "extra": 1}),
    ("retrieve", {"query": "x", "k": "3"}),
    ("plan", {"format": "names_then_schema"}),
    ("plan", {"format": "nope"}),
    ("plan", {"format": "xml_schem"}),
    ("plan", {"context_tokens": 0}),
    ("plan", {"budget_tokens": -5}),
    ("plan", {"k": 0}),
    ("two-stage/prompt", {}),
    ("two-stage/prompt", {"request": 3}),
    ("retrieve", {"query": "x" * 1_000_001}),
    ("two-stage/prompt", {"request": "x" * 1_000_001}),
    ("plan", {"query": "x" * 1_000_001}),
]


@pytest.mark.parametrize(("route", "members"), REFUSALS)
def test_refusals_agree(ours: Server, reference: Server, route: str, members: dict[str, Any]) -> None:
    body = {"tools": _tools(7, 3), **members}
    _agree(ours, reference, Request("POST", f"/api/v1/catalogue/{route}", body))


@pytest.mark.parametrize("route", ["retrieve", "plan", "two-stage/prompt"])
def test_tool_count_limits_and_empty_catalogues_agree(ours: Server, reference: Server, route: str) -> None:
    over = {"source": "openai", "payload": [{"type": "function", "function": {"name": f"t{i}"}} for i in range(2001)]}
    for tools in (over, {"source": "openai", "payload": []}):
        body = {"tools": tools, "query": "x", "request": "x"} if route != "plan" else {"tools": tools}
        if route == "retrieve":
            body.pop("request")
        if route == "two-stage/prompt":
            body.pop("query")
        _agree(ours, reference, Request("POST", f"/api/v1/catalogue/{route}", body))


def test_retrieval_at_the_references_limit_agrees(ours: Server, reference: Server) -> None:
    tools = _tools(99, 2000)
    for seed in range(3):
        body = {"tools": tools, "query": catalogues.query(seed), "k": 8}
        _agree(ours, reference, Request("POST", "/api/v1/catalogue/retrieve", body))
