"""The study's figures a catalogue plan quotes, read from the evidence with their source labels.

disclosure.json (paper:tab_disclosure_v2) gives names-and-descriptions-first
against one shot at 4, 16, 64 and 256 tools; tool_count.json (paper:tab_count)
gives the share of empty one-shot turns by tool count and the retrieval baseline
on a 128-tool panel. A tool count between two measured counts takes the nearer
one on a log scale, the larger at a tie (8 tools quotes 16), as the reference does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolform.errors import EvidenceUnavailable
from toolform.evidence import Evidence, Figure

DISCLOSURE_SOURCE = "paper:tab_disclosure_v2"
COUNT_SOURCE = "paper:tab_count"
#: The arm a plan quotes: names and descriptions first, then the chosen tool's schema.
DISCLOSURE_ARM = "names_desc"
#: The retrieval baseline's rows in tool_count.json, and the panel they ran on.
WHOLE_PANEL_LABEL = "128 shown whole"
TOP8_BM25_LABEL = "top 8, BM25"
# The reference's notes on the retrieval rows; the panel's checkpoint count is not in the evidence files.
WHOLE_PANEL_NOTE = "55 checkpoints"
TOP8_NOTE = "55 checkpoints; the gold tool is not forced in"
COUNT_NOTE = "pooled over the eight core formats"


def nearest_count(n_tools: int, counts: Sequence[int]) -> int:
    """The measured count nearest ``n_tools`` on a log scale; at the geometric mean of two, the larger."""
    ordered = sorted(counts)
    chosen = ordered[0]
    for lower, upper in zip(ordered, ordered[1:], strict=False):
        # n >= sqrt(lower * upper), in integers.
        if n_tools * n_tools >= lower * upper:
            chosen = upper
    return chosen


def _rows(evidence: Evidence, name: str, member: str) -> list[Mapping[str, Any]]:
    data = evidence.data(name)
    rows = data.get(member) if isinstance(data, Mapping) else None
    if not isinstance(rows, list) or not all(isinstance(row, Mapping) for row in rows):
        raise EvidenceUnavailable(f"evidence file '{name}' has no list of rows under data.{member}")
    return rows


def disclosure_figure(evidence: Evidence, n_tools: int) -> Figure:
    """Names and descriptions first, minus one shot, at the measured count nearest ``n_tools``."""
    rows = [row for row in _rows(evidence, "disclosure", "second_design") if row.get("arm") == DISCLOSURE_ARM]
    if not rows:
        raise EvidenceUnavailable(f"evidence file 'disclosure' has no '{DISCLOSURE_ARM}' rows")
    count = nearest_count(n_tools, [int(row["n_tools"]) for row in rows])
    row = next(row for row in rows if int(row["n_tools"]) == count)
    gain = row["minus_json"]
    low, high = gain["interval"]
    return Figure(
        source=DISCLOSURE_SOURCE,
        label=f"names and descriptions first, minus one shot, at {count} tools",
        value=gain["value"],
        interval=(low, high),
        note=f"{row['checkpoints']} checkpoints, three seeds",
    )


def empty_turns_figure(evidence: Evidence, n_tools: int) -> Figure:
    """The share of one-shot turns with no answer at the measured count nearest ``n_tools``."""
    rows = _rows(evidence, "tool_count", "overall")
    count = nearest_count(n_tools, [int(row["n_tools"]) for row in rows])
    row = next(row for row in rows if int(row["n_tools"]) == count)
    return Figure(
        source=COUNT_SOURCE, label=f"turns with no answer at {count} tools", value=row["empty"], note=COUNT_NOTE
    )


def retrieval_figures(evidence: Evidence) -> tuple[Figure, Figure]:
    """The 128-tool panel shown whole, and its top 8 by BM25."""
    rows = {str(row.get("label")): row for row in _rows(evidence, "tool_count", "retrieval")}
    for label in (WHOLE_PANEL_LABEL, TOP8_BM25_LABEL):
        if label not in rows:
            raise EvidenceUnavailable(f"evidence file 'tool_count' has no retrieval row '{label}'")
    whole = Figure(
        source=COUNT_SOURCE,
        label="128-tool panel shown whole",
        value=rows[WHOLE_PANEL_LABEL]["accuracy"],
        note=WHOLE_PANEL_NOTE,
    )
    top8 = Figure(
        source=COUNT_SOURCE,
        label="top 8 of the 128-tool panel by BM25",
        value=rows[TOP8_BM25_LABEL]["accuracy"],
        note=TOP8_NOTE,
    )
    return whole, top8
