"""The grammar family: tools as EBNF, llama.cpp's GBNF, a regular expression, type theory, symbols."""

from __future__ import annotations

import json

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.render.families import Renderer
from toolform.render.options import RenderOptions
from toolform.render.values import plain


def _ebnf_term(t: TypeIR) -> str:
    if t.kind == "object":
        members = ' "," '.join(f'"{f.name}" ":" {_ebnf_term(f.type)}' for f in t.fields)
        return f'"{{" {members} "}}"'
    if t.kind == "array":
        item = _ebnf_term(t.item) if t.item else "VALUE"
        return f'"[" [ {item} {{ "," {item} }} ] "]"'
    if t.kind == "enum":
        return " | ".join(json.dumps(plain(v)) for v in t.enum_values)
    if t.kind == "union":
        return " | ".join(_ebnf_term(u) for u in t.union_of)
    return {"string": "STRING", "integer": "INT", "number": "NUMBER", "boolean": "BOOL"}.get(t.kind, "VALUE")


_EBNF_FOOTER = (
    "STRING ::= '\"' { CHAR } '\"'\n"
    'INT    ::= [ "-" ] DIGIT { DIGIT }\n'
    'NUMBER ::= INT [ "." DIGIT { DIGIT } ]\n'
    'BOOL   ::= "true" | "false"'
)


def _rule(t: ToolIR, p: FieldIR) -> str:
    """A parameter's rule name, in snake case whatever the names' case."""
    return f"{t.name}_{p.name}".replace("-", "_")


def ebnf_grammar(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = ["call ::= " + " | ".join(f"{t.name}_call" for t in tools)]
    for t in tools:
        body = ", ".join(f'"{p.name}" ":" {_rule(t, p)}' for p in t.required_params)
        if t.optional_params:
            # Joined even when nothing is required: the reference writes '"(" , [ ...'.
            body += ", " + ", ".join(f'[ "," "{p.name}" ":" {_rule(t, p)} ]' for p in t.optional_params)
        lines = [f"(* {t.description} *)"] if t.description else []
        lines.append(f'{t.name}_call ::= "{t.name}" "(" {body} ")"')
        lines += [f"{_rule(t, p)} ::= {_ebnf_term(p.type)}" for p in t.params]
        blocks.append("\n".join(lines))
    blocks.append(_EBNF_FOOTER)
    return "\n\n".join(blocks)


def _gbnf_quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _gbnf_term(t: TypeIR) -> str:
    if t.kind == "object":
        members = ' "," '.join(f"{_gbnf_quoted(json.dumps(f.name) + ':')} {_gbnf_term(f.type)}" for f in t.fields)
        return f'"{{" {members} "}}"'
    if t.kind == "array":
        item = _gbnf_term(t.item) if t.item else "string"
        return f'"[" ({item} ("," {item})*)? "]"'
    if t.kind == "enum":
        # The value between escaped quotes as it stands, as measured.
        return " | ".join(f'"\\"{plain(v)}\\""' for v in t.enum_values)
    return {"integer": "number", "number": "number", "boolean": "boolean"}.get(t.kind, "string")


_GBNF_FOOTER = 'string ::= "\\"" [^"]* "\\""\nnumber ::= "-"? [0-9]+ ("." [0-9]+)?\nboolean ::= "true" | "false"'


def gbnf_grammar(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = ["root ::= " + " | ".join(f"{t.name}-call" for t in tools)]
    for t in tools:
        items = []
        for p in t.params:
            key = f"{_gbnf_quoted(json.dumps(p.name) + ':')} {t.name}-{p.name}"
            items.append(key if p.required else f"({key})?")
        opening = _gbnf_quoted('{"name":' + json.dumps(t.name) + ',"arguments":{')
        joined = ' "," '.join(items)
        lines = [f'{t.name}-call ::= {opening} {joined} "}}}}"']
        lines += [f"{t.name}-{p.name} ::= {_gbnf_term(p.type)}" for p in t.params]
        blocks.append("\n".join(lines))
    blocks.append(_GBNF_FOOTER)
    return "\n\n".join(blocks)


def _regex_value(t: TypeIR) -> str:
    if t.kind == "number":
        return r"-?\d+(?:\.\d+)?"
    if t.kind == "integer":
        return r"-?\d+"
    if t.kind == "boolean":
        return "(?:true|false)"
    if t.kind == "object":
        return r"\{.*?\}"
    if t.kind == "array":
        return r"\[.*?\]"
    if t.kind == "enum":
        return '"(?:' + "|".join(plain(v) for v in t.enum_values) + ')"'
    return '"[^"]*"'


def regex_spec(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        items = []
        for p in t.params:
            pair = f'"{p.name}":{_regex_value(p.type)}'
            items.append(pair if p.required else f"(?:{pair},?)?")
        line = '^{"name":"' + t.name + '","arguments":{' + ",".join(items) + r"\}\}$"
        blocks.append((f"# {t.description}\n" if t.description else "") + line)
    return "\n\n".join(blocks)


_LAMBDA = {"string": "Str", "number": "Real", "integer": "Int", "boolean": "Bool"}


def _lambda_type(t: TypeIR) -> str:
    if t.kind == "object":
        return "{" + " × ".join(f"{f.name}:{_lambda_type(f.type)}" for f in t.fields) + "}"
    if t.kind == "array":
        return f"List[{_lambda_type(t.item) if t.item else 'Any'}]"
    if t.kind == "enum":
        return "{" + " + ".join(plain(v) for v in t.enum_values) + "}"
    if t.kind == "union":
        return " + ".join(_lambda_type(u) for u in t.union_of)
    return _LAMBDA.get(t.kind, "Any")


def typed_lambda(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        params = " × ".join(f"{p.name}:{_lambda_type(p.type)}{'' if p.required else '?'}" for p in t.params) or "1"
        returns = _lambda_type(t.returns) if t.returns is not None else "Result"
        if t.description:
            lines.append(f"-- {t.description}")
        lines.append(f"{t.name} : {params} → {returns}")
    return "\n".join(lines)


_SYMBOLIC = {"string": "s", "number": "n", "integer": "i", "boolean": "b"}


def _symbolic_type(t: TypeIR) -> str:
    if t.kind == "object":
        return "(" + ",".join(f"{f.name}:{_symbolic_type(f.type)}" for f in t.fields) + ")"
    if t.kind == "array":
        return f"[{_symbolic_type(t.item) if t.item else '*'}]"
    if t.kind == "enum":
        return "{" + ",".join(plain(v) for v in t.enum_values) + "}"
    if t.kind == "union":
        return "/".join(_symbolic_type(u) for u in t.union_of)
    return _SYMBOLIC.get(t.kind, "*")


def symbolic_compressed(tools: list[ToolIR], options: RenderOptions) -> str:
    return "\n".join(
        t.name + "".join(f"{'!' if p.required else '?'}{p.name}:{_symbolic_type(p.type)}" for p in t.params)
        for t in tools
    )


RENDERERS: dict[str, Renderer] = {
    "ebnf_grammar": ebnf_grammar,
    "gbnf_grammar": gbnf_grammar,
    "regex_spec": regex_spec,
    "typed_lambda": typed_lambda,
    "symbolic_compressed": symbolic_compressed,
}
