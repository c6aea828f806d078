"""Generated situations for the advisor's differential test: seeded, so a failing case reproduces."""

from __future__ import annotations

import random
from typing import Any

from support.evidence_files import evidence_json

_ZOO = [m["id"] for m in evidence_json("zoo")["data"]["models"]]
_ANCHORS = [r["label"] for r in evidence_json("families")["data"]["rows"] if not r.get("family")]
_FAMILIES = list(evidence_json("zoo")["data"]["families"])
_CORE = [r["format_id"] for r in evidence_json("core_main")["data"]["rows"]]
_PROTOCOLS = ["xml_call", "nl_intent", "json_object", "python_call", "tool_call_tags", "json_array"]
_UNKNOWN = ["acme/model-{}b", "my-org/qwen3-{}b-finetune", "llama-3.3-{}b", "gemma-3-{}b", "qwen3.5-{}b", "foo-{}B-A3B"]


def _model(rng: random.Random) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        return str(rng.choice(_ZOO))
    if kind == 1:
        label = str(rng.choice(_ANCHORS))
        return rng.choice([label, label.lower().replace(" ", "-").replace("(", "").replace(")", "")])
    if kind == 2:
        return str(rng.choice(_ZOO)).lower()
    return rng.choice(_UNKNOWN).format(rng.choice([1, 3, 7, 8, 14, 32, 70, 120, 235]))


def situation(seed: int) -> dict[str, Any]:
    """One situation: a model or family, a count and tier, and now and then the other members."""
    rng = random.Random(seed)
    chosen: dict[str, Any] = {}
    if rng.random() < 0.75:
        chosen["model"] = _model(rng)
    elif rng.random() < 0.8:
        chosen["family"] = rng.choice(_FAMILIES)
    chosen["n_tools"] = rng.choice([1, 2, 3, 4, 6, 8, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 100, 128, 200, 256, 400])
    chosen["tier"] = rng.choice([1, 2, 3, 3, 4, 5])
    chosen["rule"] = rng.choice(["main", "main", "symmetric", "as_written"])
    if rng.random() < 0.3:
        chosen["objective"] = "cost"
        chosen["price"] = rng.choice(["frontier_api", "self_hosted"])
    if rng.random() < 0.15:
        chosen["protocol"] = rng.choice(_PROTOCOLS)
    if rng.random() < 0.15:
        chosen["token_budget"] = rng.choice([100, 500, 1500, 4000, 20000])
    if rng.random() < 0.15:
        chosen["context_tokens"] = rng.choice([2048, 8192, 32768, 131072])
    if rng.random() < 0.15:
        chosen["params_b"] = rng.choice([0.5, 3.0, 8.0, 70.0, 500.0])
    if rng.random() < 0.1:
        chosen["candidates"] = rng.sample(_CORE, rng.randint(1, 4))
    if rng.random() < 0.1:
        chosen["third_party_tools"] = True
    return chosen
