"""What the adversarial differential finds that we do not match, by name, with why and a witness seed.

Each difference says which renders it can touch (decided from the IR and the
options, never from the text that differs); ``adjust_render`` sets aside the
members the tool block decides for such a render when the two blocks differ. A
difference whose witness set no longer needs it fails its test, so the list
stays true.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toolform.render.options import convert_case

from support.parse_corpus import Case

Answer = dict[str, Any]

#: The members a tool block's text decides (hidden fields and their warning are read from the block).
_FROM_THE_BLOCK = ("tool_block", "system_prompt", "messages", "chars", "tokens_estimate", "hidden_fields", "warnings")


@dataclass(frozen=True)
class OpenRenderDifference:
    name: str
    why: str
    #: Whether the difference can touch a render of this IR with these options.
    touches: Callable[[dict[str, Any], dict[str, Any]], bool]
    #: A set (adversarial.tool_set seed) whose render still differs, and whether its names are hostile.
    witness: int
    hostile_names: bool = False


def _scopes(ir: dict[str, Any]) -> Iterator[list[str]]:
    """The lists of names that share a scope: the tools', each tool's parameters', each object's fields'."""
    tools = ir.get("tools", [])
    yield [tool["name"] for tool in tools]

    def of_type(type_: dict[str, Any] | None) -> Iterator[list[str]]:
        if not isinstance(type_, dict):
            return
        fields = type_.get("fields") or []
        if fields:
            yield [f["name"] for f in fields]
        for field in fields:
            yield from of_type(field.get("type"))
        yield from of_type(type_.get("item"))
        for member in type_.get("union_of") or []:
            yield from of_type(member)

    for tool in tools:
        yield [p["name"] for p in tool.get("params", [])]
        for param in tool.get("params", []):
            yield from of_type(param.get("type"))


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


#: Words the adversarial names draw that some language reserves (or YAML reads as another type).
_RESERVED = frozenset(
    {"class", "def", "return", "from", "type", "yes", "null", "true", "on", "end", "select", "__init__"}
)


def names_are_not_identifiers(ir: dict[str, Any]) -> bool:
    """Some tool, parameter or field name of the set is no identifier (``a b``, ``x.y``, ``</tool>``, empty),
    or a word some language reserves (``class``, ``return``, ``select``)."""
    return any(_IDENTIFIER.match(name) is None or name in _RESERVED for names in _scopes(ir) for name in names)


def reply_names_are_hostile(ir: dict[str, Any]) -> bool:
    """Names a reply cannot write plainly (``names_are_not_identifiers``), or two names of one scope that are
    one in snake case (``ship`` and ``ship_``), which the reference's readers take for one."""
    return names_are_not_identifiers(ir) or names_collide(ir, {"case_convention": "snake"})


def names_collide(ir: dict[str, Any], options: dict[str, Any]) -> bool:
    """Two names of one scope become the same name under the options' case convention (``days``, ``days_``)."""
    convention = options.get("case_convention", "as_is")
    return any(len({convert_case(n, convention) for n in names}) < len(names) for names in _scopes(ir))


RENDER: list[OpenRenderDifference] = [
    OpenRenderDifference(
        "names-collide-under-case-convention",
        "Two names of one scope that the case convention makes one (``days`` and ``days_`` are both ``days`` in "
        "camel case): the reference keys what it writes by the converted name, so the later parameter replaces "
        "the earlier (one line, the later one's flags; a tool compared with itself), where ours writes both as "
        "they come. Neither text is right, since the model sees one name for two parameters; ours loses none. "
        "Only renders whose names collide are set aside.",
        lambda ir, options: names_collide(ir, options),
        63,
    ),
    OpenRenderDifference(
        "names-that-are-no-identifiers",
        "A tool, parameter or field name that is no identifier (a dash, a space, a dot, markup, quotes, a "
        "line break, non-ASCII, invisible characters, an empty name) or a reserved word (class, return, "
        "select): the reference rewrites it into an "
        "identifier in the code and IDL formats by rules of its own per format (member-id as member_id, "
        "</tool> as Tool, an empty name as _, café as caf in Thrift), and reads which names the block shows by "
        "those rewritten names, so its hidden_fields and their warning differ too. Ours writes the name as "
        "the tool declares it, since the call must use that name. Sets with identifier names render byte for "
        "byte.",
        lambda ir, options: names_are_not_identifiers(ir),
        0,
        hostile_names=True,
    ),
]


def adjust_render(ir: dict[str, Any], options: dict[str, Any], ours: Answer, reference: Answer) -> list[str]:
    """Set aside the block's members where an open difference touches the render and the blocks differ."""
    if ours.get("tool_block") == reference.get("tool_block"):
        # With names that are no identifiers, which names a block shows is read by each side's own rules.
        shown = ("hidden_fields", "warnings")
        if names_are_not_identifiers(ir) and any(ours.get(m) != reference.get(m) for m in shown):
            for member in shown:
                ours.pop(member, None)
                reference.pop(member, None)
            return ["names-that-are-no-identifiers"]
        return []
    for difference in RENDER:
        if difference.touches(ir, options):
            for member in _FROM_THE_BLOCK:
                ours.pop(member, None)
                reference.pop(member, None)
            return [difference.name]
    return []


# -- parse ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenParseDifference:
    name: str
    why: str
    #: Whether the difference can explain the two verdicts on ``case`` (its kind and protocol, and where
    #: said, which syntax each side's reader took).
    touches: Callable[[Case, Answer, Answer, bool], bool]
    #: What is left of each verdict to compare.
    keep: Callable[[Answer], Answer]
    #: A seed (adversarial.tool_set and adversarial.replies) one of whose replies still needs it, and whether
    #: its names are hostile.
    witness: int
    hostile_names: bool = False


def _only(*members: str) -> Callable[[Answer], Answer]:
    return lambda answer: {m: answer[m] for m in members if m in answer}


def _tools(answer: Answer) -> list[str]:
    """The tools the verdict's calls go to (a call another difference already set aside to its tool too)."""
    return [call if isinstance(call, str) else call["resolved_name"] for call in answer.get("calls", [])]


def _calls_named(answer: Answer) -> Answer:
    kept = _only("protocol_id", "rule", "parsed_strict", "format_compliant", "matched_syntax", "hallucinated",
                 "reasoning_removed")(answer)  # fmt: skip
    kept["calls"] = _tools(answer)
    return kept


#: The protocols whose replies are JSON (or JSON inside tags); the others are read by their own text rules.
_JSON_PROTOCOLS = frozenset(
    {"json_object", "json_array", "jsonl_call", "code_block_json", "native", "slot_fill_call", "tool_call_tags",
     "two_step_call", "react", "function_tags", "xml_call"}
)  # fmt: skip
#: The reference's rules for replies in words, which its lenient reader ends with.
_WORD_RULES = frozenset({"nl_intent_structured", "nl_intent"})


def _read_by_word_rules(case: Case, ours: Answer, reference: Answer, _hostile: bool) -> bool:
    """One side's verdict came from its rules for words (or a frame miss) and the other's did not."""

    def by_words(answer: Answer) -> bool:
        return answer.get("matched_syntax") in _WORD_RULES or str(answer.get("note", "")).startswith("frame-miss")

    differ = (ours.get("matched_syntax"), ours.get("note")) != (reference.get("matched_syntax"), reference.get("note"))
    return (differ or _tools(ours) != _tools(reference)) and (by_words(ours) or by_words(reference))


def _without_arguments(answer: Answer) -> Answer:
    """The verdict with each call's tool only: its arguments, their validation and ok set aside."""
    kept = {k: v for k, v in answer.items() if k not in ("ok", "calls")}
    kept["calls"] = _tools(answer)
    return kept


PARSE: list[OpenParseDifference] = [
    OpenParseDifference(
        "cut-off-salvage",
        "A reply cut off anywhere is no reply in any syntax; both readers salvage what they can, by different "
        "rules: ours reads a call whose syntax closes, or the parameters an XML or tag call closed before the cut "
        "(and says so); the reference's readers take a half-written value (a lone quote, a cut number) or find "
        "the tool's name in what is left. Compared: the protocol, the rule and the reasoning removed.",
        lambda case, ours, reference, _hostile: case.name == "cut_off",
        _only("protocol_id", "rule", "reasoning_removed"),
        1,
    ),
    OpenParseDifference(
        "loose-syntax-readers",
        "A call written near its protocol's syntax, as models also write it (SELECT f(a='x') for f(a => 'x'), "
        "TOML without its [[call]] table, a pipe line for a table, <name> and <arguments> for generic XML, an "
        "arrow for the symbolic call, TOOL: and ARGS: for two steps): each strict reader accepts its own near "
        "variants (the reference's SQL and TOML readers take `=` and a bare table; ours takes generic XML's "
        "<name>), and the lenient readers then find the call in different syntaxes. Compared: the protocol, "
        "the rule and the reasoning removed.",
        lambda case, ours, reference, _hostile: case.name == "loose_syntax",
        _only("protocol_id", "rule", "reasoning_removed"),
        1,
    ),
    OpenParseDifference(
        "tool-names-in-words",
        "The reference's rules for replies in words (nl_intent_structured's, with which its lenient reader ends, "
        "and its frame-miss reading) take a tool's name wherever it stands, even inside another word (`it` in "
        "`with`, `of` in `none of the tools`), so a decline, prose or a call in a syntax no reader took reads as "
        "a call to that tool; ours reads a tool's name in words only after a verb that uses it (`use`, `call`). "
        "Either way round: ours, reading a decline for a tool's name after a verb, can find a call where the "
        "reference's no-call sentences came first. Compared: the protocol, the rule and the reasoning removed.",
        _read_by_word_rules,
        _only("protocol_id", "rule", "reasoning_removed"),
        0,
    ),
    OpenParseDifference(
        "symmetric-rule-rewrites-arguments",
        "Under the symmetric rule the reference rewrites each call's arguments by the schema before it checks "
        "them: text trimmed at both ends at every depth, an enum value replaced by its member whatever its case, "
        "a whole number written as text (' 3.0 ') made a number, 'true' a boolean, a lone value a list; "
        "undeclared arguments stay. Ours grades the arguments as written under every rule (the rule decides "
        "only what counts as a match), so values with white space at their ends or in another case are "
        "checked as they are. Compared: everything but the calls' arguments, their validation and ok.",
        lambda case, ours, reference, _hostile: case.options.get("rule") == "symmetric",
        _without_arguments,
        1,
    ),
    OpenParseDifference(
        "invented-names-read",
        "A call to an invented tool: the reference's YAML, key-value, SQL and generic XML readers read a call "
        "only to a tool that exists (so the reply is no call in that syntax, or one its word rules find), and "
        'its rejected calls keep their text values as written ("0", "[]", "null"); ours reads the '
        "call, rejects it and lists the name in hallucinated, with its values read as JSON. Compared: the "
        "protocol, the rule, the reasoning removed and the calls to known tools.",
        lambda case, ours, reference, _hostile: case.name == "invented_name",
        _only("protocol_id", "rule", "reasoning_removed"),
        7,
    ),
    OpenParseDifference(
        "identical-calls-once",
        "Two identical calls one after the other (Python, python_tag, TOML): the reference lists such a call "
        "once in some readers and twice in others; ours lists every call the reply makes. Compared: which "
        "tools are called, once each, and the verdict's other members.",
        lambda case, ours, reference, _hostile: (
            case.name == "several_calls"
            and _tools(ours) != _tools(reference)
            and set(_tools(ours)) == set(_tools(reference))
        ),
        lambda answer: {k: v for k, v in answer.items() if k != "calls"} | {"calls": sorted(set(_tools(answer)))},
        15,
    ),
    OpenParseDifference(
        "command-line-reader-takes-lines",
        "The command-line reading (cli_call's own, and the lenient fallback's): the reference's takes any line "
        "that starts with a tool's name as a command (a CSV or pipe row, a tool's name above its JSON "
        "arguments), each such line a call; "
        "ours reads a command line only with its --flags, so the row is read as the CSV or pipe syntax it is. "
        "Compared: the protocol, the rule, the reasoning removed and the strict reading.",
        lambda case, ours, reference, _hostile: (
            reference.get("matched_syntax") == "cli_call"
            and (case.protocol != "cli_call" or ours.get("matched_syntax") != "cli_call")
        ),
        _only("protocol_id", "rule", "reasoning_removed", "parsed_strict"),
        7,
    ),
    OpenParseDifference(
        "two-step-reads-a-name-line",
        "The reference's lenient fallback also tries two_step_call's syntax, a tool's name on a line of its "
        "own, so a table row or a line holding only a tool's name is read as a two-step call there; ours "
        "leaves two_step_call out of the fallback (any reply naming a tool would match it) and reads the row "
        "as the table it is. Compared: the protocol, the rule, the reasoning removed and the strict reading.",
        lambda case, ours, reference, _hostile: (
            reference.get("matched_syntax") == "two_step_call" and case.protocol != "two_step_call"
        ),
        _only("protocol_id", "rule", "reasoning_removed", "parsed_strict"),
        342,
        hostile_names=True,
    ),
    OpenParseDifference(
        "json-after-stray-quotes",
        "A JSON call or an s-expression after prose or reasoning that holds a quote, a bracket, markup or a "
        "JSON word (a double quote, /*, <![CDATA[, true): the reference's JSON and s-expression readers start "
        "at the first such character and find no call, or count the word as a JSON value before the call "
        "(and note two objects); ours finds the value that reads as a call. Compared: the protocol, the rule "
        "and the reasoning removed.",
        lambda case, ours, reference, _hostile: (
            (case.protocol in _JSON_PROTOCOLS or case.protocol == "sexpr_call")
            and case.name in ("prose_around", "reasoning_in_front")
            and (
                (bool(ours.get("parsed_strict")) and not reference.get("parsed_strict"))
                or ours.get("note") != reference.get("note")
            )
        ),
        _only("protocol_id", "rule", "reasoning_removed"),
        46,
    ),
    OpenParseDifference(
        "text-values-read-by-rules",
        "The text protocols' values (nl_intent, key_value_call, YAML, TOML, URL, CSV, tables, symbolic, "
        "s-expressions, GraphQL, SQL, Python) are read by different rules: the reference reads 1e+21 as 1.0 in "
        "words and key-value lines, t as false in an s-expression, a URL value up to the next & (ours to the "
        "first space), and keeps some values as written where ours converts by the schema (or the other way); "
        "so arguments, their validation and ok differ. Compared: the calls found and their tools, the strict "
        "reading, the syntax matched and the invented names.",
        lambda case, ours, reference, _hostile: (
            case.protocol not in _JSON_PROTOCOLS or ours.get("matched_syntax") not in _JSON_PROTOCOLS
        ),
        _calls_named,
        2,
    ),
]


PARSE.append(
    OpenParseDifference(
        "reply-names-that-are-no-identifiers",
        "A set whose tool or parameter names are no identifiers (a space, a dot, markup, quotes, a line break, "
        "an empty name) or reserved words: a call written with such a name is no longer in its protocol's "
        "syntax, and each reader finds, cuts or misses the name by its own rules (the reference's by "
        "identifier patterns, ours by the names the tools declare). Two names that are one in snake case "
        "(ship and ship_) are one argument to the reference (ship_ given counts as ship given); ours matches "
        "names exactly. Compared: the protocol, the rule and the reasoning removed.",
        lambda case, ours, reference, hostile: hostile,
        _only("protocol_id", "rule", "reasoning_removed"),
        0,
        hostile_names=True,
    )
)


#: The protocols read a line at a time, whose readers in the reference take any line that starts with a tool's name.
_LINE_PROTOCOLS = frozenset(
    {"cli_call", "csv_call", "pipe_call", "two_step_call", "symbolic_call", "table_call", "toml_call", "sexpr_call"}
)


def _line_read(case: Case, ours: Answer, reference: Answer, _hostile: bool) -> bool:
    if case.protocol not in _LINE_PROTOCOLS:
        return False
    strict_only_theirs = bool(reference.get("parsed_strict")) and not ours.get("parsed_strict")
    more_calls = len(reference.get("calls", [])) > len(ours.get("calls", []))
    return strict_only_theirs or more_calls or ours.get("hallucinated") != reference.get("hallucinated")


PARSE += [
    OpenParseDifference(
        "line-readers-take-any-named-line",
        "cli_call, csv_call, pipe_call, two_step_call, symbolic_call, table_call, toml_call and sexpr_call: "
        "the reference's readers take any line that starts with a tool's name as a call (its arguments "
        "optional), so a line of prose or reasoning beginning with a tool's name (now, a, the) or another "
        "syntax's line ([f()], a()) is one more call (toml_call's takes a name = \"a\" anywhere, an XML "
        "attribute too; sexpr_call's a bracket before a tool's name anywhere, of in f(of=\"\")), and a line "
        "naming no tool is skipped rather than reported; ours reads only lines in the "
        "protocol's syntax and lists an unknown name in hallucinated. Compared: the protocol, the rule and "
        "the reasoning removed.",
        _line_read,
        _only("protocol_id", "rule", "reasoning_removed"),
        212,
    ),
    OpenParseDifference(
        "backticks-inside-fenced-values",
        "A fenced reply whose call holds three backticks inside a string value: the reference's fence reading "
        "ends the fence there and finds no call (or a cut one); ours ends a fence only at backticks that "
        "close it. Compared: the protocol, the rule and the reasoning removed.",
        lambda case, ours, reference, _hostile: case.text.count("```") > 2,
        _only("protocol_id", "rule", "reasoning_removed"),
        164,
    ),
    OpenParseDifference(
        "lenient-fallback-order",
        "A reply in another protocol's syntax that neither strict reader takes: the lenient fallbacks try the "
        "syntaxes in different orders and with different readers (the reference's URL reader takes generic "
        "XML's <call> before its own XML reader does, its Python reader a bare f()), so matched_syntax and "
        "the calls read differ. Compared: the protocol, the rule, the reasoning removed and the strict "
        "reading.",
        lambda case, ours, reference, _hostile: (
            case.name.startswith("lenient_from_")
            and not ours.get("parsed_strict")
            and not reference.get("parsed_strict")
        ),
        _only("protocol_id", "rule", "reasoning_removed", "parsed_strict"),
        446,
    ),
    OpenParseDifference(
        "markup-inside-json-values",
        "slot_fill_call and the JSON readers with markup inside a string value (<, </tool>, <![CDATA[): the "
        "reference takes the markup for tags around the reply and no longer reads the JSON in its protocol "
        "(it finds it as native, or not at all); ours reads the JSON, values and all. Compared: the protocol, "
        "the rule and the reasoning removed.",
        lambda case, ours, reference, _hostile: (
            case.protocol in _JSON_PROTOCOLS
            and "<" in case.text
            and bool(ours.get("parsed_strict"))
            and not reference.get("parsed_strict")
        ),
        _only("protocol_id", "rule", "reasoning_removed"),
        628,
    ),
    OpenParseDifference(
        "function-tags-one-block",
        "Several <function=...> blocks one after another, one of them with an empty parameter, braces or "
        "control characters in a value: the reference reads one call; ours reads each block. Compared: the "
        "protocol, the rule and the reasoning removed.",
        lambda case, ours, reference, _hostile: (
            case.protocol == "function_tags" and len(ours.get("calls", [])) > len(reference.get("calls", []))
        ),
        _only("protocol_id", "rule", "reasoning_removed"),
        757,
    ),
    OpenParseDifference(
        "one-call-of-several",
        "slot_fill_call with several calls in a JSON array, one holding an empty text or markup: the "
        "reference keeps one call; ours reads each. Compared: the protocol, the rule and the reasoning "
        "removed.",
        lambda case, ours, reference, _hostile: (
            case.protocol == "slot_fill_call" and len(ours.get("calls", [])) > len(reference.get("calls", []))
        ),
        _only("protocol_id", "rule", "reasoning_removed"),
        1764,
    ),
    OpenParseDifference(
        "sql-backslash-quotes",
        "An SQL string holding a backslash before a quote ('\\''of'): the reference reads \\' as an escaped "
        "quote (as MySQL does), ours as standard SQL reads it (a backslash, and the string ends), so the "
        "calls after it differ. Compared: the protocol, the rule and the reasoning removed.",
        lambda case, ours, reference, _hostile: case.protocol == "sql_call" and "\\'" in case.text,
        _only("protocol_id", "rule", "reasoning_removed"),
        145,
    ),
    OpenParseDifference(
        "tag-values-read-by-rules",
        "The values inside XML parameters and Llama's <parameter=...> tags: the reference converts text by "
        "its own rules (1e3 to 1000.0 for a number, true to a boolean where ours keeps the text a union "
        "allows, '' to an empty string); ours converts text by the schema (and keeps what it cannot read as "
        "written). Compared: the calls found and their tools, the strict reading, the syntax matched and "
        "the invented names.",
        lambda case, ours, reference, _hostile: (
            case.protocol in ("xml_call", "function_tags")
            and ours.get("matched_syntax") == reference.get("matched_syntax")
        ),
        _calls_named,
        690,
    ),
]


def _text(answer: Answer) -> str:
    return json.dumps(answer, sort_keys=True, ensure_ascii=False, default=str)


def adjust_parse(
    case: Case, ours: Answer, reference: Answer, hostile: bool = False
) -> tuple[Answer, Answer, list[str]]:
    """Both verdicts with what the open differences touching ``case`` set aside, when they differ; ``hostile``:
    the set's names are not all plain (``reply_names_are_hostile``)."""
    used = []
    for difference in PARSE:
        # Compared as JSON text: 0 and -0.0, or 1 and true, are equal in Python but not in a verdict (and
        # non-ASCII as it stands, so that two surrogates are not one character).
        if _text(ours) != _text(reference) and difference.touches(case, ours, reference, hostile):
            ours, reference = difference.keep(ours), difference.keep(reference)
            used.append(difference.name)
    return ours, reference, used


#: The reference's parse raises ValueError or OverflowError on a reply whose argument reads as a number no JSON
#: holds (NaN, .inf in YAML): its answer cannot be written. Ours answers, the value kept as text or refused by
#: validation.
REFERENCE_RAISES_WITNESS = 1231


def reference_raises(ours: Answer, reference: Answer) -> bool:
    """Only the reference refused the reply, with the ValueError of a non-finite number."""
    return reference.get("refused") in ("ValueError", "OverflowError") and "refused" not in ours
