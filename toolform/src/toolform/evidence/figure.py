"""One figure a recommendation or a plan quotes, with the source label it came from.

The advisor and the catalogue quote the same kind of figure (a row of the study,
``paper:tab_count``, or a local measurement, ``local:<file>``), so they share this
class, and the server's FigureModel is its to_dict().
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Figure:
    """One figure from the evidence: its source label, what it measures, value, unit, interval and a note."""

    source: str
    label: str
    value: float
    unit: str = "%"
    interval: tuple[float, float] | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "label": self.label,
            "value": self.value,
            "unit": self.unit,
            "interval": None if self.interval is None else list(self.interval),
            "note": self.note,
        }
