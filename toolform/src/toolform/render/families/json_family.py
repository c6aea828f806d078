"""The JSON family: JSON Schema in its dialects, compact and minimal JSON, JSONL, JSON5 and kin."""

from __future__ import annotations

import re
from typing import Any

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.render.families import Renderer
from toolform.render.json_schema import parameters_schema, returns_schema
from toolform.render.options import RenderOptions
from toolform.render.types import minimal_type
from toolform.render.values import compact_json, indented_json, json_dumps, json_text, kebab, summary_sentence


def openai_function(tool: ToolIR) -> dict[str, Any]:
    """A tool as OpenAI's ``{"type": "function", "function": ...}``."""
    function: dict[str, Any] = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = parameters_schema(tool)
    returns = returns_schema(tool)
    if returns is not None:
        function["returns"] = returns
    return {"type": "function", "function": function}


def json_schema_openai(tools: list[ToolIR], options: RenderOptions) -> str:
    return json_text([openai_function(t) for t in tools], indent=2, minify=options.minify)


def json_minimal(tools: list[ToolIR], options: RenderOptions) -> str:
    listed = [
        {
            "name": t.name,
            "params": {p.name: minimal_type(p.type) for p in t.params},
            "required": [p.name for p in t.required_params],
        }
        for t in tools
    ]
    return compact_json(listed)


def flat_function(tool: ToolIR, schema_key: str = "parameters") -> dict[str, Any]:
    """A tool as ``{"name", "description", <schema_key>, "returns"}``."""
    entry: dict[str, Any] = {"name": tool.name}
    if tool.description:
        entry["description"] = tool.description
    entry[schema_key] = parameters_schema(tool)
    returns = returns_schema(tool)
    if returns is not None:
        entry["returns"] = returns
    return entry


def json_schema_flat(tools: list[ToolIR], options: RenderOptions) -> str:
    return json_text([flat_function(t) for t in tools], indent=2, minify=options.minify)


def json_schema_anthropic(tools: list[ToolIR], options: RenderOptions) -> str:
    return json_text([flat_function(t, "input_schema") for t in tools], indent=2, minify=options.minify)


def json_schema_draft2020(tools: list[ToolIR], options: RenderOptions) -> str:
    documents = []
    for t in tools:
        document: dict[str, Any] = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"https://example.com/tools/{t.name}.json",
            "title": t.name,
        }
        if t.description:
            document["description"] = t.description
        document.update(parameters_schema(t))
        document["additionalProperties"] = False
        documents.append(document)
    return json_text(documents, indent=2, minify=options.minify)


def json_compact(tools: list[ToolIR], options: RenderOptions) -> str:
    return compact_json([openai_function(t) for t in tools])


def names_only(tools: list[ToolIR], options: RenderOptions) -> str:
    return "\n".join(f"- {t.name}" for t in tools)


def names_desc_then_schema(tools: list[ToolIR], options: RenderOptions) -> str:
    summaries = ((t.name, summary_sentence(t.description)) for t in tools)
    return "\n".join(f"- {name}: {summary}" if summary else f"- {name}" for name, summary in summaries)


def json_names_params(tools: list[ToolIR], options: RenderOptions) -> str:
    return compact_json([{"name": t.name, "params": [p.name for p in t.params]} for t in tools])


def jsonl(tools: list[ToolIR], options: RenderOptions) -> str:
    return "\n".join(compact_json(flat_function(t)) for t in tools)


def sig_type(t: TypeIR) -> str:
    """``{a: string, b: "x"|"y"}``, ``string[]``, ``1|2``: a type as the annotated-JSON formats spell it."""
    if t.kind == "object":
        return "{" + ", ".join(f"{f.name}: {sig_type(f.type)}" for f in t.fields) + "}"
    if t.kind == "array":
        return (sig_type(t.item) if t.item else "any") + "[]"
    if t.kind == "enum":
        return "|".join(json_dumps(v) for v in t.enum_values)
    if t.kind == "union":
        return "|".join(sig_type(u) for u in t.union_of)
    return t.kind.value


def _js_key(name: str) -> str:
    """A JSON5 key: bare when it is an identifier, quoted otherwise."""
    return name if re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", name) else _js_string(name)


def _js_string(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def json5(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["["]
    for t in tools:
        lines.append("  {")
        if t.description:
            lines.append(f"    // {t.description}")
        lines += [f"    name: {_js_string(t.name)},", "    params: {"]
        for p in t.params:
            if p.description:
                lines.append(f"      // {p.description}")
            optional = "" if p.required else "  /* optional */"
            # The type between single quotes as it stands, as measured.
            lines.append(f"      {_js_key(p.name)}: '{sig_type(p.type)}',{optional}")
        lines += ["    },", "  },"]
    lines.append("]")
    return "\n".join(lines)


def hjson(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = ["{", f"  name: {t.name}"]
        if t.description:
            lines.append(f"  description: {t.description}")
        lines.append("  params: {")
        for p in t.params:
            line = f"    {p.name}: {sig_type(p.type)} ({'required' if p.required else 'optional'})"
            lines.append(line + (f" - {p.description}" if p.description else ""))
        lines += ["  }", "}"]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def _jsonc_value(value: object) -> str:
    # JSON with non-ASCII escaped, as measured.
    return json_dumps(value)


def jsonc(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["["]
    for t in tools:
        if t.description:
            lines.append(f"  // {t.description}")
        lines += ["  {", f'    "name": {compact_json(t.name)},', '    "parameters": {']
        for p in t.params:
            if p.description:
                lines.append(f"      // {p.description}")
            if not p.required:
                lines.append("      // optional" + (f", default {_jsonc_value(p.default)}" if p.has_default else ""))
            # The type is quoted as it is, inner quotes included, as the study showed it.
            lines.append(f'      "{p.name}": "{sig_type(p.type)}",')
        lines += ["    }", "  },"]
    lines.append("]")
    return "\n".join(lines)


def _dotted(prefix: str, params: list[FieldIR]) -> list[str]:
    lines = []
    for p in params:
        path = f"{prefix}.{p.name}"
        if p.type.kind == "object" and p.type.fields:
            lines += _dotted(path, p.type.fields)
            continue
        item = p.type.item
        if p.type.kind == "array" and item is not None and item.kind == "object":
            lines += _dotted(path + "[]", item.fields)
            continue
        line = f"{path}: {sig_type(p.type)}{'!' if p.required else '?'}"
        lines.append(line + (f"  # {p.description}" if p.description else ""))
    return lines


def json_dotted_paths(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        if t.description:
            lines.append(f"# {t.name}: {t.description}")
        lines += _dotted(t.name, t.params)
    return "\n".join(lines)


def openapi_document(tools: list[ToolIR]) -> dict[str, Any]:
    """The tools as an OpenAPI 3.1 document: one POST path per tool."""
    paths: dict[str, Any] = {}
    for t in tools:
        operation: dict[str, Any] = {
            "operationId": t.name,
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": parameters_schema(t)}},
            },
            "responses": {"200": {"description": t.returns_description or "Success"}},
        }
        if t.description:
            operation["summary"] = t.description
        paths["/" + kebab(t.name)] = {"post": operation}
    return {"openapi": "3.1.0", "info": {"title": "Tool API", "version": "1.0.0"}, "paths": paths}


def openapi_json(tools: list[ToolIR], options: RenderOptions) -> str:
    # Unlike the other JSON formats, OpenAPI's JSON escapes non-ASCII characters.
    if options.minify:
        return json_dumps(openapi_document(tools), separators=(",", ":"))
    return indented_json(openapi_document(tools), 2)


RENDERERS: dict[str, Renderer] = {
    "json_schema_flat": json_schema_flat,
    "json_schema_anthropic": json_schema_anthropic,
    "json_schema_draft2020": json_schema_draft2020,
    "json_compact": json_compact,
    "names_only": names_only,
    "names_then_schema": names_only,
    "names_then_schema_v2": names_only,
    "names_desc_then_schema": names_desc_then_schema,
    "oracle_then_schema": names_only,
    "json_names_params": json_names_params,
    "jsonl": jsonl,
    "json5": json5,
    "hjson": hjson,
    "jsonc": jsonc,
    "json_dotted_paths": json_dotted_paths,
    "openapi_json": openapi_json,
    "json_schema_openai": json_schema_openai,
    "json_minimal": json_minimal,
}
