"""Every difference we mean between our parse verdicts and the reference's, by name, with why.

Each difference says which corpus cases it touches and what it sets aside in
both answers before they are compared; the differential test fails when a
difference no case needs is still listed, so this list stays true.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from support.parse_corpus import Case

Answer = dict[str, Any]


@dataclass
class ParseDifference:
    """A difference we mean: the cases it touches, the members it sets aside, and why."""

    name: str
    why: str
    touches: Callable[[Case], bool]
    #: What is left of each answer to compare (the members the difference does not concern).
    keep: Callable[[Answer], Answer]
    needed: int = field(default=0, compare=False)


def _only(*members: str) -> Callable[[Answer], Answer]:
    return lambda answer: {m: answer[m] for m in members if m in answer}


def _without_call_members(*members: str) -> Callable[[Answer], Answer]:
    def keep(answer: Answer) -> Answer:
        kept = {k: v for k, v in answer.items() if k not in ("ok", "calls")}
        kept["calls"] = [{k: v for k, v in call.items() if k not in members} for call in answer.get("calls", [])]
        return kept

    return keep


#: The protocols whose reference parser takes a call only to a tool that exists (it reads no invented name).
_KNOWN_NAMES_ONLY = frozenset(
    {
        "bfcl_python_list", "bracket_call", "cli_call", "csv_call", "pipe_call", "python_call", "python_list_call",
        "python_tag", "sexpr_call", "symbolic_call", "table_call", "toml_call", "two_step_call", "url_call",
        "nl_intent", "nl_intent_structured",
    }
)  # fmt: skip

#: A Python-style call in the fixed corpus, and each protocol of that syntax the adversarial replies write.
_PYTHON_SYNTAX = frozenset(
    {"python_syntax_lenient", "lenient_from_python_call", "lenient_from_python_tag", "lenient_from_bfcl_python_list",
     "lenient_from_python_list_call", "lenient_from_bracket_call"}
)  # fmt: skip

DIFFERENCES: list[ParseDifference] = [
    ParseDifference(
        "invented-names-reported",
        "In the text protocols the reference reads a call only when its name is a known tool, so a call to an "
        "invented tool is not seen: it is neither rejected nor listed in hallucinated, and nl_intent even "
        "answers with a tool the reply did not name. Ours reads the call, rejects it and lists the name in "
        "hallucinated, as the reference does for JSON and XML, and the reply is not ok.",
        lambda case: case.name == "invented_name" and case.protocol in _KNOWN_NAMES_ONLY,
        _only("protocol_id", "rule", "no_call_declared", "reasoning_removed"),
    ),
    ParseDifference(
        "unknown-keys-kept",
        "The reference's key_value_call keeps only the keys the tool declares, so an invented argument "
        "disappears and the call passes. Ours keeps it and reports it in unknown_args: nothing is lost.",
        lambda case: case.protocol == "key_value_call" and case.name == "extra_argument",
        _without_call_members("arguments", "normalized_arguments", "valid", "validation"),
    ),
    ParseDifference(
        "document-inside-prose",
        "A YAML call or a ReAct Action Input followed by a sentence or a closing fence: the reference reads "
        "the rest of the reply as the document, fails, and keeps the call with no arguments. Ours reads the "
        "document up to where it ends, so the call keeps its arguments.",
        lambda case: (
            (case.protocol, case.name)
            in {
                ("yaml_call", "prose_around"),
                ("react", "prose_around"),
                ("react", "fenced"),
                ("react", "fenced_symmetric"),
                ("react", "fenced_as_written"),
            }
        ),
        lambda answer: {
            k: v
            for k, v in _without_call_members("arguments", "normalized_arguments", "valid", "validation")(
                answer
            ).items()
            if k != "note"
        },
    ),
    ParseDifference(
        "sexpr-t-is-true",
        "In an s-expression t is true; the reference reads :detailed t as false.",
        lambda case: case.protocol == "sexpr_call" and case.name == "all_arguments",
        _without_call_members("arguments", "normalized_arguments"),
    ),
    ParseDifference(
        "every-frame-sentence",
        "Several 'Use TOOL with ...' sentences are several calls for ours; the reference reads the first tool "
        "with every argument of every sentence, so the call fails validation.",
        lambda case: case.protocol == "nl_intent_structured" and case.name == "several_calls",
        _only("protocol_id", "rule", "parsed_strict", "matched_syntax"),
    ),
    ParseDifference(
        "graphql-needs-mutation",
        "The reference's graphql_call reads a bare Python-style call as GraphQL with no arguments; ours needs "
        "the mutation (or query) block, so the call is found by the lenient fallback with its arguments.",
        lambda case: case.protocol == "graphql_call" and case.name in _PYTHON_SYNTAX,
        _only("protocol_id", "rule", "no_call_declared", "hallucinated"),
    ),
]


_JSON_PROTOCOLS = frozenset(
    {"json_object", "json_array", "jsonl_call", "code_block_json", "native", "slot_fill_call", "tool_call_tags",
     "two_step_call", "react", "function_tags", "xml_call"}
)  # fmt: skip


def _calls_named(answer: Answer) -> Answer:
    members = ("protocol_id", "rule", "parsed_strict", "format_compliant", "hallucinated")
    kept = {k: answer[k] for k in members if k in answer}
    if "calls" in answer:
        kept["calls"] = [(c["name"], c["resolved_name"]) for c in answer["calls"]]
    return kept


DIFFERENCES += [
    ParseDifference(
        "nested-values-read-whole",
        "Lists and objects written inside the text protocols: the reference splits a Python, SQL or URL value "
        "at its commas (stops='[\"Paris'), reads some TOML and text values as written and converts others, "
        "so its verdicts on nested arguments vary by protocol. Ours reads each value whole, in the protocol's "
        "own literal syntax, converts text by the schema at every depth, and validates it; the calls found "
        "and their tools are the same.",
        lambda case: case.name.startswith("nested_") and case.protocol not in _JSON_PROTOCOLS,
        _calls_named,
    ),
    ParseDifference(
        "embedded-json-first",
        "A reply in words that also holds a JSON call: ours takes the JSON call (note embedded-json), the "
        "reference's rules read the words and lose the arguments.",
        lambda case: case.name == "no_call_then_call" and case.protocol in ("nl_intent", "nl_intent_structured"),
        _calls_named,
    ),
    ParseDifference(
        "request-line-anywhere",
        "The reference reads url_call's request line only at the start of a line, so one after a closed "
        "<thinking> block is missed; ours finds it where it stands.",
        lambda case: case.protocol == "url_call" and case.name == "reasoning_thinking_tag",
        _only("protocol_id", "rule", "hallucinated"),
    ),
    ParseDifference(
        "python-tag-json-lines",
        "Llama's JSON calls one per line after <|python_tag|> (or without it) are calls in ours; the reference "
        "reads one JSON value only and answers with none.",
        lambda case: case.protocol == "python_tag" and case.name == "json_two_objects",
        _only("protocol_id", "rule", "hallucinated"),
    ),
]


DIFFERENCES += [
    ParseDifference(
        "lenient-syntax-that-keeps-arguments",
        "The lenient fallback on a SQL, GraphQL or symbolic reply: the reference takes the Python-style call "
        "inside SELECT or the mutation (or reads the symbolic line as a command line) and loses the "
        "arguments; ours reads the reply in its own syntax, so the call keeps them (the repair names it).",
        lambda case: case.name in ("lenient_from_sql_call", "lenient_from_graphql_call", "lenient_from_symbolic_call"),
        _only("protocol_id", "rule", "hallucinated", "no_call_declared"),
    ),
    ParseDifference(
        "nl-rules-read-other-syntaxes",
        "nl_intent's rules, and nl_intent_structured's when its frame is missing, meet replies in other "
        "syntaxes (a nl_intent sentence, SQL, GraphQL, URL, s-expression, tags): which values the rules take "
        "differs in detail (the reference keeps a quote or reads a `key = value` list its own way); the call "
        "and its tool are the same, whether the rules found it or the fallback did.",
        lambda case: (
            (case.protocol == "nl_intent" and case.name.startswith("lenient_from_"))
            or case.name == "lenient_from_nl_intent"
        ),
        lambda answer: {"calls": [c["resolved_name"] for c in answer.get("calls", [])]},
    ),
]


def adjust(case: Case, ours: Answer, reference: Answer) -> tuple[Answer, Answer]:
    """Both answers with what the differences touching ``case`` set aside removed; counts what was needed."""
    for difference in DIFFERENCES:
        if difference.touches(case):
            if ours != reference:
                difference.needed += 1
            ours, reference = difference.keep(ours), difference.keep(reference)
    return ours, reference
