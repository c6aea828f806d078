"""The guard against the reference: generated tool sets sent to its /api/v1/guard and to our SDK, answers compared.

Every member of the answer is compared (findings with their text and message,
counts, removed, kept, summary, the cleaned tools in both forms, the evidence);
guard_differences.py names what is set aside. TOOLFORM_DIFF_CASES scales the
number of sets (ten per case: a guard request is cheap); the seeds are fixed.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from toolform.guard import guard

from support import guard_generated
from support.differential import mismatches
from support.guard_differences import comparable_findings, has_invisible, without_empty_openai_descriptions
from support.serving import Server

CASES = int(os.environ.get("TOOLFORM_DIFF_CASES", "12")) * 10
POOL = guard_generated.pool()


def _ours(body: dict[str, Any]) -> dict[str, Any]:
    options = {k: body[k] for k in ("strictness", "action", "strip_at", "scope")}
    report = guard(body["tools"], reference_only=True, **options)
    # Through JSON, as a route would answer it.
    answer: dict[str, Any] = json.loads(json.dumps(report.to_dict()))
    return answer


@pytest.mark.parametrize("seed", range(CASES))
def test_guard_answers_as_the_reference(reference: Server, seed: int) -> None:
    body: dict[str, Any] = {
        "tools": {"source": "openai", "payload": guard_generated.openai_tools(seed, POOL)},
        **guard_generated.options(seed),
    }
    reply = reference.post("/api/v1/guard", body)
    assert reply.status == 200, reply.body
    theirs, ours = reply.json(), _ours(body)
    for answer in (theirs, ours):
        answer["findings"] = comparable_findings(answer["findings"])
        answer["cleaned"] = without_empty_openai_descriptions(answer["cleaned"])
        if has_invisible(body["tools"]):
            for member in ("counts", "max_severity", "flagged_tools", "removed", "kept", "summary", "tools", "cleaned"):
                answer.pop(member)
    assert mismatches(ours, theirs) == []


def test_the_generated_sets_plant_every_reference_rule(reference: Server) -> None:
    """The comparison means something only if the reference itself finds every rule in the sets."""
    seen: set[str] = set()
    for seed in range(min(CASES, 60)):
        body = {
            "tools": {"source": "openai", "payload": guard_generated.openai_tools(seed, POOL)},
            "strictness": "strict",
        }
        seen |= {f["rule_id"] for f in reference.post("/api/v1/guard", body).json()["findings"]}
    assert {f"TS1{n:02d}" for n in range(1, 11)} <= seen
