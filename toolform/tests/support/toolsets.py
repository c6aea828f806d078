"""Generated tool sets for the differential harness: seeded, ugly on purpose, in every loader's shape.

A tool set is drawn as neutral tools (name, description, JSON Schema
parameters) and then written as each source shape takes it: OpenAI (a list, or
``{"tools": [...]}``), Anthropic, MCP (a tools/list result, or its JSON-RPC
response) and TypeScript declarations. The schemas carry what converters get
wrong: ``$ref`` chains, recursion, ``anyOf`` of nulls, a missing or misspelled
``type``, ``oneOf``/``allOf``, draft-7 ``definitions``, ``$schema``, deep nesting.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Schema = dict[str, Any]

WORDS = ["city", "days", "units", "query", "limit", "path", "mode", "user_id", "tags", "price", "when", "note"]
VERBS = ["get", "list", "create", "update", "delete", "search", "send", "read"]
NOUNS = ["forecast", "file", "contract", "invoice", "ticket", "user", "report", "order"]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: Schema


def _scalar(rng: random.Random) -> Schema:
    kind = rng.choice(["string", "integer", "number", "boolean"])
    schema: Schema = {"type": kind}
    if rng.random() < 0.5:
        schema["description"] = rng.choice(["The value.", "Where it stands.", "Naïve café, 東京.", ""])
    if kind == "string" and rng.random() < 0.3:
        schema["enum"] = rng.sample(["draft", "review", "signed", "expired", "a b", ""], k=rng.randint(1, 4))
    if kind == "string" and rng.random() < 0.2:
        key, value = rng.choice([("format", "date-time"), ("pattern", "^[a-z]+$"), ("maxLength", 40)])
        schema[key] = value
    if kind in ("integer", "number") and rng.random() < 0.4:
        schema["minimum"] = 0
        schema["maximum"] = rng.choice([7, 100, 1e9])
    if rng.random() < 0.2:
        schema["default"] = {"string": "x", "integer": 1, "number": 0.5, "boolean": False}[kind]
    return schema


def _ugly(rng: random.Random, depth: int) -> Schema:
    """One property schema, ugly with some probability."""
    roll = rng.random()
    if roll < 0.08:
        return {"anyOf": [_scalar(rng), {"type": "null"}]}
    if roll < 0.11:
        return {"anyOf": [{"type": "null"}]}
    if roll < 0.14:
        return {"type": [rng.choice(["string", "integer"]), "null"]}
    if roll < 0.18:
        return {"description": "no type given"}
    if roll < 0.20:
        return {}
    if roll < 0.23:
        return {"type": "strin"}
    if roll < 0.26:
        return {"enum": [1, "a", None]}
    if roll < 0.30:
        return {"oneOf": [_scalar(rng), _scalar(rng)]}
    if roll < 0.33:
        return {"allOf": [{"type": "object", "properties": {"a": _scalar(rng)}}, {"required": ["a"]}]}
    if roll < 0.45 and depth < 4:
        return _object(rng, depth + 1)
    if roll < 0.55 and depth < 4:
        return {"type": "array", "items": _ugly(rng, depth + 1) if rng.random() < 0.5 else _scalar(rng)}
    return _scalar(rng)


def _object(rng: random.Random, depth: int) -> Schema:
    names = rng.sample(WORDS, k=rng.randint(0, 4))
    properties = {name: _ugly(rng, depth) for name in names}
    schema: Schema = {"type": "object", "properties": properties}
    if names and rng.random() < 0.7:
        schema["required"] = rng.sample(names, k=rng.randint(0, len(names)))
    if rng.random() < 0.1:
        schema["additionalProperties"] = False
    return schema


def _with_refs(rng: random.Random, parameters: Schema) -> Schema:
    """Add a $ref chain, a recursive definition, or draft-7 definitions to ``parameters``."""
    roll = rng.random()
    properties = parameters.setdefault("properties", {})
    if roll < 0.25:
        parameters["$defs"] = {
            "A": {"$ref": "#/$defs/B"},
            "B": {"$ref": "#/$defs/C"},
            "C": {"type": "string", "description": "At the end of the chain."},
        }
        properties["chained"] = {"$ref": "#/$defs/A"}
    elif roll < 0.45:
        parameters["$defs"] = {
            "Node": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
                "required": ["value"],
            }
        }
        properties["tree"] = {"$ref": "#/$defs/Node"}
    elif roll < 0.55:
        parameters["definitions"] = {"Units": {"type": "string", "enum": ["metric", "imperial"]}}
        properties["units"] = {"$ref": "#/definitions/Units"}
    elif roll < 0.62:
        properties["dangling"] = {"$ref": "#/$defs/Missing"}
    if rng.random() < 0.15:
        parameters["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return parameters


def tool_set(seed: int, count: int | None = None) -> list[Tool]:
    """A seeded tool set: 1 to 6 tools (or ``count``), distinct names."""
    rng = random.Random(seed)
    n = count if count is not None else rng.randint(1, 6)
    names: list[str] = []
    while len(names) < n:
        name = f"{rng.choice(VERBS)}_{rng.choice(NOUNS)}"
        if len(names) >= 40 or name in names:
            name = f"{name}_{len(names)}"
        names.append(name)
    tools = []
    for name in names:
        parameters = _object(rng, 0)
        if rng.random() < 0.5:
            parameters = _with_refs(rng, parameters)
        spelled = name.replace("_", " ").capitalize()
        description = rng.choice(["", "Do the thing.", f"{spelled}. Works on the data set."])
        tools.append(Tool(name, description, parameters))
    return tools


# -- the shapes ---------------------------------------------------------------------------------------

def openai_list(tools: list[Tool]) -> list[Schema]:
    return [
        {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
        for t in tools
    ]


def openai_wrapped(tools: list[Tool]) -> Schema:
    return {"tools": openai_list(tools)}


def anthropic(tools: list[Tool]) -> list[Schema]:
    return [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]


def mcp(tools: list[Tool]) -> Schema:
    return {"tools": [{"name": t.name, "description": t.description, "inputSchema": t.parameters} for t in tools]}


def mcp_jsonrpc(tools: list[Tool]) -> Schema:
    return {"jsonrpc": "2.0", "id": 1, "result": mcp(tools)}


_TS_SCALARS = {"string": "string", "integer": "number", "number": "number", "boolean": "boolean"}


def _ts_type(schema: Schema, depth: int = 0) -> str:
    if "enum" in schema and all(isinstance(v, str) for v in schema["enum"]) and schema["enum"]:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, str) and kind in _TS_SCALARS:
        return _TS_SCALARS[kind]
    if kind == "array":
        return f"Array<{_ts_type(schema.get('items', {}), depth + 1)}>"
    if kind == "object" and depth < 4:
        return _ts_fields(schema, depth + 1)
    return "unknown"


def _ts_fields(schema: Schema, depth: int) -> str:
    required = set(schema.get("required", []))
    fields = [
        f"{name}{'' if name in required else '?'}: {_ts_type(sub, depth)}"
        for name, sub in schema.get("properties", {}).items()
    ]
    return "{ " + "; ".join(fields) + (" }" if fields else "}")


def typescript(tools: list[Tool]) -> str:
    """The tools as TypeScript function declarations with JSDoc, one argument object each."""
    blocks = []
    for t in tools:
        doc = f"/** {t.description} */\n" if t.description else ""
        properties = t.parameters.get("properties", {})
        required = set(t.parameters.get("required", []))
        args = ", ".join(
            f"{name}{'' if name in required else '?'}: {_ts_type(sub)}" for name, sub in properties.items()
        )
        blocks.append(f"{doc}export declare function {t.name}({args}): void;")
    return "\n\n".join(blocks) + "\n"


#: Every JSON shape by the source name that reads it, and its name in case ids.
JSON_SHAPES: dict[str, tuple[str, Callable[[list[Tool]], object]]] = {
    "openai": ("openai", openai_list),
    "openai-wrapped": ("openai", openai_wrapped),
    "anthropic": ("anthropic", anthropic),
    "mcp": ("mcp", mcp),
    "mcp-jsonrpc": ("mcp", mcp_jsonrpc),
}
