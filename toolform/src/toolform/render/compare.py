"""Tokens of many formats side by side, with the study's accuracy beside each (render/compare)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from toolform.errors import EvidenceUnavailable
from toolform.evidence import Evidence, given_or_installed
from toolform.registry import registry_of
from toolform.render.block import render_shown, tokens_estimate
from toolform.render.json_schema import shared_schemas
from toolform.render.options import RenderOptions, apply_options
from toolform.render.toolsets import ToolsInput, tools_of

#: The measured block's column that study_accuracy reports (percent, every cell pooled).
STUDY_COLUMN = "call_exact"
#: The core_main column that paper_accuracy reports (the paper's tab:main, main rule).
PAPER_COLUMN = "main"


@dataclass(frozen=True)
class FormatComparison:
    """Rows sorted by tokens, fewest first, then by format id."""

    rows: list[dict[str, object]]

    def to_dict(self) -> dict[str, object]:
        return {"rows": copy.deepcopy(self.rows)}


def _paper_accuracy(evidence: Evidence) -> dict[str, object]:
    data = evidence.data("core_main")
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise EvidenceUnavailable("evidence file 'core_main' has no rows under data")
    return {str(row["format_id"]): row.get(PAPER_COLUMN) for row in rows if isinstance(row, dict)}


def compare(
    toolset: ToolsInput,
    formats: list[str] | None = None,
    options: RenderOptions | None = None,
    evidence: Evidence | None = None,
) -> FormatComparison:
    """Render ``toolset`` in each of ``formats`` (the 129 study formats when None) and sort the rows by tokens.

    study_accuracy is the format's pooled mean from the site's export
    (export:format_leaderboard), null for a format outside the study;
    paper_accuracy is tab:main's value, for the eight core formats only. The two
    rest on different cells: never rank one column against the other. ``evidence`` None: the installed study's.
    """
    evidence = given_or_installed(evidence)
    registry = registry_of(evidence)
    entries = (
        [registry.format(f).entry for f in formats] if formats is not None else registry.formats(in_study=True).formats
    )
    paper = _paper_accuracy(evidence)
    tools = tools_of(toolset)
    chosen = options or RenderOptions()
    shown = apply_options(tools, chosen)  # once: the options reshape the tools alike for every format
    rows = []
    with shared_schemas():  # each tool's JSON Schema built once for the twenty formats that print it
        blocks = [render_shown(shown, str(entry["id"]), chosen) for entry in entries]
    for entry, block in zip(entries, blocks, strict=True):
        format_id = str(entry["id"])
        measured = entry.get("measured")
        in_study = entry.get("in_study") is True and isinstance(measured, dict)
        rows.append(
            {
                "format_id": format_id,
                "name": entry.get("name"),
                "family": entry.get("family"),
                "novel": entry.get("novel"),
                "default_protocol": entry.get("default_protocol"),
                "chars": len(block),
                "tokens_estimate": tokens_estimate(block),
                "study_accuracy": measured.get(STUDY_COLUMN) if in_study and isinstance(measured, dict) else None,
                "study_source": measured.get("source") if in_study and isinstance(measured, dict) else None,
                "paper_accuracy": paper.get(format_id),
                "error": None,
            }
        )
    rows.sort(key=lambda row: (int(str(row["tokens_estimate"])), str(row["format_id"])))
    return FormatComparison(rows)
