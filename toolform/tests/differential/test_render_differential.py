"""Renders of generated tool sets, ours against the reference's /api/v1/render, in every format.

Each generated tool set (toolsets.py: ``$ref`` chains, unions with null, enums,
constraints, odd descriptions) is read into the IR by the reference itself, so
both sides render the very same IR; every format is rendered with an option
combination and a prompt combination drawn by the seed, and the whole
/render body is compared (tool block, instructions, system prompt, messages,
chars, tokens, format, protocol, warnings, hidden fields). render/compare is
compared on the same IR. TOOLFORM_DIFF_CASES sets how many tool sets; the
seeds are fixed, so a failure names a case that reproduces. One case is
about 135 requests to the reference on loopback (about a second).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from toolform.errors import ToolFormError
from toolform.render import RenderOptions, compare, render

from support import render_differences, toolsets
from support.differential import mismatches
from support.evidence_files import evidence_json
from support.serving import Server

CASES = int(os.environ.get("TOOLFORM_DIFF_CASES", "12"))
LARGE_SEED = 200_000
FORMAT_IDS = list(evidence_json("formats")["data"])
PROTOCOL_IDS = list(evidence_json("protocols")["data"])

OPTION_CHOICES: dict[str, list[Any]] = {
    "descriptions": [True, False],
    "constraints": [True, False],
    "defaults": [True, False],
    "returns": [True, False],
    "minify": [False, True],
    "case_convention": ["as_is", "snake", "camel", "pascal", "kebab", "screaming"],
}


def _draw(seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options and the prompt members (persona, request, clauses, protocol) for one case."""
    rng = random.Random(seed)
    options = {name: rng.choice(values) for name, values in OPTION_CHOICES.items()}
    prompt: dict[str, Any] = {
        "persona": rng.choice(["agent", "terse", "bare", "expert"]),
        "null_clause": rng.choice([True, False]),
        "trust_line": rng.choice([True, False]),
        "request": rng.choice([None, "", "Forecast for Denver", "Naïve café, 東京?"]),
        "protocol": rng.choice([None, None, *PROTOCOL_IDS]),
    }
    return options, prompt


def _reference_ir(reference: Server, seed: int) -> list[dict[str, Any]]:
    payload = toolsets.openai_list(toolsets.tool_set(seed))
    loaded = reference.post("/api/v1/tools/load", {"tools": {"source": "openai", "payload": payload}})
    assert loaded.status == 200, loaded.body
    tools: list[dict[str, Any]] = loaded.json()["tools"]
    return tools


def _ours(ir: list[dict[str, Any]], format_id: str, options: dict[str, Any], prompt: dict[str, Any]) -> Any:
    try:
        rendered = render(
            {"tools": ir},
            format_id,
            prompt["protocol"],
            RenderOptions(**options),
            request=prompt["request"],
            persona=prompt["persona"],
            null_clause=prompt["null_clause"],
            trust_line=prompt["trust_line"],
        )
    except ToolFormError as error:
        return {"error": error.code, "detail": str(error), "status": error.status}
    return rendered.to_dict()


@pytest.mark.parametrize("seed", range(CASES))
def test_renders_of_generated_tool_sets_agree_in_every_format(reference: Server, seed: int) -> None:
    ir = _reference_ir(reference, seed)
    options, prompt = _draw(seed)
    found = []
    for format_id in FORMAT_IDS:
        body = {"tools": {"source": "ir", "payload": {"tools": ir}}, "format": format_id, "options": options, **prompt}
        answer = reference.post("/api/v1/render", body)
        ours, theirs = _ours(ir, format_id, options, prompt), answer.json()
        render_differences.adjust(ours, theirs)
        found += [f"{format_id}: {m}" for m in mismatches(ours, theirs)]
    assert not found, f"seed {seed}, options {json.dumps(options)}, {json.dumps(prompt)}:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("seed", range(CASES))
def test_compare_of_generated_tool_sets_agrees(reference: Server, seed: int) -> None:
    ir = _reference_ir(reference, seed)
    options, _ = _draw(seed)
    rng = random.Random(seed)
    formats = None if seed % 2 == 0 else rng.sample(FORMAT_IDS, k=5)
    body = {"tools": {"source": "ir", "payload": {"tools": ir}}, "formats": formats, "options": options}
    answer = reference.post("/api/v1/render/compare", body)
    ours = compare({"tools": ir}, formats, RenderOptions(**options)).to_dict()
    assert mismatches(ours, answer.json()) == []


@pytest.mark.parametrize("difference", render_differences.DIFFERENCES, ids=lambda d: d.name)
def test_every_named_render_difference_is_still_needed(reference: Server, difference: object) -> None:
    """Each difference's witness render differs, and that difference alone makes the two answers agree."""
    assert isinstance(difference, render_differences.RenderDifference)
    ir, format_id = difference.witness
    answer = reference.post("/api/v1/render", {"tools": {"source": "ir", "payload": ir}, "format": format_id})
    ours, theirs = render(ir, format_id).to_dict(), answer.json()
    assert mismatches(ours, theirs) != []
    assert difference.adjust(ours, theirs)
    render_differences.adjust(ours, theirs)
    assert mismatches(ours, theirs) == []


def test_compare_of_a_200_tool_set_agrees(reference: Server) -> None:
    """Every study format's size on 200 generated tools: one request, every renderer at scale."""
    payload = toolsets.openai_list(toolsets.tool_set(LARGE_SEED, count=200))
    loaded = reference.post("/api/v1/tools/load", {"tools": {"source": "openai", "payload": payload}})
    ir = loaded.json()["tools"]
    answer = reference.post("/api/v1/render/compare", {"tools": {"source": "ir", "payload": {"tools": ir}}})
    assert mismatches(compare({"tools": ir}).to_dict(), answer.json()) == []
