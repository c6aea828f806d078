"""The guard's two corpora (data/guard/injections.txt, data/guard/benign.txt) as tool sets, and their scores.

Each line becomes one tool, ``item_NNN``, whose text sits where the line says:
the tool's description, its ``query`` parameter's description, an enum value of
its ``mode`` parameter, or that parameter's default. Around it the tool is plain.
A corpus is scored from a guard answer (ours or the reference's, the same JSON):

- injections: recall at medium or above (a finding of that severity on the
  item's tool), and, for plants marked high, the share found high;
- benign: the share of tools with any finding at medium or above, and with a high one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from support.paths import DATA

DATA = DATA / "guard"
RANK = {"low": 1, "medium": 2, "high": 3}


@dataclass(frozen=True)
class Item:
    kind: str
    severity: str  # what the plant deserves; "none" for benign text
    where: str
    text: str
    params: tuple[str, ...] = ()  # parameters the text refers to, present in its tool as a real server has them
    siblings: tuple[str, ...] = ()  # other tools the text names, present in the catalogue


def _lines(name: str) -> list[list[str]]:
    rows = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("|", 3) if name == "injections.txt" else line.split("|"))
    return rows


_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(n))")


def _unescape(text: str) -> str:
    """``\\uXXXX``, ``\\UXXXXXXXX`` and ``\\n`` read as the characters they name; the rest as written."""
    return _ESCAPE.sub(lambda m: "\n" if m.group(3) else chr(int(m.group(1) or m.group(2), 16)), text)


def injections() -> list[Item]:
    return [Item(kind, severity, where, _unescape(text)) for kind, severity, where, text in _lines("injections.txt")]


def benign() -> list[Item]:
    items = []
    for where, text, *context in _lines("benign.txt"):
        named = dict(part.split("=", 1) for part in context)
        params = tuple(p for p in named.get("params", "").split(",") if p)
        siblings = tuple(t for t in named.get("tools", "").split(",") if t)
        items.append(Item("benign", "none", where, _unescape(text), params, siblings))
    return items


def tool_name(index: int) -> str:
    return f"item_{index:03d}"


def openai_tools(items: list[Item]) -> list[dict[str, Any]]:
    """One OpenAI tool per item, then one plain tool per sibling an item names."""
    tools = []
    siblings: list[str] = []
    for index, item in enumerate(items):
        siblings += [s for s in item.siblings if s not in siblings]
        query: dict[str, Any] = {"type": "string", "description": "What to look up."}
        mode: dict[str, Any] = {"type": "string", "enum": ["fast", "full"]}
        description = "Looks up a record."
        if item.where == "description":
            description = item.text
        elif item.where == "param":
            query["description"] = item.text
        elif item.where == "enum":
            mode["enum"] = ["fast", item.text]
        elif item.where == "default":
            mode = {"type": "string", "default": item.text}
        else:
            raise ValueError(f"unknown place '{item.where}' for a corpus item")
        tools.append(
            {
                "type": "function",
                "function": {
                    "name": tool_name(index),
                    "description": description,
                    "parameters": {
                        "type": "object",
                        "properties": {"query": query, "mode": mode, **{p: {"type": "string"} for p in item.params}},
                        "required": ["query"],
                    },
                },
            }
        )
    for name in siblings:
        tools.append(
            {
                "type": "function",
                "function": {
                    "name": name,
                    "description": "A tool.",
                    "parameters": {"type": "object", "properties": {}},
                },
            }
        )
    return tools


def worst_by_tool(answer: dict[str, Any]) -> dict[str, int]:
    """Each tool's highest finding severity (1 low, 2 medium, 3 high) in a guard answer."""
    worst: dict[str, int] = {}
    for finding in answer["findings"]:
        worst[finding["tool"]] = max(worst.get(finding["tool"], 0), RANK[finding["severity"]])
    return worst


@dataclass(frozen=True)
class Scores:
    """A guard's figures on both corpora."""

    recall_medium: float
    high_plants_high: float
    missed: list[str]
    not_high: list[str]
    benign_flagged: float
    benign_high: int
    benign_by_severity: dict[str, int]
    false_positives: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "recall_medium": round(self.recall_medium, 4),
            "high_plants_high": round(self.high_plants_high, 4),
            "benign_flagged": round(self.benign_flagged, 4),
            "benign_high": self.benign_high,
            "benign_by_severity": self.benign_by_severity,
            "missed": self.missed,
            "not_high": self.not_high,
            "false_positives": self.false_positives,
        }


def _label(item: Item) -> str:
    return f"{item.kind}: {item.text[:70]!r}"


def score(injection_answer: dict[str, Any], benign_answer: dict[str, Any]) -> Scores:
    """Scores from two guard answers at strictness "strict" (so every severity is seen)."""
    plants, texts = injections(), benign()
    worst = worst_by_tool(injection_answer)
    found = [worst.get(tool_name(i), 0) >= RANK["medium"] for i in range(len(plants))]
    highs = [i for i, p in enumerate(plants) if p.severity == "high"]
    high_found = [worst.get(tool_name(i), 0) == RANK["high"] for i in highs]
    benign_worst = worst_by_tool(benign_answer)
    levels = [benign_worst.get(tool_name(i), 0) for i in range(len(texts))]
    return Scores(
        recall_medium=sum(found) / len(plants),
        high_plants_high=sum(high_found) / len(highs),
        missed=[_label(plants[i]) for i, ok in enumerate(found) if not ok],
        not_high=[_label(plants[i]) for i, ok in zip(highs, high_found, strict=True) if not ok],
        benign_flagged=sum(1 for level in levels if level >= RANK["medium"]) / len(texts),
        benign_high=sum(1 for level in levels if level == RANK["high"]),
        benign_by_severity={name: sum(1 for level in levels if level == rank) for name, rank in RANK.items()},
        false_positives=[f"{texts[i].text[:70]!r}" for i, level in enumerate(levels) if level >= RANK["medium"]],
    )
