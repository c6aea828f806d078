"""What to do about third-party tool descriptions, from the study's injection experiments.

Models follow an instruction planted in a description in every format that shows
descriptions; a trust sentence in the system prompt barely changes that; so the
advice is to strip instructions (``toolform guard --clean``), except where the
format shows no description at all.
"""

from __future__ import annotations

from typing import Any

from toolform.advisor.study import FORMAT_LABELS
from toolform.evidence import Evidence, Figure


def _fact_item(facts: dict[str, dict[str, Any]], fact_id: str) -> Figure | None:
    fact = facts.get(fact_id)
    if fact is None or fact.get("value") is None:
        return None
    interval = fact.get("interval")
    return Figure(
        str(fact["source"]), str(fact["text"]), float(fact["value"]), str(fact.get("unit", "%")),
        None if not interval else (float(interval[0]), float(interval[1])),
    )


def guard_advice(evidence: Evidence, format_id: str) -> dict[str, Any]:
    """The guard's advice for tools from someone else shown in ``format_id``: reason, evidence, action."""
    document = evidence.document("injection")
    data = evidence.data("injection")
    assert isinstance(data, dict) and isinstance(document, dict)
    checkpoints = document.get("conditions", {}).get("checkpoints")
    rows = {str(r["format_id"]): r for r in data["formats"]}
    listed = evidence.data("facts")
    facts = {str(f["id"]): f for f in listed if isinstance(f, dict)} if isinstance(listed, list) else {}
    name = FORMAT_LABELS.get(format_id, format_id)
    items: list[Figure] = []
    row = rows.get(format_id)
    if row is not None:
        items.append(
            Figure(
                "paper:tab_pressure", f"hidden instruction followed, {name}", float(row["hijack"]),
                note=f"{checkpoints} checkpoints" if checkpoints else "",
            )
        )
    for fact_id in ("trust_line_sentinel", "trust_line_valid", "descriptions_off_python_stub"):
        item = _fact_item(facts, fact_id)
        if item is not None:
            items.append(item)
    shown = [float(r["hijack"]) for r in rows.values() if float(r["hijack"]) > 0]
    if row is not None and float(row["hijack"]) == 0:
        reason = f"The {name} shows no description, and models followed no planted instruction in it (tab_pressure)."
        action = "none"
    else:
        low, high = (min(shown), max(shown)) if shown else (0.0, 0.0)
        own = f" ({float(row['hijack']):.2f}% for {name})" if row is not None else ""
        trust = facts.get("trust_line_sentinel")
        trust_text = (
            f", and telling the model in the system prompt that tool metadata is untrusted changed that by "
            f"{float(trust['value']):+.2f}% (tab_injection_trust)" if trust else ""
        )
        reason = (
            "Strip instructions from descriptions you did not write (toolform guard --clean): wherever a format "
            f"shows descriptions, models followed one planted sentence on {low:.2f} to {high:.2f}% of turns{own} "
            f"(tab_pressure){trust_text}."
        )
        docstring = facts.get("descriptions_off_python_stub")
        if format_id == "python_stub" and docstring:
            reason += (
                " Keep the Python stub's docstrings, though: they document its parameters, and dropping them cost "
                f"{abs(float(docstring['value'])):.2f}% (tab_ladder)."
            )
        action = "strip"
    return {"reason": reason, "evidence": [item.to_dict() for item in items], "action": action}
