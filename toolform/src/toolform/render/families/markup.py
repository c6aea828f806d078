"""The markup family: XML, XSD, HTML forms, Markdown docs, REST and curl listings."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from toolform.render.families import Renderer
from toolform.render.model import Param, Tool
from toolform.render.options import RenderOptions
from toolform.render.values import plain


def _xml_param(p: Param, depth: int) -> list[str]:
    pad = "  " * depth
    lines = [f'{pad}<parameter name={quoteattr(p.name)} type="{p.type.kind}" required="{str(p.required).lower()}">']
    if p.description:
        lines.append(f"{pad}  <description>{escape(p.description)}</description>")
    t = p.type
    if t.kind == "enum":
        lines.append(f"{pad}  <enum>{escape(', '.join(plain(v) for v in t.enum_values))}</enum>")
    if t.kind == "array" and t.item is not None:
        lines.append(f'{pad}  <items type="{t.item.kind}"/>')
    if t.kind == "object" and t.fields:
        lines.append(f"{pad}  <fields>")
        for f in t.fields:
            lines += _xml_param(f, depth + 2)
        lines.append(f"{pad}  </fields>")
    if p.has_default:
        lines.append(f"{pad}  <default>{escape(plain(p.default))}</default>")
    lines.append(f"{pad}</parameter>")
    return lines


def xml_schema(tools: list[Tool], options: RenderOptions) -> str:
    lines = ["<tools>"]
    for tool in tools:
        lines += ["  <tool>", f"    <name>{escape(tool.name)}</name>"]
        if tool.description:
            lines.append(f"    <description>{escape(tool.description)}</description>")
        lines.append("    <parameters>")
        for p in tool.params:
            lines += _xml_param(p, 3)
        lines.append("    </parameters>")
        if tool.returns_description:
            lines.append(f"    <returns>{escape(tool.returns_description)}</returns>")
        lines.append("  </tool>")
    lines.append("</tools>")
    return "\n".join(lines)


RENDERERS: dict[str, Renderer] = {
    "xml_schema": xml_schema,
}
