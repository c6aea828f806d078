"""Code fences around a reply, or around part of it."""

from __future__ import annotations

import re

# The opening's language and spaces are taken whole (possessive): they hold no backtick, so a body that finds
# no closing fence after them finds none after any shorter split either, and trying each split of a run of
# spaces between the two space classes read the rest of the reply again from each (cubic in the run).
_FENCE = re.compile(r"```[ \t]*+[\w+-]*+[ \t]*+\n?(.*?)```", re.DOTALL)


def fenced_bodies(text: str) -> list[str]:
    """The bodies of every closed code fence, in order."""
    return [m.group(1) for m in _FENCE.finditer(text)]


def unfence(text: str) -> str:
    """The text with each fence's markers removed and its body kept in place."""
    return _FENCE.sub(lambda m: m.group(1), text)
