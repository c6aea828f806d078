"""The guard's answers, byte for byte, are those recorded in data/guard/answer_digests.json.

The guard's speed work must not change a byte of what it answers. The
digests were taken from the route's answer as the fast path writes it (and the
SDK's report, with the reference's rules alone) before that work, over the
benchmark's 1,000-tool catalogue and seeded tool sets from the differential
pool with every option. A digest that differs names its case. When the guard's
answers are meant to change, write the digests again:

    cd toolform/tests && ../../.venv/bin/python -m server.test_guard_answer_bytes
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from toolform.evidence import Evidence, open_evidence
from toolform.guard import guard
from toolform.limits import Limits
from toolform.server.exact_response import fast_json_bytes, json_bytes
from toolform.server.routes.guard import answer
from toolform.server.schemas import GuardRequest

from support.guard_generated import catalogue, openai_tools, options, pool
from support.paths import DATA

DIGESTS = DATA / "guard" / "answer_digests.json"
_SEEDS = range(300)
_REFERENCE_SEEDS = range(100)


def _route_bytes(evidence: Evidence, body: dict[str, Any]) -> bytes:
    return fast_json_bytes(answer(Limits(), evidence, GuardRequest.model_validate(body)))


def _cases(evidence: Evidence) -> Iterator[tuple[str, bytes]]:
    sentences = pool()
    tools = catalogue(1000, sentences)
    for strictness, action in (("strict", "strip"), ("standard", "report"), ("lenient", "drop_descriptions")):
        body = {"tools": {"source": "openai", "payload": tools}, "strictness": strictness, "action": action}
        yield f"catalogue:{strictness}:{action}", _route_bytes(evidence, body)
    for seed in _SEEDS:
        body = {"tools": {"source": "openai", "payload": openai_tools(seed, sentences)}, **options(seed)}
        yield f"generated:{seed}", _route_bytes(evidence, body)
    for seed in _REFERENCE_SEEDS:
        chosen = options(seed)
        report = guard(
            {"source": "openai", "payload": openai_tools(seed, sentences)},
            strictness=chosen["strictness"],
            action=chosen["action"],
            strip_at=chosen["strip_at"],
            scope=chosen["scope"],
            reference_only=True,
            evidence=evidence,
        )
        yield f"reference_only:{seed}", json_bytes(report.to_dict())


def digests(evidence: Evidence) -> dict[str, str]:
    return {name: hashlib.sha256(written).hexdigest() for name, written in _cases(evidence)}


@pytest.fixture(scope="module")
def recorded() -> dict[str, str]:
    return dict(json.loads(DIGESTS.read_text(encoding="utf-8")))


def test_every_answer_is_the_recorded_one(recorded: dict[str, str], evidence: Evidence) -> None:
    answered = digests(evidence)
    assert set(answered) == set(recorded)
    differing = [name for name in recorded if answered[name] != recorded[name]]
    assert not differing, f"{len(differing)} answers changed, first {differing[:5]}"


if __name__ == "__main__":
    DIGESTS.write_text(json.dumps(digests(open_evidence()), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sys.exit(0)
