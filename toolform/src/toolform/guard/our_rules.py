"""This project's rules, TS201 on (placeholder filled below)."""

from __future__ import annotations

from toolform.guard.rules import Context, Hit


def our_hits(text: str, ctx: Context, reference: list[Hit]) -> list[Hit]:
    return []
