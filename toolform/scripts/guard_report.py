"""Recall and false positives of our guard and the reference's on the project's two corpora.

    .venv/bin/python toolform/scripts/guard_report.py [--json] [--strictness standard]

Ours runs in process (the SDK); the reference runs as a black box: its own
`toolform serve` (from .venv-toolform-ref, `make toolform-ref`; TOOLFORM_REF_BIN
overrides) started on a free loopback port, sent each corpus once at the
strictness asked for (standard by default), and stopped. Prints a markdown table (the one in docs/toolform-guard.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(TESTS))

from toolform.guard import guard  # noqa: E402

from support import guard_corpora  # noqa: E402
from support.serving import REFERENCE_TOOLFORM, Server  # noqa: E402


def _ours(tools: list[dict[str, Any]], strictness: str) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(
        json.dumps(guard({"source": "openai", "payload": tools}, strictness=strictness).to_dict())
    )
    return answer


def _theirs(server: Server, tools: list[dict[str, Any]], strictness: str) -> dict[str, Any]:
    reply = server.post("/api/v1/guard", {"tools": {"source": "openai", "payload": tools}, "strictness": strictness})
    if reply.status != 200:
        raise SystemExit(f"the reference answered {reply.status}: {reply.body[:300]!r}")
    answer: dict[str, Any] = reply.json()
    return answer


def _row(name: str, scores: guard_corpora.Scores) -> str:
    by = scores.benign_by_severity
    return (
        f"| {name} | {scores.recall_medium:.3f} | {scores.high_plants_high:.3f} | "
        f"{scores.benign_flagged * 100:.1f}% | {scores.benign_high} | {by['high']} / {by['medium']} / {by['low']} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print both guards' figures as JSON")
    parser.add_argument("--strictness", default="standard", choices=["lenient", "standard", "strict"])
    arguments = parser.parse_args()
    level = arguments.strictness
    injections = guard_corpora.openai_tools(guard_corpora.injections())
    benign = guard_corpora.openai_tools(guard_corpora.benign())
    ours = guard_corpora.score(_ours(injections, level), _ours(benign, level))
    with Server(REFERENCE_TOOLFORM) as reference:
        theirs = guard_corpora.score(_theirs(reference, injections, level), _theirs(reference, benign, level))
    if arguments.json:
        print(json.dumps({"ours": ours.to_dict(), "reference": theirs.to_dict()}, indent=2, ensure_ascii=False))
        return 0
    n_plants, n_benign = len(guard_corpora.injections()), len(guard_corpora.benign())
    print(f"{n_plants} planted injections, {n_benign} benign texts; strictness {level}.\n")
    print(
        "| guard | recall, medium or above | high plants found high | benign tools with a finding "
        "(medium or above) | benign tools with a high finding | benign worst finding high / medium / low |"
    )
    print("|---|---|---|---|---|---|")
    print(_row("ours", ours))
    print(_row("reference", theirs))
    print("\nOurs, missed:", ours.missed or "none")
    print("Ours, false positives:", *ours.false_positives, sep="\n  ")
    print("Reference, missed:", len(theirs.missed), "of", n_plants)
    kinds: dict[str, int] = {}
    for label in theirs.missed:
        kind = label.split(":", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    print("Reference, missed by kind:", ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
