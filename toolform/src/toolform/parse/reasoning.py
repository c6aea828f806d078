"""A reasoning block in front of the reply (``<think>...</think>``), removed before parsing."""

from __future__ import annotations

import re

_CLOSED = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_OPEN = re.compile(r"<think>.*\Z", re.DOTALL | re.IGNORECASE)
#: A reply that starts inside its reasoning (the template opened the block) and closes it.
_CLOSE_ONLY = re.compile(r"\A.*?</think>", re.DOTALL | re.IGNORECASE)


def remove_reasoning(text: str) -> tuple[str, bool]:
    """The text without its reasoning blocks, and whether one was removed.

    An unclosed ``<think>`` runs to the end of the reply: everything after it
    is reasoning, never a call.
    """
    stripped = _CLOSED.sub("", text)
    if "</think>" in stripped.lower():
        stripped = _CLOSE_ONLY.sub("", stripped)
    if "<think>" in stripped.lower():
        stripped = _OPEN.sub("", stripped)
    return stripped, stripped != text
