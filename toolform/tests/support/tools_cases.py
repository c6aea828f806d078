"""Hand-written tool sets for the differential harness: each one a rule of the reference's reading, found by running it.

Each case is a parameters schema; ``shapes`` writes it as every JSON shape a
loader takes. test_tools_differential.py sends each to both servers (load, and
export to every target) and compares the answers under differences.py.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]


def _nest(levels: int, leaf: Schema, kind: str = "object") -> Schema:
    for _ in range(levels):
        leaf = {"type": "object", "properties": {"n": leaf}} if kind == "object" else {"type": "array", "items": leaf}
    return leaf


_NODE = {"type": "object", "properties": {"v": {"type": "string"}, "next": {"$ref": "#/$defs/Node"}}}
_TREE = {
    "type": "object",
    "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}},
    "required": ["value"],
}

CASES: dict[str, Schema] = {
    "ref-chain-13": {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/D0"}},
        "$defs": {**{f"D{i}": {"$ref": f"#/$defs/D{i + 1}"} for i in range(13)}, "D13": {"type": "string"}},
    },
    "ref-chain-11-site-description": {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/D0", "description": "site"}},
        "$defs": {**{f"D{i}": {"$ref": f"#/$defs/D{i + 1}"} for i in range(11)}, "D11": {"type": "integer"}},
    },
    "recursion-direct": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": _NODE}},
    "recursion-through-arrays": {
        "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/Tree"}},
        "required": ["tree"],
        "$defs": {"Tree": _TREE},
    },
    "recursion-alternating": {
        "type": "object",
        "properties": {"x": {"$ref": "#/definitions/A"}},
        "definitions": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/definitions/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/definitions/A"}}},
        },
    },
    "ref-at-the-deepest-level": {
        "type": "object",
        "properties": {"a": _nest(12, {"$ref": "#/$defs/S"})},
        "$defs": {"S": {"type": "string"}},
    },
    "nesting-12-and-13": {
        "type": "object",
        "properties": {"o12": _nest(12, {"type": "string"}), "a13": _nest(13, {"type": "string"}, "array")},
    },
    "top-level-ref": {
        "$ref": "#/$defs/P",
        "$defs": {"P": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
    },
    "nulls": {
        "type": "object",
        "properties": {
            "any_of": {"anyOf": [{"type": "string", "description": "inner", "default": "d"}, {"type": "null"}]},
            "only_null": {"anyOf": [{"type": "null"}]},
            "three": {"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
            "type_list": {"type": ["integer", "null"]},
            "enum_null": {"enum": ["x", None]},
            "null": {"type": "null"},
            "nullable": {"type": "string", "nullable": True},
            "null_default": {"type": "string", "default": None},
            "ref_nullable": {"$ref": "#/$defs/N"},
        },
        "required": ["any_of", "only_null", "three", "type_list", "enum_null", "null", "nullable", "null_default"],
        "$defs": {"N": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
    },
    "missing-and-unknown-types": {
        "type": "object",
        "properties": {"none": {}, "desc_only": {"description": "no type"}, "typo": {"type": "strin"}, "num": 5},
    },
    "enums-and-consts": {
        "type": "object",
        "properties": {
            "ints": {"enum": [1, 2, 3]},
            "nums": {"enum": [1, 2.5]},
            "mixed": {"enum": [1, "a"]},
            "bools": {"enum": [True, False]},
            "lists": {"enum": [[1], [2]]},
            "const": {"const": "x"},
            "typed": {"type": "integer", "enum": [1, 2], "description": "typed"},
            "constrained": {"type": "string", "enum": ["ab"], "maxLength": 4, "pattern": "^a"},
        },
    },
    "constraints-of-the-wrong-kind": {
        "type": "object",
        "properties": {
            "s": {"type": "string", "maxLength": "x", "minLength": 2.5, "pattern": 5, "format": True},
            "n": {"type": "number", "minimum": "3", "maximum": 1.5, "exclusiveMinimum": 0, "multipleOf": 2},
            "a": {"type": "array", "items": {"type": "string"}, "maxItems": True, "minItems": 1, "uniqueItems": True},
        },
    },
    "all-of": {
        "type": "object",
        "properties": {
            "m": {
                "allOf": [
                    {"type": "object", "properties": {"x": {"type": "string"}}},
                    {"type": "object", "properties": {"y": {"type": "integer"}}, "required": ["y"]},
                ]
            },
            "s": {"allOf": [{"type": "string"}, {"minLength": 2}]},
        },
    },
    "arrays": {
        "type": "object",
        "properties": {
            "tuple": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]},
            "prefix": {"type": "array", "prefixItems": [{"type": "integer"}], "items": False, "minItems": 1},
            "bare": {"type": "array"},
            "any_items": {"type": "array", "items": True},
        },
    },
    "strict-mode-object": {
        "type": "object",
        "properties": {"o": {"type": "object", "properties": {"k": {"type": "string"}}, "additionalProperties": False}},
        "required": ["o", "missing"],
        "additionalProperties": False,
        "$schema": "https://json-schema.org/draft/2020-12/schema",
    },
    "examples-and-defaults": {
        "type": "object",
        "properties": {
            "e": {"type": "string", "examples": ["first", "second"], "example": "ignored", "default": "d"},
            "t": {"type": "string", "title": "Title"},
        },
    },
    "parameters-as-json-text": '{"type": "object", "properties": {"a": {"type": "number", "maximum": 0.5}}}',  # type: ignore[dict-item]
}


def tools(name: str) -> list[dict[str, Any]]:
    """The case as two neutral tools (the second flat), so that order and names count too."""
    return [
        {"name": f"case_{name.replace('-', '_')}", "description": f"Case {name}.", "parameters": CASES[name]},
        {"name": "flat", "description": "", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}},
    ]


def shapes(name: str) -> dict[str, tuple[str, Any]]:
    """Every JSON shape of the case: label -> (source, payload)."""
    ts = tools(name)
    return {
        "openai": ("openai", [{"type": "function", "function": t} for t in ts]),
        "anthropic": (
            "anthropic",
            [{"name": t["name"], "description": t["description"], "input_schema": t["parameters"]} for t in ts],
        ),
        "mcp": (
            "mcp",
            {
                "tools": [
                    {"name": t["name"], "description": t["description"], "inputSchema": t["parameters"]} for t in ts
                ]
            },
        ),
        "auto-mcp-jsonrpc": (
            "auto",
            {
                "jsonrpc": "2.0",
                "id": 1,
                "result": {"tools": [{"name": t["name"], "inputSchema": t["parameters"]} for t in ts]},
            },
        ),
    }


#: TypeScript declarations, each a rule of the reference's TypeScript reading.
TS_CASES: dict[str, str] = {
    "jsdoc-multiline": (
        "/**\n * Line one\n * continues.\n *\n * Second paragraph.\n * @param a - the a\n *   more a\n"
        " * @returns it\n */\nexport declare function f(a: string): string;"
    ),
    "interfaces-extend": (
        "interface A { x: string }\ninterface B extends A { y?: number }\ndeclare function f(b: B): void;"
    ),
    "type-alias-union": (
        "type Mode = 'a' | 'b';\ntype M2 = Mode | 'c';\ndeclare function f(m: M2, n: Mode | null): void;"
    ),
    "mixed-union": (
        "declare function f(a: string | number, b: string | number[] | undefined, c: true | false, d: true): void;"
    ),
    "readonly-and-arrays": (
        "declare function f(a: ReadonlyArray<string>, b: readonly number[], c: Array<Array<boolean>>): void;"
    ),
    "object-literal-docs": "declare function f(o: {\n  /** The x. */\n  x: string;\n  y?: number[];\n}): void;",
    "defaults": "function f(a = 'x', b = 3, c = [1, 2], d = { k: 1 }, e: number = -2) {}",
    "intersection": "interface A { x: string }\ndeclare function f(a: A & { y: number }): void;",
    "unknown-type": "declare function f(a: integer, b: int): number;",
    "rest-parameter": "declare function f(a: unknown, b: object, ...rest: string[]): Promise<void>;",
    "recursive-interface": "interface Node { v: string; next?: Node }\ndeclare function rec(n: Node): void;",
    "tuple-and-index": (
        "declare function f(d: [string, number], e: { [k: string]: number }, r: Record<string, number>): void;"
    ),
}

#: Python modules (files under data/), each loaded by our SDK and by the reference's `toolform convert`.
PYTHON_MODULES: list[str] = ["python_tools.py.txt", "python_more_tools.py.txt"]


#: IR tools (beside the study's sample tool) exported to every target by both servers.
IR_TOOLS: dict[str, list[dict[str, Any]]] = {
    "everything": [
        {
            "name": "f",
            "description": "All the parts.",
            "params": [
                {"name": "a", "type": {"kind": "string", "constraints": {"format": "email"}}, "example": "x@y.z"},
                {"name": "b", "type": {"kind": "enum", "enum_values": ["p", "q"], "base": "string"}, "default": "p"},
                {"name": "c", "type": {"kind": "union", "union_of": [{"kind": "null"}, {"kind": "integer"}]}},
                {"name": "d", "type": {"kind": "array"}, "required": False},
                {"name": "e", "type": {"kind": "object"}, "required": False},
                {"name": "g", "type": {"kind": "any"}, "required": False, "description": "anything"},
            ],
            "domain": "legal",
            "returns": {"kind": "string"},
            "returns_description": "text",
            "examples": [{"a": "x@y.z"}],
            "tags": ["t"],
            "annotations": {"mcp": {"title": "F", "annotations": {"readOnlyHint": True}}, "other": 1},
        }
    ],
}
