"""The fetched evidence files read straight from disk, independently of the package's reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.paths import TOOLFORM

EVIDENCE_DIR = TOOLFORM / "src" / "toolform" / "evidence_data"


def evidence_json(name: str, directory: Path = EVIDENCE_DIR) -> Any:
    """One evidence file (``manifest`` included) as parsed JSON."""
    return json.loads((directory / f"{name}.json").read_text(encoding="utf-8"))
