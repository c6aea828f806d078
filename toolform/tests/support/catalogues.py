"""Generated catalogues and queries for the catalogue's differential test: seeded, with names in
snake_case, camelCase and with digits, shared and rare words (so idf and length both matter),
accents and odd characters in the prose, and queries that mix catalogue words with noise."""

from __future__ import annotations

import random
from typing import Any

VERBS = ["get", "list", "create", "update", "delete", "search", "send", "read", "fetch", "book", "cancel"]
NOUNS = [
    "weather", "forecast", "file", "invoice", "ticket", "user", "report", "order", "flight", "hotel",
    "email", "calendar", "event", "payment", "map", "route", "stock", "quote", "playlist", "song",
]  # fmt: skip
PROSE = [
    "Returns the", "current", "for a city", "by id", "with filters", "Naïve café", "東京", "über",
    "HTTP", "API", "v2", "e-mail", "isn't", "3.5 stars", "the user's", "in Paris tomorrow", "KELVIN",
]  # fmt: skip
PARAMS = ["city", "days", "userId", "query", "limit", "start_date", "endDate", "page2", "currency", "id"]


def _name(rng: random.Random, taken: set[str]) -> str:
    while True:
        verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
        style = rng.random()
        if style < 0.5:
            name = f"{verb}_{noun}"
        elif style < 0.8:
            name = f"{verb}{noun.capitalize()}"
        else:
            name = f"{verb}_{noun}{rng.randint(1, 99)}"
        if rng.random() < 0.3:
            name += f"_{rng.choice(NOUNS)}"
        if name not in taken:
            taken.add(name)
            return name


def _sentence(rng: random.Random, noun: str) -> str:
    words = [rng.choice(VERBS).capitalize(), rng.choice(["a", "the", "every"]), noun]
    words += rng.sample(PROSE, k=rng.randint(0, 4)) + rng.sample(NOUNS, k=rng.randint(0, 3))
    return " ".join(words) + rng.choice([".", "", "!", " (beta)."])


def catalogue(seed: int, size: int) -> list[dict[str, Any]]:
    """``size`` OpenAI function tools drawn from ``seed``."""
    rng = random.Random(seed)
    taken: set[str] = set()
    tools = []
    for _ in range(size):
        name = _name(rng, taken)
        function: dict[str, Any] = {"name": name}
        if rng.random() < 0.85:
            function["description"] = _sentence(rng, rng.choice(NOUNS))
        properties: dict[str, Any] = {}
        for param in rng.sample(PARAMS, k=rng.randint(0, 4)):
            schema: dict[str, Any] = {"type": rng.choice(["string", "integer"])}
            if rng.random() < 0.5:
                schema["description"] = _sentence(rng, rng.choice(NOUNS))
            properties[param] = schema
        function["parameters"] = {"type": "object", "properties": properties}
        tools.append({"type": "function", "function": function})
    return tools


def query(seed: int) -> str:
    """A request mixing catalogue words (some repeated) and words no tool has."""
    rng = random.Random(seed)
    words = rng.sample(NOUNS, k=rng.randint(1, 3)) + rng.sample(VERBS, k=rng.randint(0, 2))
    words += rng.sample(["please", "tomorrow", "Paris", "userId", "café", "ÜBER", "2", "the"], k=rng.randint(0, 3))
    if rng.random() < 0.3:
        words.append(words[0])
    rng.shuffle(words)
    return " ".join(words) + rng.choice(["?", "", "."])
