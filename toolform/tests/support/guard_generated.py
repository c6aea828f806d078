"""Generated tool sets for the guard's differential test: descriptions built from a pool of sentences.

The pool (data/guard/differential_sentences.txt and the fixture's texts) mixes
documentation, each kind of planted instruction and markup; a seed picks 1 to 3
sentences per text, joined by a space, two spaces or a line break, sometimes with
an invisible character put in, for tool descriptions, parameter descriptions,
defaults and enum values. The same seed gives the same set.
"""

from __future__ import annotations

import random
from typing import Any

from support.evidence_files import evidence_json
from support.paths import DATA

POOL_FILE = DATA / "guard" / "differential_sentences.txt"
NAMES = ["notify_user", "get_token", "search_docs", "send_email"]
PARAMS = ["notify", "user_id", "message", "channel"]
INVISIBLE = ["\u200b", "\u202e", "\u2066", "\ufeff", "\u00ad", "\u200d"]


def pool() -> list[str]:
    sentences = [line for line in POOL_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
    cases = evidence_json("guard_cases")["data"]["cases"]
    return sentences + [c["text"] for c in cases if len(c["text"]) < 300]


def _text(rng: random.Random, sentences: list[str]) -> str:
    text = rng.choice([" ", "  ", "\n", " "]).join(rng.sample(sentences, rng.randint(1, 3)))
    if rng.random() < 0.1:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(INVISIBLE) + text[at:]
    return text


def openai_tools(seed: int, sentences: list[str]) -> list[dict[str, Any]]:
    """Two to four OpenAI tools, prose from the pool."""
    rng = random.Random(seed)
    tools: list[dict[str, Any]] = []
    for name in NAMES[: rng.randint(2, 4)]:
        properties: dict[str, Any] = {}
        for param in PARAMS[: rng.randint(0, 4)]:
            schema: dict[str, Any] = {"type": "string"}
            if rng.random() < 0.6:
                schema["description"] = _text(rng, sentences)
            if rng.random() < 0.05:
                # Past the 500 characters TS108 allows a parameter.
                schema["description"] = " ".join(rng.choice(sentences[:8]) for _ in range(30))
            if rng.random() < 0.15:
                schema["default"] = _text(rng, sentences)
            if rng.random() < 0.15:
                schema["enum"] = [_text(rng, sentences), "plain"]
            properties[param] = schema
        tools.append(
            {
                "type": "function",
                "function": {
                    "name": name,
                    "description": _text(rng, sentences),
                    "parameters": {"type": "object", "properties": properties},
                },
            }
        )
    return tools


def catalogue(count: int, sentences: list[str]) -> list[dict[str, Any]]:
    """``count`` OpenAI tools named ``tool_0000`` on, from seeds 0 on, shuffled: the guard benchmark's catalogue."""
    tools: list[dict[str, Any]] = []
    seed = 0
    while len(tools) < count:
        for tool in openai_tools(seed, sentences):
            tool["function"]["name"] = f"tool_{len(tools):04d}"
            tools.append(tool)
        seed += 1
    random.Random(0).shuffle(tools)
    return tools[:count]


def options(seed: int) -> dict[str, str]:
    """Strictness, action, strip_at and scope for the seed."""
    rng = random.Random(seed + 1_000_003)
    return {
        "strictness": rng.choice(["strict", "standard", "lenient"]),
        "action": rng.choice(["report", "strip", "drop_descriptions"]),
        "strip_at": rng.choice(["high", "medium", "low"]),
        "scope": rng.choice(["flagged", "all"]),
    }
