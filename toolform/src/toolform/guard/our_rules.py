"""This project's rules, TS201 on: what the reference's rules let through.

They read the text folded as the reference does not (look-alike letters and
fullwidth forms to Latin, every invisible character dropped), so an instruction
split by a zero-width character or typed in fullwidth letters still reads as one.
They never change a TS1xx finding; a span the reference already flags at the
same or a higher severity is not flagged again by the rule that covers the same
ground (TS201 beside TS101, TS202 beside TS105).

- TS201 model_directive: text that tells the model what to say, whom to obey or
  what to become (override phrases, role changes, reply rules, words to the model
  by name) beyond the reference's cue words.
- TS202 data_exfiltration: conversation, secrets or files sent, put in an argument,
  or read from places that hold keys; markdown images and URLs that carry data out.
- TS203 encoded_payload: base64 or hex that decodes to text (high when the text
  is an instruction), and invisible characters the reference does not know.
- TS204 hostile_schema_value: an enum value or default that is an instruction, an
  address, a path out of the workspace or a command.
- TS205 tool_hijack: conduct aimed at other tools: replacing, avoiding or
  chaining them, or calling this tool before or after every other.
- TS207 skips_confirmation: the model told to act without the user's
  confirmation, approval or consent (a documented switch such as "set to true
  to skip the confirmation prompt" is the tool's own, and is not flagged).
- TS208 other_tool_arguments: another tool's arguments set, changed or added to.
- TS202 also flags data sent, copied or reported to a host, URL or address the
  text names, and TS205 another tool, or every tool, called first, around or
  instead (this tool shadowing the others).
- TS206 role_markup_more: chat and prompt markup the reference does not know
  (``<|endoftext|>``, ``Human:``, ``<IMPORTANT>``, ``[SYSTEM]``, ``### System``),
  and text pushed out of sight by a long run of blank space.
"""

from __future__ import annotations

import base64
import binascii
import re

from toolform.guard.rules import Context, Hit, Severity
from toolform.guard.screen import Screened
from toolform.guard.text import MORE_INVISIBLE, Segment, fold

NOCASE = re.IGNORECASE

_WHO = r"(?:the\s+)?(?:assistant|ai|model|llm|agent|claude|gpt|chatgpt|gemini|copilot)"
_DIRECTIVE = Screened(
    re.compile(
        r"\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.]{0,40}?\b(?:previous|prior|above|earlier|preceding|all|any|"
        r"system|original|developer'?s?|safety|user'?s?)\b[^.]{0,20}?\b(?:instructions?|rules?|guidelines?|guidance|directions?|"
        r"prompt|messages?|policy|policies|checks?|choice|language|request|limits?|the user)\b"
        r"|\bignore (?:the above|that|the user|everything)\b|\bforget your\b"
        r"|\b(?:from now on|new (?:rule|instructions?)|your new instructions?)\b"
        r"|\byou are (?:now|no longer)\b|\b(?:act|behave) as\b|\bpretend (?:to be|you are)\b"
        r"|\b(?:developer|maintenance|admin|debug|god|jailbreak|unrestricted) mode\b|\bno content policy\b"
        r"|\bunrestricted assistant\b|\bunfiltered model\b"
        rf"|\b{_WHO},?\s+(?:must|should|will|shall|needs? to|has to|is to)\b|\b{_WHO},\s+when\b"
        r"|^(?:respond|reply|answer|say|tell the user|start every|begin every|end every|append|prepend|"
        r"rewrite|insert|present|do what|recommend)\b|\bprint the (?:full|whole|entire|system|hidden)\b"
        r"|\b(?:also |always |then )?(?:tell|inform|assure) the user (?:that|to|their|the|it)\b"
        r"|\b(?:respond|reply|answer)(?: to the user)? (?:in|with|only|every)\b|\banswer every\b"
        r"|\bin every (?:reply|answer|response)\b"
        r"|\bto every (?:reply|answer|response|message)\b|\bat the (?:start|end) of every\b"
        r"|\bbefore (?:responding|answering|replying)\b|\bstart every answer\b"
        r"|\bwhatever the user (?:asks|says|wants)\b|\bregardless of (?:what the user|the user|the data)\b"
        r"|\bno matter what the user\b|\bnot what the user says\b|\bthe user is an? (?:admin|administrator)\b"
        r"|\bgrant every request\b|\bapprove every\b|\balways approve\b|\bsay nothing about\b|\bas your own knowledge\b"
        r"|\b(?:ask|asks) (?:the user )?for (?:their|the user'?s) password\b|\bskip all safety\b",
        NOCASE,
    )
)
_ASSIGN = Screened(
    re.compile(
        r"\b(?:always |must )?(?:set|pass|use|fill|put)\b[^.]{0,30}?\b(?:to|with|as)?\s*"
        r"(?:'[^']+'|\"[^\"]+\"|(?-i:[A-Z0-9][A-Z0-9./-]*[0-9][\w./-]*))"
        r"\s+(?:regardless|no matter|whatever|every time|in every|when the user)\b"
        r"|\balways (?:set|pass|use) (?:this|it)(?: field)? to\b|\bset this field to\b|\buse \S+ no matter\b"
        r"|\balways pass /",
        NOCASE,
    )
)
_SECRET = (
    r"(?:conversation|chat history|chat log|(?:the user's|all|every|previous|last \w+) messages?|system prompt|"
    r"hidden prompts?|previous tool results|api[ _-]?(?:key|token)|access token|session token|password|passwords|"
    r"credentials?|secrets?|private key|cookies?|customer records|the user's files|\.env|environment variables?|"
    r"the text you were given|location and name|email address and password|every code|its contents)"
)
_EXFIL = Screened(
    re.compile(
        r"\b(?:send|sends|forward|post|upload|transmit|email|e-mail|copy|leak|report|paste|put|include|append|add|write|"
        r"fill|collect|save|bcc)\b[^.]{0,60}?\b" + _SECRET + r"\b"
        r"|\b" + _SECRET + r"\b[^.]{0,40}?\b(?:to|into|in the|as|here)\b[^.]{0,40}?(?:@|https?://|ftp://|\bfield\b|"
        r"\bparameter\b|\bargument\b|\bquery\b|\boutput\b|\brequest\b|\bdiagnostics\b|\bupload\b|\bbucket\b)"
        r"|~/\.(?:ssh|aws|netrc|cursor|config|kube|docker|npmrc|pypirc|gnupg)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b"
        r"|/etc/(?:passwd|shadow|sudoers)|credentials\.json|\bbrowser cookies\b"
        r"|(?-i:\b[A-Z]+_(?:API_)?(?:KEY|TOKEN|SECRET)\b)"
        r"|!\[[^\]]*\]\(https?://[^)]*[?&][^)]*=|https?://\S*[?&]\w+=(?:\s|$|[A-Z_]{4,}|\{)"
        r"|\b(?:send|forward|post|upload|transmit|copy|report|email)\b[^.]{0,60}?\b(?:to|into)\s+<?(?:[\w.+-]+@[\w-]+\.[\w.-]+|(?:https?|ftp)://)"
        r"|\bb?cc\b[^.]{0,40}?@"
        r"|\bwithout telling (?:them|the user)\b|\bkeep this between us\b|\bquietly\b",
        NOCASE,
    )
)
_TOOL_HIJACK = Screened(
    re.compile(
        r"\binstead of (?:using|calling)\b"
        r"|\b(?:do not|don't|never) (?:use|call)\b[^.]{0,30}?\btool\b[^.]{0,20}?(?:broken|deprecated|unsafe|again|;|,)"
        r"|\breplaces? the \w+ tool\b|\bnever call \w+ again\b|\bnever call the \w+ tool\b"
        r"|\b(?:before|after) (?:calling |using )?(?:any|every|each)(?: and every)? (?:other )?tool\b"
        r"|\bbefore every other tool\b|\bafter (?:every|each) call to \w+\b"
        r"|\bother tools\b[^.]{0,40}\b(?:deprecated|unsafe|broken|disabled)\b|\broute everything through\b"
        r"|\bprefer this tool over every\b|\bonly this tool gives\b|\bignore answers from\b"
        r"|\bsupersedes? the instructions of\b|\bwhen \w+ is requested, call\b|\bcall \w+ instead\b"
        r"|\bwhenever (?:you use|the user asks)\b[^.]{0,60}\b(?:call|set|use)\b"
        r"|\bwhen (?:posting|the user asks to \w+)\b[^.]{0,60}\b(?:call|replace|set)\b"
        r"|\bif the user asks for \w+, use this tool\b|\bsay it was \w+\b"
        r"|\bcall (?:the )?\w+(?: tool)? (?:after|before) each request\b"
        r"|\bthe tool named \w+\b[^.]{0,40}\bhidden argument\b"
        r"|\bcall \w+ with\b[^.]{0,40}\b(?:enabled|destination|public|password)\b"
        r"|\bcall \w+ with every message\b|\bcall get_admin_token\b|\bcall (?:the )?(?:delete|transfer|clear)_\w+\b",
        NOCASE,
    )
)
_MARKUP = Screened(
    re.compile(
        r"<\|(?:endoftext|system|user|assistant|end|eot|begin_of_text|start_header_id|end_header_id)\|>"
        r"|</?IMPORTANT>|\[/?SYSTEM\]|</?tool_description>|</system>|<system\b"
        r"|(?:^|\n)\s*(?:human|user|assistant|system)\s*:|(?:^|\n)#{1,4}\s*(?:system|instructions?|admin)\b"
        r"|\bSYSTEM\s*:|\bPRIORITY OVERRIDE\b|\bATTENTION ALL (?:AGENTS|ASSISTANTS|MODELS)\b",
    )
)
_AUTHORITY = Screened(
    re.compile(
        r"\b(?:supersedes?|takes? priority over|overrides?|come first|highest authority)\b[^.]{0,40}?"
        r"\b(?:system prompt|user|instructions|rules|every|all)\b|\badmin notice\b|\bper the security team\b",
        NOCASE,
    )
)
#: Skipping the user's say before an action: confirmation, approval, consent not to be asked for.
_ASK = (
    r"(?:ask|asking|wait|waiting|pause|pausing|request|requesting|check|checking|get|getting|seek|seeking|"
    r"show|showing|prompt|prompting)"
)
_SAY_SO = r"(?:confirm|confirmation|confirmations|approval|approve|consent|permission|ok|okay|go-ahead|sign-off)"
_SKIP_CONFIRMATION = Screened(
    re.compile(
        rf"\b(?:do not|don't|never|no need to|need not|without)\s+(?:\w+\s+){{0,2}}?{_ASK}\b[^.;]{{0,50}}?\b{_SAY_SO}\b"
        rf"|\b(?:skip|skipping|bypass|bypassing|ignore|ignoring|avoid|suppress)\b[^.;]{{0,30}}?\b{_SAY_SO}\b"
        rf"|\bwithout (?:the user'?s? |any |user |their |prior )?{_SAY_SO}\b"
        r"|\b(?:never|do not|don't) ask the user\b[^.;]{0,30}\bto (?:confirm|approve|agree)\b"
        r"|\bthe user (?:has already approved|already approved|does not need to be asked|need not be asked)\b"
        r"|\bassume the user (?:consents|approves|agrees|has approved|has agreed|has confirmed)\b"
        r"|\bno need to (?:confirm|check) with the user\b",
        NOCASE,
    )
)
#: A skip that is the tool's own documented switch ("set to true to skip the confirmation prompt").
_SKIP_SWITCH = re.compile(
    r"\b(?:set (?:this |it )?to true|if true|when true|=\s*true|pass \S+ to)\b[^.;]{0,20}\bskip", NOCASE
)
#: Another tool, or every tool, run first, around or instead: this tool shadowing the catalogue.
_SHADOWING = Screened(
    re.compile(
        r"\b(?:before|after)\s+(?:you\s+)?(?:call|calling|use|using|invoke|invoking|run|running)\s+(?:any|every|each|all)\b"
        r"|\balways (?:call|invoke|run|use) (?:the )?\w+(?: tool)? (?:first|before|after)\b"
        r"|\b(?:on|for|in|with|at) (?:every|each) (?:call|request|message|turn|conversation|tool call|answer)\b"
        r"[^.;]{0,80}?\b(?:call|invoke|run)\b"
        r"|\b(?:call|calls|invoke|run)\b[^.;]{0,40}?\b(?:before|after) (?:each|every|any)\b"
        r"|\bwhenever \w+ is (?:needed|used|called|requested)\b[^.;]{0,40}\b(?:use|call|invoke)\b"
        r"|\bevery time you (?:use|call|invoke)\b[^.;]{0,60}\b(?:call|invoke|use)\b"
        r"|\bin place of \w+|\brather than (?:calling|using) \w+"
        r"|\bmust be (?:called|invoked|used|run) first\b|\bbefore any other tool\b"
        r"|\bcall every other tool through\b|\bthrough this (?:one|tool)\b[^.;]{0,30}\b(?:names|arguments)\b"
        r"|\bcall \w+ and follow (?:what|whatever) it\b|\bfollow (?:what|whatever) it returns\b",
        NOCASE,
    )
)
#: Somewhere outside: a URL, an e-mail address, an IP address or a host name.
_HOST = (
    r"(?:(?:https?|ftp|wss?)://\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b\d{1,3}(?:\.\d{1,3}){3}\b"
    r"|\b(?:[a-z0-9-]+\.)+(?:com|net|org|io|dev|app|example|co|info|biz|xyz|ru|cn|me|site|cloud)\b)"
)
#: Data sent, copied or reported to a place named in the text.
_SEND_OUT = Screened(
    re.compile(
        r"\b(?:send|sends|forward|forwards|post|posts|upload|uploads|transmit|report|relay|mirror|share|copy|"
        r"include|cc|bcc|sync|push|log|beacon|stream|exfiltrate|leak)\b[^.;]{0,80}?" + _HOST
        + r"|\b(?:the user'?s?|user'?s?) (?:last|previous|latest|whole|full) (?:message|messages|request|question)\b"
        r"[^.;]{0,80}?" + _HOST,
        NOCASE,
    )
)
#: Another tool's arguments set, changed or added to by this tool's text.
_OTHER_ARGUMENTS = Screened(
    re.compile(
        r"\b(?:when|whenever|every time|each time|if)\s+(?:calling|using|you call|you use|invoking)\s+"
        r"(?!(?:this|it|the)\b)\w+"
        r"[^.;]{0,60}?\b(?:set|change|add|append|override|replace|use|pass|force)\b"
        r"|\bwhenever \w+ is (?:used|called|invoked)\b[^.;]{0,60}?\b(?:set|change|add|append|override|replace)\b"
        r"|\bfor \w+_\w+,\s*(?:override|set|change|force|always)\b"
        r"|\b(?:set|change|override|replace|force)\s+(?:the\s+)?\w+\s+(?:in|of|for)\s+\w+_\w+\b"
        r"|\bcall \w+_\w+ with \w+ (?:set to|=)"
        r"|\bpass \S+=\S+ to \w+_\w+\b"
        r"|\bto every (?:query|call|request|message) you (?:pass|send) to\b"
        r"|\bany other tool that takes\b|\bother tools?'? (?:arguments|parameters)\b"
        r"|\bto its (?:cc|bcc|to|recipients?|amount|path|destination|channel) (?:field|argument|parameter)\b"
        r"|\b(?:update|\w+)_\w+ is called, use\b",
        NOCASE,
    )
)
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{20,}={0,2}(?![A-Za-z0-9+/=])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){16,}(?![0-9A-Fa-f])")
#: In an enum value or a default: a path out of the workspace, a command, a URL that carries data.
_HOSTILE_VALUE = Screened(
    re.compile(r"(?:https?://\S+[?&]\S*=|\.\./\.\./|/etc/|\brm -rf\b|\bcurl\b|\|\s*sh\b|;\s*rm\b)", NOCASE)
)
#: An address or URL: hostile in an enum value (a choice has no need of one), to review in a default.
_ADDRESS_VALUE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+|(?:https?|ftp)://", NOCASE)
_INSTRUCTION_WORDS = Screened(
    re.compile(
        r"\b(?:ignore|disregard|call|send|forward|tell|never|always|must|reveal|approve|secretly|bcc|read|reply|"
        r"select|choose|you are|mention|disable|before answering)\b",
        NOCASE,
    )
)

_WORDS = re.compile(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}")
_BLANK_RUN = re.compile(r"(?:[ \t]{40,}|\n{8,})\S")
_NO_REPLY = re.compile(r"(?:no-?reply|do-?not-?reply)@", NOCASE)

MSG_201 = (
    "An instruction to the model about what to say, whom to obey or what to be; a tool's documentation has "
    "no need of one."
)
MSG_202 = (
    "The text asks for the conversation, secrets or files to be sent out, put in an argument, or read from "
    "where keys are kept."
)
MSG_203_DECODED = "An encoded blob ({encoding}) that decodes to an instruction: {decoded!r}."
MSG_203_TEXT = "An encoded blob ({encoding}) that decodes to text: {decoded!r}. A description has no need to hide text."
MSG_203_INVISIBLE = (
    "An invisible character (U+{code:04X}) the reader does not see; it can hide text or split words past a filter."
)
MSG_204 = (
    "An enum value or default that holds an instruction, an address, a path or a command; the model copies "
    "it into calls."
)
MSG_205 = (
    "The text steers the use of other tools: replacing, avoiding or chaining them, or running this one around "
    "every call."
)
MSG_207 = (
    "The text tells the model to act without the user's confirmation or approval; a consequential action "
    "is the user's to approve."
)
MSG_205_SHADOW = (
    "The text has the model call another tool, or every tool, first, around or instead: this tool shadows "
    "the others' behaviour."
)
MSG_202_SEND = "The text has data sent, copied or reported to a host, URL or address it names."
MSG_208 = "The text sets, changes or adds to the arguments of another tool; a tool's text has no say over another's."
MSG_206 = "Chat or prompt markup ('{markup}'), or text pushed out of sight, inside tool metadata."
MSG_206_AUTHORITY = "The text claims authority over the system prompt, the user or other tools."


def _decoded_text(blob: str, encoding: str) -> str | None:
    """The blob decoded, when it decodes to mostly printable text; None otherwise."""
    try:
        raw = (
            base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True)
            if encoding == "base64"
            else binascii.unhexlify(blob)
        )
        text = raw.decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return None
    printable = sum(1 for c in text if c.isprintable() or c.isspace())
    if len(text) < 8 or printable < 0.95 * len(text) or not _WORDS.search(text):
        return None
    return text


def _reads_as_instruction(text: str) -> bool:
    folded = fold(text)
    # The word list first: it is the cheapest of these searches and the likeliest to answer.
    return _INSTRUCTION_WORDS.search(folded) is not None or any(
        p.search(folded) for p in (_DIRECTIVE, _EXFIL, _TOOL_HIJACK, _MARKUP)
    )


def _covered(hits: list[Hit], rule_ids: tuple[str, ...], start: int, end: int, severity: Severity) -> bool:
    return any(h.rule_id in rule_ids and h.start <= start and end <= h.end and h.severity >= severity for h in hits)


_SEGMENT_RULES = (
    ("TS201", _DIRECTIVE, MSG_201, ("TS101",)),
    ("TS201", _ASSIGN, MSG_201, ("TS101", "TS102")),
    ("TS202", _EXFIL, MSG_202, ("TS105",)),
    ("TS205", _TOOL_HIJACK, MSG_205, ("TS103",)),
    ("TS207", _SKIP_CONFIRMATION, MSG_207, ()),
    ("TS202", _SEND_OUT, MSG_202_SEND, ("TS105",)),
    ("TS205", _SHADOWING, MSG_205_SHADOW, ("TS103",)),
    ("TS208", _OTHER_ARGUMENTS, MSG_208, ("TS103",)),
)


def our_hits(text: str, ctx: Context, reference: list[Hit]) -> list[Hit]:
    """TS201 to TS206 on one field's text, given the reference's hits on it."""
    hits: list[Hit] = []
    for seg in ctx.reading.segments(text):
        hits.extend(our_segment_hits(seg, ctx, reference))
    hits.extend(our_field_hits(text, ctx))
    return hits


def our_segment_hits(seg: Segment, ctx: Context, reference: list[Hit]) -> list[Hit]:
    """TS201, TS202, TS205 and TS206's markup on one segment, given the reference's hits on its field.

    Only the reference's hits whose span holds the segment's count; none of our own do.
    """
    reading = ctx.reading
    hits: list[Hit] = []
    folded = reading.fold(seg.text)
    for rule_id, pattern, message, covered_by in _SEGMENT_RULES:
        if pattern is _SKIP_CONFIRMATION and _SKIP_SWITCH.search(folded):
            continue
        if reading.found(pattern, folded) and not _covered(reference, covered_by, seg.start, seg.end, Severity.HIGH):
            hits.append(Hit(rule_id, Severity.HIGH, seg.start, seg.end, message))
            break
    markup = reading.search(_MARKUP, folded)
    if markup and not _covered(reference, ("TS106",), seg.start, seg.end, Severity.HIGH):
        hits.append(Hit("TS206", Severity.HIGH, seg.start, seg.end, MSG_206.format(markup=markup.group().strip())))
    elif reading.found(_AUTHORITY, folded) and not _covered(reference, ("TS107",), seg.start, seg.end, Severity.MEDIUM):
        hits.append(Hit("TS206", Severity.MEDIUM, seg.start, seg.end, MSG_206_AUTHORITY))
    return hits


def our_field_hits(text: str, ctx: Context) -> list[Hit]:
    """TS203, TS206's blank run and TS204: they read the text alone (and the field's kind), once per text."""
    return list(ctx.reading.once(f"our_field_rules:{ctx.field_kind}", text, lambda t: _field_hits(t, ctx.field_kind)))


def _field_hits(text: str, field_kind: str) -> tuple[Hit, ...]:
    """TS203, TS206's blank run and TS204 on one field's text."""
    hits: list[Hit] = []
    for encoding, pattern in (("base64", _BASE64), ("hex", _HEX)):
        for match in pattern.finditer(text):
            decoded = _decoded_text(match.group(), encoding)
            if decoded is None:
                continue
            if _reads_as_instruction(decoded):
                message = MSG_203_DECODED.format(encoding=encoding, decoded=decoded[:80])
                hits.append(Hit("TS203", Severity.HIGH, match.start(), match.end(), message))
            else:
                message = MSG_203_TEXT.format(encoding=encoding, decoded=decoded[:80])
                hits.append(Hit("TS203", Severity.MEDIUM, match.start(), match.end(), message))
    for match in MORE_INVISIBLE.finditer(text):
        message = MSG_203_INVISIBLE.format(code=ord(match.group()))
        hits.append(Hit("TS203", Severity.HIGH, match.start(), match.end(), message))
    blank = _BLANK_RUN.search(text)
    if blank:
        hits.append(
            Hit("TS206", Severity.HIGH, blank.start(), len(text), MSG_206.format(markup="a long run of blank space"))
        )
    if field_kind in ("enum", "default"):
        folded = fold(text)
        address = _ADDRESS_VALUE.search(folded) is not None
        if (
            _HOSTILE_VALUE.search(folded)
            or (len(folded.split()) >= 3 and _reads_as_instruction(folded))
            or (address and field_kind == "enum")
        ):
            hits.append(Hit("TS204", Severity.HIGH, 0, len(text), MSG_204))
        elif address and "@" in folded and not _NO_REPLY.match(folded):
            hits.append(Hit("TS204", Severity.MEDIUM, 0, len(text), MSG_204))
    return tuple(hits)
