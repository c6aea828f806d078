"""Reading ToolForm's environment variables: lists and switches."""

from __future__ import annotations

import os


def env_list(name: str) -> list[str]:
    """A comma-separated environment variable as a list, blanks dropped."""
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def env_flag(name: str) -> bool:
    """An environment variable read as a switch: set, and not 0, false, no or off."""
    return os.environ.get(name, "").strip().lower() not in {"", "0", "false", "no", "off"}
