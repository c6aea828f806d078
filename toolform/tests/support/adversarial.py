"""Adversarial tool sets and replies for the differential harness: what breaks formats, seeded.

A hostile tool set is an OpenAI tool list whose names, descriptions, enum
values, defaults and examples carry what each format must escape or quote:
apostrophes and quotes of every kind, backslashes, line breaks and tabs, ``#``,
``:``, ``&``, ``<``, ``]]>``, ``*/``, ``--``, the YAML and TOML specials
(``yes``, ``null``, ``~``, a leading ``-``, ``!``, ``%``, ``@``, a backtick),
leading and trailing spaces, empty strings, non-ASCII, right-to-left and
zero-width characters and very long lines. Hostile replies are what models
write back: calls in each protocol's syntax, declined in words, inside prose,
several at once, cut off, fenced, behind reasoning, and natural-language
intents with arguments, their values drawn from the same hostile pieces.
"""

from __future__ import annotations

import json
import random
from typing import Any

from support.parse_corpus import write

Schema = dict[str, Any]

#: The pieces that break formats; a hostile string is a few of them joined with plain words.
PIECES: tuple[str, ...] = (
    "'", "''", '"', "`", "```", "\u2018", "\u2019", "\u201c", "\u201d", "\u00ab", "\u00bb", "\\", "\\n", "\\'",
    "\n", "\r\n", "\t", "#", " # ", ":", ": ", "&", "&amp;", "<", ">", "</tool>", "<![CDATA[", "]]>", "/*", "*/",
    "--", "-- ", "{", "}", "[", "]", "{{", "}}", "|", "${x}", "%s", "%", "@", "!", "*", "&a", "*a", "?", ",",
    ";", "=", "+", "yes", "no", "null", "~", "true", "False", "on", "off", "- ", "-", "! ", "1e3", "0x1F", "007",
    ".inf", "NaN", "inf", " ", "  ", "caf\u00e9", "\u6771\u4eac", "\u05e9\u05dc\u05d5\u05dd",
    "\u0645\u0631\u062d\u0628\u0627",
    "\u202e", "\u200f", "\u200b", "\u200d", "\ufeff", "\u00a0", "\U0001f600", "\x00", "\x1b[31m", "\u2028",
)  # fmt: skip

WORDS = ("the", "member", "value", "city", "it", "a", "of", "to", "order", "ship", "now", "days")


def _hostile_text(rng: random.Random, longest: int = 6) -> str:
    """A string of plain words and hostile pieces; sometimes empty, a lone piece, or a very long line."""
    roll = rng.random()
    if roll < 0.06:
        return ""
    if roll < 0.16:
        return rng.choice(PIECES)
    if roll < 0.19:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(60, 140)))
    parts = []
    for _ in range(rng.randint(1, longest)):
        parts.append(rng.choice(PIECES) if rng.random() < 0.5 else rng.choice(WORDS))
    glue = rng.choice(["", " ", " ", ""])
    text = glue.join(parts)
    if rng.random() < 0.1:
        text = " " + text
    if rng.random() < 0.1:
        text += " "
    return text


def _hostile_name(rng: random.Random, taken: set[str], hostile: bool = True) -> str:
    """A tool or parameter name: usually an identifier, sometimes (``hostile``) one a format must quote."""
    roll = rng.random() if hostile else 0.0
    if roll < 0.55:
        name = "_".join(rng.sample(WORDS, k=rng.randint(1, 3)))
    elif roll < 0.7:
        name = rng.choice(["class", "def", "return", "from", "type", "yes", "null", "true", "on", "end", "select"])
    elif roll < 0.8:
        name = rng.choice(["member-id", "MemberID", "userName", "x.y", "a b", "caf\u00e9", "_", "__init__", "2fa"])
    else:
        name = _hostile_text(rng, 2) or "x"
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def _value(rng: random.Random, kind: str) -> Any:
    if kind == "integer":
        return rng.choice([0, -1, 7, 10**12, 2**63])
    if kind == "number":
        return rng.choice([0.5, -0.0, 1e-7, 1e21, 3.0])
    if kind == "boolean":
        return rng.choice([True, False])
    return _hostile_text(rng, 3)


def _composite(values: random.Random, depth: int = 0) -> Any:
    """A list or an object of hostile strings, numbers, booleans, nulls and (once) nested containers."""

    def item() -> Any:
        roll = values.random()
        if roll < 0.15 and depth < 1:
            return _composite(values, depth + 1)
        if roll < 0.3:
            return values.choice([0, -1.5, 10**12, True, False, None])
        return _hostile_text(values, 3)

    if values.random() < 0.5:
        return [item() for _ in range(values.randint(0, 3))]
    return {_hostile_text(values, 2): item() for _ in range(values.randint(0, 3))}


def _with_composites(schema: Schema, values: random.Random) -> Schema:
    """A list or object property, sometimes with a default, examples or enum values that are lists or objects
    (drawn from ``values``, a stream of their own, so every other draw of a seed stays as it was)."""
    if values.random() < 0.35:
        schema["default"] = _composite(values)
    if values.random() < 0.2:
        schema["examples"] = [_composite(values) for _ in range(values.randint(1, 2))]
    if values.random() < 0.1:
        schema["enum"] = [_composite(values) for _ in range(values.randint(1, 3))]
    return schema


def _property(rng: random.Random, depth: int, names: bool, values: random.Random | None = None) -> Schema:
    roll = rng.random()
    if roll < 0.12 and depth < 2:
        made = _object(rng, depth + 1, names, values)
        return _with_composites(made, values) if values else made
    if roll < 0.2 and depth < 2:
        made = {"type": "array", "items": _property(rng, depth + 1, names, values)}
        return _with_composites(made, values) if values else made
    kind = rng.choice(["string", "string", "string", "integer", "number", "boolean"])
    schema: Schema = {"type": kind}
    if rng.random() < 0.7:
        schema["description"] = _hostile_text(rng)
    if kind == "string" and rng.random() < 0.35:
        members = [_hostile_text(rng, 2) for _ in range(rng.randint(1, 4))]
        schema["enum"] = list(dict.fromkeys(members))
    if kind == "string" and rng.random() < 0.25:
        key, value = rng.choice(
            [("pattern", "^[a-z'\"\\\\]+$"), ("format", "date-time"), ("maxLength", 40), ("minLength", 0),
             ("pattern", "<a>]]>*/--"), ("format", "email")]
        )  # fmt: skip
        schema[key] = value
    if kind in ("integer", "number") and rng.random() < 0.4:
        schema["minimum"] = _value(rng, kind)
        if rng.random() < 0.6:
            schema["maximum"] = rng.choice([7, 100, 10**9])
    if rng.random() < 0.3:
        schema["default"] = rng.choice(schema["enum"]) if "enum" in schema else _value(rng, kind)
    if rng.random() < 0.25:
        schema["examples"] = [rng.choice(schema["enum"]) if "enum" in schema else _value(rng, kind)]
    return schema


def _object(rng: random.Random, depth: int, hostile_names: bool, values: random.Random | None = None) -> Schema:
    taken: set[str] = set()
    names = [_hostile_name(rng, taken, hostile_names) for _ in range(rng.randint(0 if depth else 1, 4))]
    properties = {name: _property(rng, depth, hostile_names, values) for name in names}
    schema: Schema = {"type": "object", "properties": properties}
    if names and rng.random() < 0.7:
        schema["required"] = rng.sample(names, k=rng.randint(0, len(names)))
    if depth and rng.random() < 0.3:
        schema["description"] = _hostile_text(rng)
    return schema


def tool_set(seed: int, hostile_names: bool = True) -> list[Schema]:
    """A seeded hostile tool set: 1 to 4 tools as an OpenAI tool list; ``hostile_names`` False keeps every
    tool and parameter name an identifier, so only the texts and values are hostile."""
    rng = random.Random(seed)
    values = random.Random(f"composite values {seed}")
    taken: set[str] = set()
    tools = []
    for _ in range(rng.randint(1, 4)):
        name = _hostile_name(rng, taken, hostile_names)
        function: Schema = {"name": name, "parameters": _object(rng, 0, hostile_names, values)}
        if rng.random() < 0.9:
            function["description"] = _hostile_text(rng, 10)
        tools.append({"type": "function", "function": function})
    return tools


def hostile_request(seed: int) -> str:
    """A user's request for the two-stage prompt, as hostile as the set's texts."""
    return _hostile_text(random.Random(f"request {seed}"), 8)


# -- replies ------------------------------------------------------------------------------------------------

DECLINES = (
    "I cannot help with that.",
    "I can't help with that request.",
    "Sorry, I won't do that.",
    "I'm unable to do this; none of the tools fit.",
    "No tool is needed here. The answer is 42.",
    "I don't have a tool for that.",
    "NO_CALL",
    "",
    "   \n",
)


def _args(rng: random.Random, tool: Schema) -> dict[str, Any]:
    properties = tool["function"]["parameters"].get("properties", {})
    chosen: dict[str, Any] = {}
    for name, schema in properties.items():
        if rng.random() < 0.8:
            kind = schema.get("type", "string")
            if kind in ("object", "array"):
                # Empty, not a list or object enum value: the replies stay as they were drawn before such enums.
                chosen[name] = {} if kind == "object" else []
            elif "enum" in schema and rng.random() < 0.8:
                chosen[name] = rng.choice(schema["enum"])
            else:
                chosen[name] = _value(rng, kind)
    return chosen


def _py(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    # Non-ASCII text is written as it stands, as models write it.
    return json.dumps(value, ensure_ascii=False)


def _call_text(rng: random.Random, protocol: str, name: str, args: dict[str, Any]) -> str:
    """One call as a model writes it for ``protocol`` (roughly: the parser must cope either way)."""
    arguments = json.dumps(args, ensure_ascii=False)
    pairs_py = ", ".join(f"{k}={_py(v)}" for k, v in args.items())
    if protocol in ("json_object", "code_block_json", "native", "slot_fill_call", "jsonl_call"):
        return json.dumps({"name": name, "arguments": args}, ensure_ascii=False)
    if protocol == "json_array":
        return json.dumps([{"name": name, "arguments": args}], ensure_ascii=False)
    if protocol == "tool_call_tags":
        return f"<tool_call>\n{json.dumps({'name': name, 'arguments': args}, ensure_ascii=False)}\n</tool_call>"
    if protocol == "function_tags":
        return f"<function={name}>{arguments}</function>"
    if protocol == "xml_call":
        params = "".join(f'<parameter name="{k}">{v if isinstance(v, str) else json.dumps(v)}</parameter>'
                         for k, v in args.items())  # fmt: skip
        return f'<function_calls>\n<invoke name="{name}">{params}</invoke>\n</function_calls>'
    if protocol == "xml_generic_call":
        return f"<call><name>{name}</name><arguments>{arguments}</arguments></call>"
    if protocol in ("python_call", "python_tag"):
        return f"{name}({pairs_py})"
    if protocol in ("python_list_call", "bfcl_python_list"):
        return f"[{name}({pairs_py})]"
    if protocol == "bracket_call":
        return f"[{name}({pairs_py})]"
    if protocol == "cli_call":
        return name + "".join(f" --{k} {json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
    if protocol == "sql_call":
        return f"SELECT {name}({pairs_py});"
    if protocol == "graphql_call":
        inner = ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in args.items())
        return f"mutation {{ {name}({inner}) }}"
    if protocol == "url_call":
        return f"GET /{name}?" + "&".join(f"{k}={v}" for k, v in args.items())
    if protocol == "sexpr_call":
        return f"({name}" + "".join(f" :{k} {json.dumps(v, ensure_ascii=False)}" for k, v in args.items()) + ")"
    if protocol == "key_value_call":
        return f"tool: {name}\n" + "\n".join(f"{k}: {v}" for k, v in args.items())
    if protocol == "yaml_call":
        return f"name: {name}\narguments:\n" + "\n".join(f"  {k}: {json.dumps(v, ensure_ascii=False)}"
                                                         for k, v in args.items())  # fmt: skip
    if protocol == "toml_call":
        return f'name = "{name}"\n[arguments]\n' + "\n".join(
            f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in args.items()
        )
    if protocol in ("pipe_call", "csv_call", "table_call"):
        sep = {"pipe_call": " | ", "csv_call": ",", "table_call": " | "}[protocol]
        return sep.join([name, *(f"{k}={v}" for k, v in args.items())])
    if protocol == "symbolic_call":
        return f"\u2192 {name}(" + ", ".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in args.items()) + ")"
    if protocol == "two_step_call":
        return f"TOOL: {name}\nARGS: {arguments}"
    if protocol == "react":
        return f"Thought: I need {name}.\nAction: {name}\nAction Input: {arguments}"
    if protocol == "nl_intent_structured":
        return f"Use {name} with " + ", ".join(f"{k} = {v}" for k, v in args.items()) + "."
    # nl_intent and anything else: a sentence.
    said = " and ".join(f"{k} {v}" for k, v in args.items())
    return f"I would use {name} with {said}." if said else f"I would use {name}."


#: Each kind of reply by the name the fixed parse corpus (parse_corpus.py) gives it, so parse_differences.py's
#: named differences apply to it alike.
KIND_NAMES = {
    "plain": "valid", "decline": "no_call", "prose": "prose_around", "several": "several_calls", "cut": "cut_off",
    "fenced": "fenced", "reasoning": "reasoning_in_front", "intent": "lenient_from_nl_intent",
    "invented": "invented_name", "loose": "loose_syntax",
}  # fmt: skip


def replies(seed: int, tools: list[Schema], protocols: list[str]) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(kind, protocol, text, options) replies of every kind for ``tools``, seeded; kind as KIND_NAMES names it,
    or ``lenient_from_<protocol>`` for a call written in another protocol's syntax.

    A call is written in its protocol's own syntax as the fixed corpus writes it (parse_corpus.write); the
    ``loose`` kind writes it as models also do, near that syntax (``SELECT f(a='x')`` for ``f(a => 'x')``,
    TOML without its ``[[call]]`` table, a pipe line for a table)."""
    rng = random.Random(seed)
    cases = []
    for protocol in protocols:
        tool = rng.choice(tools)
        name = tool["function"]["name"]
        args = _args(rng, tool)
        call = write(protocol, [(name, args)])
        other = rng.choice(tools)
        second = (other["function"]["name"], _args(rng, other))
        kind = rng.choice(
            ["plain", "decline", "prose", "several", "cut", "fenced", "reasoning", "intent", "invented", "lenient",
             "loose"]
        )  # fmt: skip
        if kind == "decline":
            text = rng.choice(DECLINES)
        elif kind == "prose":
            text = f"{_hostile_text(rng, 3)}\n{call}\n{rng.choice(['Done.', 'Let me know!', _hostile_text(rng, 2)])}"
        elif kind == "several":
            text = write(protocol, [(name, args), second])
        elif kind == "cut":
            text = call[: rng.randint(0, max(0, len(call) - 1))]
        elif kind == "fenced":
            text = f"```{rng.choice(['', 'json', 'python', 'xml', 'yaml'])}\n{call}\n```"
        elif kind == "reasoning":
            thought = _hostile_text(rng, 4)
            text = rng.choice([f"<think>{thought}</think>\n{call}", f"<thinking>\n{thought}\n</thinking>\n{call}",
                               f"Reasoning: {thought}\n\n{call}"])  # fmt: skip
        elif kind == "intent":
            text = _call_text(rng, rng.choice(["nl_intent", "nl_intent_structured"]), name, _args(rng, tool))
        elif kind == "invented":
            text = write(protocol, [("launch_" + name, args)])
        elif kind == "lenient":
            written_as = rng.choice(protocols)
            text = write(written_as, [(name, _args(rng, tool))])
        elif kind == "loose":
            text = _call_text(rng, protocol, name, args)
        else:
            text = call
        rule = rng.choice(["main", "main", "symmetric", "as_written"])
        # The lenient fallback is a repair, which the as_written rule refuses: drawn only under the others.
        options = {"rule": rule, "lenient_fallback": rule != "as_written" and rng.random() < 0.3,
                   "validate": rng.random() < 0.9}  # fmt: skip
        label = f"lenient_from_{written_as}" if kind == "lenient" else KIND_NAMES[kind]
        cases.append((label, protocol, text, options))
    return cases
