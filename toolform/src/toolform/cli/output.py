"""Printing results: JSON, or aligned text tables for a person."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence


def print_json(value: object) -> None:
    """``value`` as indented JSON on stdout, non-ASCII kept."""
    print(json.dumps(value, indent=2, ensure_ascii=False))


def cell(value: object) -> str:
    """A table cell: empty for None, thousands separated for integers, JSON for containers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def print_table(header: Sequence[str], rows: Sequence[Sequence[object]], max_width: int = 60) -> None:
    """Rows under a header, each column as wide as its widest cell (cut at ``max_width``)."""
    cells = [[cell(value) for value in row] for row in rows]
    cells = [[text if len(text) <= max_width else text[: max_width - 1] + "…" for text in row] for row in cells]
    widths = [max([len(name), *(len(row[i]) for row in cells)]) for i, name in enumerate(header)]
    print("  ".join(name.ljust(width) for name, width in zip(header, widths, strict=True)).rstrip())
    print("  ".join("-" * width for width in widths))
    for row in cells:
        print("  ".join(text.ljust(width) for text, width in zip(row, widths, strict=True)).rstrip())


def warn(message: str) -> None:
    """A warning on stderr."""
    print(f"warning: {message}", file=sys.stderr)
