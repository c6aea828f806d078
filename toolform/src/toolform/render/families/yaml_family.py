"""The YAML family: JSON Schema as YAML, flow style, minimal, documented, anchors, OpenAPI."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from toolform.ir import ToolIR, TypeIR
from toolform.render import yaml_text
from toolform.render.families import Renderer
from toolform.render.families.json_family import openapi_document
from toolform.render.json_schema import parameters_schema, returns_schema
from toolform.render.options import RenderOptions
from toolform.render.values import json_dumps, plain


def _schema_entry(tool: ToolIR) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": tool.name}
    if tool.description:
        entry["description"] = tool.description
    entry["parameters"] = parameters_schema(tool)
    returns = returns_schema(tool)
    if returns is not None:
        entry["returns"] = returns
    return entry


def yaml_schema(tools: list[ToolIR], options: RenderOptions) -> str:
    return yaml_text.dump([_schema_entry(t) for t in tools])


def yaml_flow(tools: list[ToolIR], options: RenderOptions) -> str:
    return yaml_text.flow([_schema_entry(t) for t in tools])


def short_type(t: TypeIR) -> str:
    """``enum(a|b)``, ``[string]``, ``{a: string}``: a type as the short YAML formats write it."""
    if t.kind == "object":
        return "{" + ", ".join(f"{f.name}: {short_type(f.type)}" for f in t.fields) + "}"
    if t.kind == "array":
        return f"[{short_type(t.item) if t.item else 'any'}]"
    if t.kind == "enum":
        return "enum(" + "|".join(plain(v) for v in t.enum_values) + ")"
    if t.kind == "union":
        return "|".join(short_type(u) for u in t.union_of)
    return t.kind


def _short_params(t: ToolIR, pad: str) -> list[str]:
    return [f"{pad}{p.name}{'' if p.required else '?'}: {short_type(p.type)}" for p in t.params]


def yaml_minimal(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        lines.append(f"{t.name}:")
        lines += _short_params(t, "  ")
    return "\n".join(lines)


def yaml_documented(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"# {t.description}"] if t.description else []
        lines += [f"- name: {t.name}", "  parameters:"]
        for p in t.params:
            lines.append(f"    {p.name}:" + (f"  # {p.description}" if p.description else ""))
            lines.append(f"      type: {short_type(p.type)}")
            lines.append(f"      presence: {'required' if p.required else 'optional'}")
            if p.has_default:
                shown = _anchors_scalar(p.default) if isinstance(p.default, str) else json_dumps(p.default)
                lines.append(f"      default: {shown}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


#: A yaml_anchors description or a yaml_documented default holding one of these, or space at either end,
#: or empty, is written as a JSON string, as measured.
_ANCHORS_QUOTED = frozenset(":#'\"[]{}&*!|>%@`")


def _anchors_scalar(text: str) -> str:
    if not text or text != text.strip() or not _ANCHORS_QUOTED.isdisjoint(text):
        return json.dumps(text)
    return text


def yaml_anchors(tools: list[ToolIR], options: RenderOptions) -> str:
    # An object type written more than once is defined once, as an anchor, and aliased.
    counts = Counter(short_type(p.type) for t in tools for p in t.params)
    repeated = [kind for kind, n in counts.items() if n > 1 and kind.startswith("{") and kind != "{}"]
    anchors = {kind: f"s{i}" for i, kind in enumerate(repeated)}
    lines = []
    if anchors:
        lines.append("definitions:")
        lines += [f"  {name}: &{name} {kind}" for kind, name in anchors.items()]
        lines.append("")
    lines.append("tools:")
    for t in tools:
        lines.append(f"  - name: {t.name}")
        if t.description:
            lines.append(f"    description: {_anchors_scalar(t.description)}")
        lines.append("    params:")
        for p in t.params:
            kind = short_type(p.type)
            shown = f"*{anchors[kind]}" if kind in anchors else kind
            lines.append(f"      {p.name}{'' if p.required else '?'}: {shown}")
    return "\n".join(lines)


def openapi_yaml(tools: list[ToolIR], options: RenderOptions) -> str:
    return yaml_text.dump(openapi_document(tools))


RENDERERS: dict[str, Renderer] = {
    "yaml_flow": yaml_flow,
    "yaml_minimal": yaml_minimal,
    "yaml_documented": yaml_documented,
    "yaml_anchors": yaml_anchors,
    "openapi_yaml": openapi_yaml,
    "yaml_schema": yaml_schema,
}
