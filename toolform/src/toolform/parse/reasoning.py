"""A reasoning block in front of the reply (``<think>...</think>``), removed before parsing."""

from __future__ import annotations

import re

_CLOSED = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_CLOSE_TAG = re.compile(r"</think>", re.IGNORECASE)
_OPEN = re.compile(r"<think>.*\Z", re.DOTALL | re.IGNORECASE)
#: A reply that starts inside its reasoning (the template opened the block) and closes it.
_CLOSE_ONLY = re.compile(r"\A.*?</think>", re.DOTALL | re.IGNORECASE)


def remove_reasoning(text: str) -> tuple[str, bool]:
    """The text without its reasoning blocks, and whether one was removed.

    An unclosed ``<think>`` runs to the end of the reply: everything after it
    is reasoning, never a call.
    """
    # No block can end past the last </think>: a <think> after it is not read to the end of the text again
    # (an unclosed one is the last rule's).
    cut = 0
    for close in _CLOSE_TAG.finditer(text):
        cut = close.end()
    stripped = _CLOSED.sub("", text[:cut]) + text[cut:]
    if "</think>" in stripped.lower():
        stripped = _CLOSE_ONLY.sub("", stripped)
    if "<think>" in stripped.lower():
        stripped = _OPEN.sub("", stripped)
    return stripped, stripped != text
