"""The two places where our guard, by default, answers differently from the reference's own rules.

Both are reference findings that fire on ordinary documentation; with
``reference_only=True`` the guard leaves them as the reference gives them.

1. TS104 does not read enum values and defaults: ``created_at`` as a sort key is
   a value of the schema, not prose naming a parameter the tool lacks.
2. TS103 "first call X, then ..." is a prerequisite, not a chained call: the
   reference rates it high because of the "then"; ours rates it medium, with
   the prerequisite message, as the reference does for "before using this tool".
"""

from __future__ import annotations

import re

from toolform.guard.reference_rules import MSG_103_PREREQUISITE
from toolform.guard.rules import Context, Hit, Severity

SCHEMA_VALUES: frozenset[str] = frozenset({"enum", "default"})
_FIRST_CALL = re.compile(
    r"^\W*first,?\s+(?:call|use|run)\s+(?P<name>[\w.-]+)|\b(?:call|use|run)\s+(?P<after>[\w.-]+)\s+first\b", re.I
)


def refine(hits: list[Hit], text: str, ctx: Context) -> list[Hit]:
    """The reference's hits on one field, with our two changes made."""
    if ctx.field_kind in SCHEMA_VALUES:
        hits = [h for h in hits if h.rule_id != "TS104"]
    refined: list[Hit] = []
    for hit in hits:
        if hit.rule_id == "TS103" and hit.severity is Severity.HIGH:
            match = _FIRST_CALL.search(text[hit.start : hit.end])
            name = match and (match.group("name") or match.group("after"))
            if name and ctx.names_other_tool(name):
                hit = Hit("TS103", Severity.MEDIUM, hit.start, hit.end, MSG_103_PREREQUISITE.format(tool=name))
        refined.append(hit)
    return refined
