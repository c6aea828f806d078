"""The advisor against the reference: generated situations sent to its /api/v1/recommend and to our SDK.

Every member of the answer is compared; advisor_differences.py names what is
set aside. TOOLFORM_DIFF_CASES scales the number of situations (twenty per
case: a recommendation is cheap); the seeds are fixed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from toolform.advisor.advise import advise
from toolform.evidence import Evidence
from toolform.server.app import create_app
from toolform.server.settings import Settings

from support import toolsets
from support.advisor_differences import comparable
from support.advisor_situations import situation
from support.differential import mismatches
from support.serving import Server

CASES = int(os.environ.get("TOOLFORM_DIFF_CASES", "12")) * 20


def _ours(evidence: Evidence, body: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(json.dumps(advise(evidence, body["situation"]).to_dict()))
    return answer


@pytest.mark.parametrize("seed", range(CASES))
def test_recommend_answers_as_the_reference(reference: Server, evidence: Evidence, seed: int) -> None:
    body = {"situation": situation(seed)}
    reply = reference.post("/api/v1/recommend", body)
    assert reply.status == 200, (body, reply.body)
    assert mismatches(comparable(_ours(evidence, body)), comparable(reply.json())) == [], body


def test_the_generated_situations_reach_every_basis_and_strategy(reference: Server) -> None:
    """The comparison means something only if the situations cover every kind of basis and strategy."""
    bases, strategies = set(), set()
    for seed in range(min(CASES, 240)):
        answer = reference.post("/api/v1/recommend", {"situation": situation(seed)}).json()
        bases.add(answer["basis"].split(":")[0])
        strategies.add(answer["catalogue"]["strategy"])
    assert bases == {"checkpoint", "anchor", "family", "pooled"}
    assert strategies == {"one_shot", "retrieve", "two_stage"}


TOOL_CASES = int(os.environ.get("TOOLFORM_DIFF_CASES", "12")) * 2


@pytest.mark.parametrize("seed", range(TOOL_CASES))
def test_recommend_on_tools_answers_as_the_reference(reference: Server, seed: int, tmp_path: Path) -> None:
    """With tools: the count, the tier and each block's tokens come from the tools; both servers' routes compared."""
    tools = toolsets.tool_set(seed)
    body: dict[str, Any] = {
        "situation": {k: v for k, v in situation(seed).items() if k not in ("n_tools", "tier")},
        "tools": {"source": "openai", "payload": toolsets.openai_list(tools)},
    }
    reply = reference.post("/api/v1/recommend", body)
    ours = TestClient(create_app(Settings(evidence_dir=str(tmp_path))), base_url="http://127.0.0.1")
    answer = ours.post("/api/v1/recommend", json=body)
    assert answer.status_code == reply.status
    if reply.status == 200:
        assert mismatches(comparable(answer.json()), comparable(reply.json())) == [], body
    else:
        assert answer.json() == reply.json()
