"""One field's hits, each sentence's outcome worked out once per scan where it cannot depend on the tool.

A catalogue repeats its sentences from tool to tool ("The page number.", a
planted instruction copied into many tools). Of the rules that read a sentence,
only a few read the tool it sits in: TS101 and TS103 look for the tool's own
name ("this tool (NAME)", "before using NAME", a call to NAME), and TS104 reads
its parameters. Where the sentence does not hold the tool's name in any of the
forms the rules read (as written, and folded both ways), those rules answer what
they would answer for any other tool that lacks it, so every outcome but TS104's
is kept for the sentence and reused. TS104 runs for every sentence, on the
identifiers already read. The result is exactly ``reference_hits``, ``refine``
and ``our_hits`` run one after the other (a seeded test holds the two equal).
"""

from __future__ import annotations

from dataclasses import dataclass

from toolform.guard.our_rules import our_field_hits, our_segment_hits
from toolform.guard.reference_rules import (
    identifiers,
    line_markup,
    segment_hits,
    unknown_identifiers,
    whole_field_hits,
)
from toolform.guard.refinements import SCHEMA_VALUES, refine
from toolform.guard.rules import Context, Hit, Severity
from toolform.guard.text import Segment

#: One segment's outcome, with the segment's span left out: (rule, severity, message) per hit.
_Outcome = tuple[tuple[str, Severity, str], ...]


def _name_forms(seg: Segment, ctx: Context) -> str | None:
    """The segment's forms the rules read, lowercase and joined, when the tool's name can be looked for in them.

    ASCII only: case-insensitive matching lets a few other letters stand for ASCII ones (the Kelvin sign
    for k, the dotless i for i), which a lowercase substring test would miss.
    """
    if not ctx.tool.isascii():
        return None
    return ctx.reading.once("lowercase forms", seg.text, lambda t: _lowercase_forms(t, ctx))


def _lowercase_forms(text: str, ctx: Context) -> str | None:
    """The segment as written and folded both ways, lowercase, joined by NUL; None unless all are ASCII."""
    forms = (text, ctx.reading.fold_letters(text), ctx.reading.fold(text))
    return "\0".join(forms).lower() if all(form.isascii() for form in forms) else None


def _segment_outcome(
    text: str, seg: Segment, markup: str | None, ctx: Context, extra_rules: bool
) -> tuple[list[Hit], list[Hit]]:
    """The segment's reference hits (refined when ``extra_rules``) but TS104, and our hits on it."""
    reference = segment_hits(seg, markup, ctx)
    if not extra_rules:
        return reference, []
    reference = refine(reference, text, ctx)
    return reference, our_segment_hits(seg, ctx, reference)


def _bare(hits: list[Hit]) -> _Outcome:
    return tuple((h.rule_id, h.severity, h.message) for h in hits)


def _placed(outcome: _Outcome, seg: Segment) -> list[Hit]:
    return [Hit(rule_id, severity, seg.start, seg.end, message) for rule_id, severity, message in outcome]


@dataclass(frozen=True)
class _TextOutcome:
    """A text's hits for any tool whose name none of its segments holds: all but TS104's, and what TS104 reads."""

    #: Every segment's lowercase forms, joined by NUL: a name found across the separator only sends the text
    #: down the path that reads the tool.
    forms: str
    #: Every hit but TS104's, as the rules give them.
    fixed: tuple[Hit, ...]
    #: The segments TS104 reads that hold identifiers, with them.
    identified: tuple[tuple[Segment, tuple[str, ...]], ...]


def text_hits(text: str, ctx: Context, extra_rules: bool) -> list[Hit]:
    """Every hit in one field's text: the reference's rules, and with ``extra_rules`` our changes and rules.

    The order is the rules' within TS104's hits and within all others; the scan sorts them.
    """
    reading = ctx.reading
    key = (text, ctx.field_kind, extra_rules)
    known = reading.texts.get(key)
    if known is not None and ctx.tool.isascii() and ctx.tool.lower() not in known.forms:
        hits = list(known.fixed)
        for seg, names in known.identified:
            hits.extend(unknown_identifiers(seg, names, ctx))
        return hits
    reference = whole_field_hits(text, ctx)
    ours: list[Hit] = []
    unknown: list[Hit] = []
    markups = reading.once("line_markup", text, line_markup)
    # TS104 on enum values and defaults is one of the refinements: with our rules it is not run there.
    identifiers_read = not (extra_rules and ctx.field_kind in SCHEMA_VALUES)
    # Whether every segment lacks the tool's name, and so the text's outcome holds for other tools that lack it.
    lacking = known is None
    forms_read: list[str] = []
    identified: list[tuple[Segment, tuple[str, ...]]] = []
    name = ctx.tool.lower()
    for seg in reading.segments(text):
        markup = markups.get(seg.start)
        forms = _name_forms(seg, ctx)
        if forms is not None and name not in forms:

            def work(_: str, seg: Segment = seg, markup: str | None = markup) -> tuple[_Outcome, _Outcome]:
                found, own = _segment_outcome(text, seg, markup, ctx, extra_rules)
                return _bare(found), _bare(own)

            found, own = reading.once(f"segment:{extra_rules}:{markup}", seg.text, work)
            if found:
                reference.extend(_placed(found, seg))
            if own:
                ours.extend(_placed(own, seg))
            forms_read.append(forms)
        else:
            found_hits, own_hits = _segment_outcome(text, seg, markup, ctx, extra_rules)
            reference.extend(found_hits)
            ours.extend(own_hits)
            lacking = False
        if identifiers_read:
            names = identifiers(reading.fold_letters(seg.text), ctx)
            unknown.extend(unknown_identifiers(seg, names, ctx))
            if names:
                identified.append((seg, names))
    if extra_rules:
        ours.extend(our_field_hits(text, ctx))
    if lacking:
        reading.texts[key] = _TextOutcome("\0".join(forms_read), (*reference, *ours), tuple(identified))
    return reference + ours + unknown
