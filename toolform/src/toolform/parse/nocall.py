"""A reply that says no tool applies (the answer instructions ask for one in words)."""

from __future__ import annotations

import re

_DECLARATIONS = re.compile(
    r"\bno\s+(?:suitable\s+|appropriate\s+|relevant\s+|matching\s+)?"
    r"(?:tool|function)(?:\s+call)?s?\s+(?:is\s+|are\s+)?(?:needed|required|applies|apply|fits|fit|is\s+needed)"
    r"|\bno\s+(?:tool|function)\s+(?:call\s+)?(?:is\s+)?needed"
    r"|\bnone\s+of\s+the\s+(?:tools|functions)\s+(?:apply|applies|fit|fits|are\s+needed|is\s+needed|match)"
    r"|\bthere\s+is\s+no\s+(?:suitable\s+|appropriate\s+|relevant\s+|matching\s+)?(?:tool|function)"
    r"|\bno\s+(?:tool|function)\s+(?:fits|applies|matches)"
    # A refusal in words ("I cannot help with that."), read as the reference reads it: these letters
    # anywhere, one space between, whatever the case ("I can't" and "I  cannot" are not).
    r"|i cannot",
    re.IGNORECASE,
)


def declares_no_call(text: str) -> bool:
    """True when the reply says in words that no tool should be called."""
    return _DECLARATIONS.search(text) is not None
