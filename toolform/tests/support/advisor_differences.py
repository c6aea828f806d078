"""Where our recommendations differ from the reference's on purpose, named in one place.

The differential test (test_advisor_differential.py) compares every member of
both answers; what each entry here explains is set aside, and nothing else is.

1. ``EXPLANATORY_TEXT``: ``explanation``, ``summary``, ``measure_hint`` and
   ``catalogue.reason`` are sentences, and decisions section 2 makes them ours.
   Every figure in them comes from the same evidence; the words differ.
2. ``CATALOGUE_NOTES``: the notes beside the catalogue strategy's figures. The
   reference's retrieval notes name a checkpoint count that no evidence file
   holds; ours say what the figure is instead. Source, label, value, unit and
   interval are still compared.
3. ``GUARD_WORDING``: with third-party tools, the guard's advice cites the
   evidence's own facts (the trust-line effects, the docstring ablation), so its
   reason and evidence list are ours; its ``action`` is compared.
4. ``CORE_CANDIDATES_ONLY``: a candidate outside the eight core formats is
   refused (400, naming the core formats), because the study's model, count and
   tier tables measured only those; the reference ranks it on the site export's
   pooled mean with no tokens or cost. Generated situations name core formats only.
"""

from __future__ import annotations

from typing import Any

DIFFERENCES: dict[str, str] = {
    "EXPLANATORY_TEXT": "explanation, summary, measure_hint and catalogue.reason are our own sentences",
    "CATALOGUE_NOTES": "catalogue evidence notes say what the figure is, with no number outside the evidence",
    "GUARD_WORDING": "the guard advice's reason and evidence cite the evidence's facts; action is compared",
    "CORE_CANDIDATES_ONLY": "non-core candidates are refused instead of ranked on the export's mean",
}


def comparable(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer with the members the differences above explain set aside."""
    out = dict(answer)
    for member in ("explanation", "summary", "measure_hint"):
        out.pop(member, None)
    catalogue = dict(out["catalogue"])
    catalogue.pop("reason", None)
    catalogue["evidence"] = [{k: v for k, v in item.items() if k != "note"} for item in catalogue["evidence"]]
    out["catalogue"] = catalogue
    if isinstance(out.get("guard"), dict):
        out["guard"] = {"action": out["guard"]["action"]}
    return out
