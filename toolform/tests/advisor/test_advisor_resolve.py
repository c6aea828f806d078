"""Model resolution: which evidence a name points at, by the rules the reference follows (found by running it)."""

from __future__ import annotations

import pytest
from toolform.advisor import Situation, resolve
from toolform.advisor.study import Study
from toolform.errors import BadRequest
from toolform.evidence import Evidence


@pytest.fixture(scope="module")
def study(evidence: Evidence) -> Study:
    return Study(evidence)


# (name, matched_by, what it resolved to: checkpoint id, anchor label or family key, size)
CASES = [
    ("Qwen/Qwen3-8B", "checkpoint", "Qwen/Qwen3-8B", 8.0),
    ("QWEN/QWEN3-8B", "checkpoint", "Qwen/Qwen3-8B", 8.0),
    ("meta-llama/Llama-3.1-70B-Instruct", "checkpoint", "meta-llama/Llama-3.1-70B-Instruct", 70.0),
    ("claude-opus-5-5", "anchor", "Claude Opus 5.5 (medium)", None),
    ("claude-opus-5-5-low", "anchor", "Claude Opus 5.5 (low)", None),
    ("Claude_Haiku_4_5", "anchor", "Claude Haiku 4.5", None),
    ("claude-haiku-4-5-20251001", "anchor", "Claude Haiku 4.5", None),
    ("gpt-oss-120b", "anchor", "gpt-oss-120b (medium)", 120.0),
    ("arc/gpt-oss-120b-high", "anchor", "gpt-oss-120b (high)", 120.0),
    ("GPT-6 astra", "anchor", "GPT-6 astra (low)", None),
    ("claude-opus-5-5-high", "zoo", "claude", None),
    ("arc/gpt-oss-120b", "zoo", "gpt-oss", 120.0),
    ("Qwen/Qwen3-14B-AWQ", "zoo", "qwen3", 14.0),
    ("Qwen/Qwen3-8B-Base", "zoo", "qwen3", 8.0),
    ("my-org/qwen3-8b-finetune", "pattern", "qwen3", 8.0),
    ("qwen3.5-122b", "pattern", "qwen3.5-large", 122.0),
    ("qwen3.5-80b", "pattern", "qwen3.5", 80.0),
    ("gpt-oss-120b-v2", "pattern", "gpt-oss", 120.0),
    ("gemma4-e2b", "pattern", "gemma4", 2.0),
    ("x/claude-opus-5-5", "none", None, None),
    ("foo-30B-A3B", "none", None, 30.0),
    ("acme/model-500m", "none", None, None),
]


@pytest.mark.parametrize(("name", "matched_by", "target", "size"), CASES, ids=[c[0] for c in CASES])
def test_a_name_resolves_as_the_reference_resolves_it(
    name: str, matched_by: str, target: str | None, size: float | None, study: Study
) -> None:
    resolution = resolve(study, name, None, None)
    assert resolution.matched_by == matched_by
    found = resolution.checkpoint or (resolution.anchor.label if resolution.anchor else None) or resolution.family
    assert found == target
    assert resolution.params_b == size


def test_a_family_given_outright_wins_over_the_name(study: Study) -> None:
    resolution = resolve(study, "Qwen/Qwen3-8B", "llama3", None)
    assert (resolution.matched_by, resolution.family, resolution.query) == ("family", "llama3", "Qwen/Qwen3-8B")


def test_the_callers_size_wins(study: Study) -> None:
    assert resolve(study, "Qwen/Qwen3-8B", None, 9.5).params_b == 9.5


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"params_b": -1.0}, r"situation\.params_b: -1\.0 is not a positive, finite number"),
        ({"n_tools": 0}, r"situation\.n_tools: must be a positive integer"),
        ({"objective": "speed"}, r"situation\.objective: 'speed' is not one of accuracy, cost"),
        ({"candidates": []}, r"situation\.candidates: must be a non-empty list"),
        ({"colour": "red"}, r"situation: unknown member\(s\) colour"),
    ],
)
def test_a_bad_situation_names_the_member_and_the_rule(members: dict[str, object], message: str) -> None:
    with pytest.raises(BadRequest, match=message):
        Situation.from_dict(members)
