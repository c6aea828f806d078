"""The reference's rules, TS101 to TS110, as its parity fixtures and its answers show them.

Each rule reads one segment (a sentence, clause, line or comment; ``text``) of
one field, folded (look-alike letters to Latin, invisible characters dropped),
and answers hits whose spans are the segment's. TS108 to TS110 read the whole
field. The phrase lists are ours, fitted to the reference's observable answers;
where we catch more, that is one of our rules (``our_rules``), never a change here.
"""

from __future__ import annotations

import functools
import re

from toolform.guard.rules import Catalogue, Context, Hit, Severity
from toolform.guard.screen import Screened
from toolform.guard.text import INVISIBLE, Segment, script_of

NOCASE = re.IGNORECASE

# TS101 -----------------------------------------------------------------------
MSG_101_HIGH = (
    "An instruction addressed to the model, with a target: it tells the model what to call, set, say or "
    "reveal. In the study, models followed one such planted sentence on {low} to {high}% of turns in every "
    "format that shows descriptions."
)
MSG_101_MEDIUM = (
    "An imperative with no value, tool or reply as its target. Often ordinary usage guidance; read it to be "
    "sure it asks nothing beyond what the tool needs."
)
MSG_101_LOW = (
    'A restriction on how to use the tool ("do not", "never"). Usually documentation; shown at strict strictness only.'
)

#: Words that speak to the model by name: enough for a high finding.
_ADDRESS = Screened(
    re.compile(
        r"\bnote to the (?:assistant|model)\b|\bthe (?:assistant|model) (?:should|must|will)\b"
        r"|\binstead of answering\b|\byour (?:reply|answer|response)\b",
        NOCASE,
    )
)
#: Words that turn the verb after them into an instruction to the model.
_CUE = (
    r"(?:\balways|\byou (?:must|should|have to|are required to)|\b(?:make|be) sure to"
    r"|\bwhen calling this tool,?|\bwhen the user asks[^,.]*,|\bbefore handling\b[^,.]*?"
    r"|\bbefore using this tool,?)"
)
_DIRECTIVE_VERB = (
    r"(?:include|send|pass|add|use(?!\s+this tool)|set|call|invoke|run|respond|reply|answer|say|tell|append"
    r"|forward|upload|read|write|put|prefix|return)"
)
_DIRECTIVE = Screened(re.compile(_CUE + r"(?:\W+\w+){0,3}?\W+" + _DIRECTIVE_VERB + r"\b", NOCASE))
#: Asks the model to set aside what it was told.
_OVERRIDE = Screened(
    re.compile(
        r"\bdisregard\s+(?:the|all|any|previous|prior|your|these|those|earlier)\b|\b(?:ignore|forget)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|above|earlier|preceding)\b"
        r"|\bregardless of what the user\b",
        NOCASE,
    )
)
#: What the model is told to say.
_REPLY = Screened(
    re.compile(
        r"\b(?:reply|respond|answer|say)\b|\bbefore answering\b|\bfinal answer\b|\btell the user\b|\breveal\b", NOCASE
    )
)
#: Addressed to the model as "you": a call it asks for is a high finding.
_YOU_MUST = Screened(re.compile(r"\byou (?:must|should|need to|have to|are required to)\b", NOCASE))
_RESTRICTION = re.compile(r"\b(?:never|do not|don't|dont)\s+(\w+)", NOCASE)
#: Verbs after "do not" that the reference leaves to TS105 alone.
_RESTRICTION_NOT = frozenset({"mention", "reveal", "share", "disclose"})

# TS102 -----------------------------------------------------------------------
MSG_102 = (
    "The sentence assigns the value {value} to '{param}'. A value the user never asked for, written into a "
    "call, is the argument hijack the study measured."
)
_VALUE = r"(?P<value>'[^']*'|\"[^\"]*\"|`[^`]*`|(?-i:(?=[\w.-]*[A-Z0-9])[A-Za-z0-9][\w.-]*[A-Za-z0-9]))"
_PARAM_REF = r"[`'\"]?(?P<param>[A-Za-z_][\w.]*)[`'\"]?"

# TS103 -----------------------------------------------------------------------
MSG_103 = "The text tells the model to call another tool ({tool})."
MSG_103_PREREQUISITE = "The text tells the model to call another tool ({tool}) as a prerequisite of this tool."
MSG_103_SELF = "The text tells the model to call this tool ({tool}) before or besides what the user asked."
_CALL_VERB = r"\b(?P<chain>(?:then|also)\s+)?(?:call|calls|calling|use|uses|using|invoke|invokes|run|runs)\s+"
_ANY_CALL_VERB = re.compile(r"\b(?:call|calls|calling|use|uses|using|invoke|invokes|run|runs)\b", NOCASE)

# TS104 -----------------------------------------------------------------------
MSG_104 = "The text names {names}, which is not a parameter of this tool nor a tool in the catalogue."
_IDENTIFIER = re.compile(
    r"`(?P<tick>[A-Za-z_][\w.]*)`"
    r"|(?<![\w/.~@|'\"-])(?P<snake>[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w/@|-])"
)

# TS105 -----------------------------------------------------------------------
MSG_105 = "The text asks for secrecy, for data to be sent to an address, or names a file that holds keys."
_EMAIL = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_URL = r"(?:https?|ftp)://\S+"
_SECRECY = Screened(
    re.compile(
        r"\bsecretly\b|\bcovertly\b|\bconfidential\b|\bwithout (?:telling|asking|informing|notifying|alerting)\b"
        r"|\b(?:never|do not|don't)\s+(?:tell|mention|reveal|disclose|inform|let)\b"
        rf"|\b(?:send|sends|forward|forwards|upload|uploads|post|posts|email|mail|copy|transmit|exfiltrate|submit|call"
        rf"|share|report)\b.*?\b(?:to|into)\s+<?(?:{_EMAIL}|{_URL})"
        r"|~/\.ssh|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|(?<![\w.])\.env\b",
        NOCASE,
    )
)

# TS106 -----------------------------------------------------------------------
MSG_106 = (
    "Chat-template or role markup ('{markup}') inside tool metadata. It can make the text read as a message "
    "from the system or the assistant."
)
_MARKUP = Screened(
    re.compile(
        r"<\|(?:im_start|im_end|eot_id)\|>|\[/?INST\]|<</?SYS>>|<system>|<tool_call>|</tools>",
        NOCASE,
    )
)
#: Markup that counts only where a line starts: a role label, an instruction heading.
_LINE_MARKUP = re.compile(r"^(?:(?:system|assistant)\s*:|### Instruction\b)", re.M | NOCASE)

# TS107 -----------------------------------------------------------------------
MSG_107_AUTHORITY = "The text claims authority over other instructions, a common frame for an injected instruction."
MSG_107_URGENT_INSTRUCTION = "The text claims urgency beside an instruction."
MSG_107_URGENCY = "The text uses an urgency word. Alone it is usually emphasis; shown at strict strictness only."
_AUTHORITY = Screened(
    re.compile(
        r"\btakes? precedence\b|\boverrides? (?:every|all|any)\b|\bhighest priority\b|\bsystem instruction\b"
        r"|\bdeveloper note\b",
        NOCASE,
    )
)
_URGENCY = re.compile(r"\b(?:IMPORTANT|REQUIRED|CRITICAL)\b")

# TS108 to TS110 --------------------------------------------------------------
MSG_108 = (
    "The text is {length:,} characters, over the {limit:,} this guard allows for this field (a heuristic "
    "threshold). Long text leaves room to hide an instruction. Stripping never removes it; review it by hand."
)
#: How long a tool's description, and any other field, may be before TS108.
DESCRIPTION_LIMIT = 1500
FIELD_LIMIT = 500
MSG_109_CHAR = (
    "An invisible control character (U+{code:04X}). A reader does not see it, but it can hide or reorder text."
)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
MSG_109_COMMENT = "An HTML comment: text a person reading a rendered page does not see."
MSG_110 = (
    "The word '{word}' mixes Latin letters with Cyrillic or Greek ones that look the same. The guard read it "
    "with those letters folded to Latin."
)


class Evidence:
    """The figures TS101's message quotes: the study's injection range, set from facts.json
    (``injection_min``, ``injection_max``) by ``toolform.guard.guard``; None without the evidence,
    and the message then quotes no figure."""

    injection_low: str | None = None
    injection_high: str | None = None


MSG_101_HIGH_NO_EVIDENCE = (
    "An instruction addressed to the model, with a target: it tells the model what to call, set, say or "
    "reveal. The study measured how often models follow one such planted sentence; its evidence is not "
    "installed here."
)


@functools.lru_cache(maxsize=4096)
def _prerequisite_pattern(tool: str) -> re.Pattern[str]:
    return re.compile(rf"\bbefore (?:using |calling )?(?:this tool\b|{re.escape(tool)}(?![\w-]))", NOCASE)


@functools.lru_cache(maxsize=4096)
def _named_self_pattern(tool: str) -> re.Pattern[str]:
    """ "this tool (NAME)": the text names this tool as what to call."""
    return re.compile(rf"\bthis tool\s*\(\s*{re.escape(tool)}\s*\)", NOCASE)


# Compiled once: per-tool patterns would push these out of the re module's cache.
_CHAIN = re.compile(r"\b(?:then|also)\b", NOCASE)
_CAPITAL = re.compile(r"[A-Z]")
_DIGIT = re.compile(r"[0-9]")
_SET_TO_VALUE = re.compile(r"\bset to\s+" + _VALUE)
_QUOTED_TARGET = re.compile(r"\b(?:must be|to)\s+('[^']*'|\"[^\"]*\")")
_INSTEAD_OR_BEFORE = re.compile(r"\b(?:instead of|before)\b", NOCASE)
_WORD = re.compile(r"\w+")
_ASSIGNMENTS = (
    re.compile(
        rf"\b(?:set|pass|fill|put|assign|give)\s+(?:the\s+)?{_PARAM_REF}(?:\s+(?:parameter|field|argument|arg|value))?"
        rf"\s+(?:to|with|=|as)\s+{_VALUE}",
        NOCASE,
    ),
    re.compile(rf"{_PARAM_REF}\s*=\s*{_VALUE}", NOCASE),
)


#: What every tool's own patterns start with: where one is absent, the tool's pattern cannot match, and the
#: per-tool search is skipped.
_BEFORE = re.compile(r"\bbefore ", NOCASE)
_THIS_TOOL_NAMED = re.compile(r"\bthis tool\s*\(", NOCASE)


def _prerequisite(text: str, ctx: Context) -> bool:
    """The text asks for something before this tool is used."""
    return ctx.reading.found(_BEFORE, text) and _prerequisite_pattern(ctx.tool).search(text) is not None


def _names_self(text: str, ctx: Context) -> bool:
    """The text names this tool as what to call: "this tool (NAME)"."""
    return ctx.reading.found(_THIS_TOOL_NAMED, text) and _named_self_pattern(ctx.tool).search(text) is not None


@functools.lru_cache(maxsize=4096)
def _self_call_pattern(tool: str) -> re.Pattern[str]:
    own_name = rf"(?:the\s+)?(?:this tool\s*\(\s*)?[`'\"]?{re.escape(tool)}(?![\w-])"
    return re.compile(_CALL_VERB + own_name, NOCASE)


def _called_tools(text: str, ctx: Context) -> list[tuple[str, bool]]:
    """The tools the text tells the model to call, each with whether then/also chains the call.

    Another catalogue tool counts when the text names it and has a call verb
    anywhere; this tool counts only named right after a call verb, and only in
    an instruction (``_directed``), since "use this tool to ..." is documentation.
    """
    reading = ctx.reading
    if not reading.found(_ANY_CALL_VERB, text):
        return []
    chained = reading.found(_CHAIN, text)
    order = ctx.catalogue.index
    mentioned = reading.once("mentions", text, lambda t: _mentions(t, ctx.catalogue)) - {ctx.tool}
    found = [(name, chained) for name in sorted(mentioned, key=order.__getitem__)]
    self_call = _self_call_pattern(ctx.tool)
    # The pattern ends in the tool's name: where ASCII text lacks it in any case, it cannot match.
    may_name_self = not (text.isascii() and ctx.tool.isascii()) or ctx.tool.lower() in reading.once(
        "lower", text, str.lower
    )
    named_self = _names_self(text, ctx)
    insistent = chained or reading.found(_ADDRESS, text) or reading.found(_YOU_MUST, text)
    calls_self = may_name_self and self_call.search(text) is not None
    if named_self or (chained and calls_self) or (not found and insistent and calls_self):
        return [(ctx.tool, chained)]
    return found[:1]


def _mentions(text: str, catalogue: Catalogue) -> frozenset[str]:
    """The catalogue's names the text holds as whole words."""
    return frozenset(m.group() for m in catalogue.mentions.finditer(text))


def _directed(text: str) -> bool:
    return _ADDRESS.search(text) is not None or _DIRECTIVE.search(text) is not None


def _assignment(text: str) -> tuple[str, str] | None:
    """The parameter and value the text assigns (``set X to V``, ``X = V``)."""
    for pattern in _ASSIGNMENTS:
        match = pattern.search(text)
        if match is not None:
            return match.group("param"), match.group("value")
    return None


def _hijacks(assigned: tuple[str, str] | None, ctx: Context) -> bool:
    """An assignment TS102 reports: a sentinel-like value (capitals and digits) to any name, any other value
    to a parameter of some tool in the catalogue."""
    if assigned is None:
        return False
    param, value = assigned
    sentinel = _CAPITAL.search(value) is not None and _DIGIT.search(value) is not None
    return sentinel or param in ctx.catalogue.params


def rule_101(seg: Segment, folded: str, ctx: Context) -> list[Hit]:
    reading = ctx.reading
    restriction = reading.search(_RESTRICTION, folded)
    if restriction and restriction.group(1).lower() not in _RESTRICTION_NOT:
        return [Hit("TS101", Severity.LOW, seg.start, seg.end, MSG_101_LOW)]
    if restriction:
        return []
    high = reading.found(_ADDRESS, folded) or reading.found(_OVERRIDE, folded) or _names_self(folded, ctx)
    if not high:
        if not reading.found(_DIRECTIVE, folded):
            return []
        calls = _called_tools(folded, ctx)
        high = (
            reading.found(_REPLY, folded)
            or _hijacks(reading.once("assignment", folded, _assignment), ctx)
            or reading.found(_SET_TO_VALUE, folded)
            or reading.found(_QUOTED_TARGET, folded)
            or (bool(calls) and not _prerequisite(folded, ctx))
        )
    if high:
        if Evidence.injection_low is None or Evidence.injection_high is None:
            message = MSG_101_HIGH_NO_EVIDENCE
        else:
            message = MSG_101_HIGH.format(low=Evidence.injection_low, high=Evidence.injection_high)
        return [Hit("TS101", Severity.HIGH, seg.start, seg.end, message)]
    return [Hit("TS101", Severity.MEDIUM, seg.start, seg.end, MSG_101_MEDIUM)]


def rule_102(seg: Segment, folded: str, ctx: Context) -> list[Hit]:
    assigned = ctx.reading.once("assignment", folded, _assignment)
    if assigned is None or not _hijacks(assigned, ctx):
        return []
    param, value = assigned
    return [Hit("TS102", Severity.HIGH, seg.start, seg.end, MSG_102.format(value=value, param=param))]


def rule_103(seg: Segment, folded: str, ctx: Context) -> list[Hit]:
    hits: list[Hit] = []
    # "you must", "instead of" and a "before" that is not about this tool make a call to another tool insistent.
    insistent = ctx.reading.found(_YOU_MUST, folded) or ctx.reading.found(_INSTEAD_OR_BEFORE, folded)
    prerequisite = _prerequisite(folded, ctx)
    for name, chained in _called_tools(folded, ctx):
        if name == ctx.tool:
            hits.append(Hit("TS103", Severity.HIGH, seg.start, seg.end, MSG_103_SELF.format(tool=name)))
        elif prerequisite:
            hits.append(Hit("TS103", Severity.MEDIUM, seg.start, seg.end, MSG_103_PREREQUISITE.format(tool=name)))
        elif chained or insistent:
            hits.append(Hit("TS103", Severity.HIGH, seg.start, seg.end, MSG_103.format(tool=name)))
        else:
            hits.append(Hit("TS103", Severity.MEDIUM, seg.start, seg.end, MSG_103.format(tool=name)))
    return hits


def _identifiers(text: str) -> tuple[str, ...]:
    """The names the text writes as identifiers (in backticks, or snake_case), each once, in order."""
    names: dict[str, None] = {}
    for match in _IDENTIFIER.finditer(text):
        names.setdefault(match.group("tick") or match.group("snake"))
    return tuple(names)


def rule_104(seg: Segment, folded: str, ctx: Context) -> list[Hit]:
    return unknown_identifiers(seg, identifiers(folded, ctx), ctx)


def identifiers(folded: str, ctx: Context) -> tuple[str, ...]:
    """The identifiers TS104 reads in a folded segment, read once per scan."""
    return ctx.reading.once("identifiers", folded, _identifiers)


def unknown_identifiers(seg: Segment, identifiers: tuple[str, ...], ctx: Context) -> list[Hit]:
    """TS104 on the segment's identifiers."""
    # Known: this tool's parameters and every tool of the catalogue, this one too.
    unknown = [n for n in identifiers if n not in ctx.param_names and n not in ctx.catalogue.names]
    if not unknown:
        return []
    names = ", ".join(f"'{n}'" for n in unknown)
    return [Hit("TS104", Severity.MEDIUM, seg.start, seg.end, MSG_104.format(names=names))]


def rule_105(seg: Segment, folded: str, ctx: Context) -> list[Hit]:
    if ctx.reading.found(_SECRECY, folded):
        return [Hit("TS105", Severity.HIGH, seg.start, seg.end, MSG_105)]
    return []


def rule_106(seg: Segment, folded: str, ctx: Context) -> list[Hit]:
    match = ctx.reading.search(_MARKUP, folded)
    if match is None:
        return []
    markup = match.group().rstrip() if not match.group().endswith(":") else match.group().replace(" ", "")
    return [Hit("TS106", Severity.HIGH, seg.start, seg.end, MSG_106.format(markup=markup))]


def rule_107(seg: Segment, folded: str, ctx: Context) -> list[Hit]:
    reading = ctx.reading
    if reading.found(_AUTHORITY, folded):
        return [Hit("TS107", Severity.MEDIUM, seg.start, seg.end, MSG_107_AUTHORITY)]
    if reading.found(_URGENCY, folded) and reading.found(_DIRECTIVE, folded):
        return [Hit("TS107", Severity.MEDIUM, seg.start, seg.end, MSG_107_URGENT_INSTRUCTION)]
    if reading.found(_URGENCY, folded):
        return [Hit("TS107", Severity.LOW, seg.start, seg.end, MSG_107_URGENCY)]
    return []


SEGMENT_RULES = (rule_101, rule_102, rule_103, rule_104, rule_105, rule_106, rule_107)
#: The rules that read the tool's name and the catalogue, run on a sentence until its outcome is known not to
#: depend on the tool (``toolform.guard.text_hits``); TS104 reads the tool's parameters and runs every time.
_TOOL_RULES = (rule_101, rule_102, rule_103)
#: The rules that read the sentence alone: each distinct sentence is read by them once per scan.
_TEXT_RULES = (rule_105, rule_106, rule_107)
_WHOLE = Segment("", 0, 0)


def _text_outcomes(folded: str, ctx: Context) -> tuple[tuple[str, Severity, str], ...]:
    """What the sentence-only rules find in a sentence: (rule, severity, message) each, in rule order."""
    return tuple((h.rule_id, h.severity, h.message) for rule in _TEXT_RULES for h in rule(_WHOLE, folded, ctx))


def field_rules(text: str, ctx: Context) -> list[Hit]:
    """TS108 (length), TS109 (invisible characters; comments are found per segment) and TS110 (mixed scripts)."""
    # They read nothing but the text and whether it is a tool's description.
    kind = "description" if ctx.field_kind == "description" else "field"
    return list(ctx.reading.once(f"field_rules:{kind}", text, lambda t: _field_rules(t, kind)))


def _field_rules(text: str, kind: str) -> tuple[Hit, ...]:
    hits: list[Hit] = []
    limit = DESCRIPTION_LIMIT if kind == "description" else FIELD_LIMIT
    if len(text) > limit:
        hits.append(Hit("TS108", Severity.LOW, 0, len(text), MSG_108.format(length=len(text), limit=limit)))
    for match in INVISIBLE.finditer(text):
        code = ord(match.group())
        hits.append(Hit("TS109", Severity.HIGH, match.start(), match.end(), MSG_109_CHAR.format(code=code)))
    # A word mixes scripts only where the text has a letter beyond ASCII.
    for match in () if text.isascii() else _WORD.finditer(text):
        if match.group().isascii():
            continue
        scripts = {script_of(c) for c in match.group()} - {None}
        if "latin" in scripts and len(scripts) > 1:
            hits.append(Hit("TS110", Severity.MEDIUM, match.start(), match.end(), MSG_110.format(word=match.group())))
    return tuple(hits)


def whole_field_hits(text: str, ctx: Context) -> list[Hit]:
    """The TS1xx hits that read the whole field: TS108 to TS110, and HTML comments (TS109)."""
    hits = field_rules(text, ctx)
    hits.extend(Hit("TS109", Severity.HIGH, m.start(), m.end(), MSG_109_COMMENT) for m in _COMMENT.finditer(text))
    return hits


def line_markup(text: str) -> dict[int, str]:
    """Where a line of the text starts with role markup (TS106), and the markup as the message quotes it."""
    return {m.start(): m.group().replace(" :", ":") for m in _LINE_MARKUP.finditer(text)}


def segment_hits(seg: Segment, markup: str | None, ctx: Context) -> list[Hit]:
    """Every TS1xx hit in one segment but TS104: ``markup`` is the role markup its line starts with, if any."""
    reading = ctx.reading
    hits: list[Hit] = []
    if markup is not None:
        hits.append(Hit("TS106", Severity.HIGH, seg.start, seg.end, MSG_106.format(markup=markup)))
    folded = reading.fold_letters(seg.text)
    for rule in _TOOL_RULES:
        hits.extend(rule(seg, folded, ctx))
    for rule_id, severity, message in reading.once("text_rules", folded, lambda f: _text_outcomes(f, ctx)):
        hits.append(Hit(rule_id, severity, seg.start, seg.end, message))
    return hits


def reference_hits(text: str, ctx: Context) -> list[Hit]:
    """Every TS1xx hit in one field's text."""
    hits = whole_field_hits(text, ctx)
    markup = line_markup(text)
    for seg in ctx.reading.segments(text):
        hits.extend(segment_hits(seg, markup.get(seg.start), ctx))
        hits.extend(rule_104(seg, ctx.reading.fold_letters(seg.text), ctx))
    return hits
