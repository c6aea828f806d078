"""The markup family: XML, XSD, HTML forms, Markdown docs, REST and curl listings."""

from __future__ import annotations

from decimal import Decimal
from xml.sax.saxutils import escape

from toolform.ir import FieldIR, ToolIR, TypeIR
from toolform.render.families import Renderer
from toolform.render.options import RenderOptions
from toolform.render.values import json_dumps, kebab, plain


def quoteattr(text: str) -> str:
    """An attribute value between double quotes, ``&``, ``<`` and ``>`` escaped and nothing else, as measured."""
    return f'"{escape(text)}"'


def _xml_param(p: FieldIR, depth: int) -> list[str]:
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


def xml_schema(tools: list[ToolIR], options: RenderOptions) -> str:
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


def xml_attributes(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["<tools>"]
    for t in tools:
        desc = f" desc={quoteattr(t.description)}" if t.description else ""
        lines.append(f"  <tool name={quoteattr(t.name)}{desc}>")
        for p in t.params:
            attrs = f'name={quoteattr(p.name)} type="{p.type.kind}"'
            if p.required:
                attrs += ' required="true"'
            if p.type.kind == "enum":
                attrs += f" values={quoteattr('|'.join(plain(v) for v in p.type.enum_values))}"
            if p.description:
                attrs += f" desc={quoteattr(p.description)}"
            lines.append(f"    <param {attrs}/>")
        lines.append("  </tool>")
    lines.append("</tools>")
    return "\n".join(lines)


_XSD = {
    "string": "xs:string",
    "number": "xs:decimal",
    "integer": "xs:integer",
    "boolean": "xs:boolean",
    "object": "xs:anyType",
}


def _xsd_kind(t: TypeIR) -> str:
    return _XSD.get(t.kind, "xs:string")


def xsd(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ['<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">']
    for t in tools:
        lines.append(f"  <xs:element name={quoteattr(t.name)}>")
        if t.description:
            lines += [
                "    <xs:annotation>",
                f"      <xs:documentation>{escape(t.description)}</xs:documentation>",
                "    </xs:annotation>",
            ]
        lines += ["    <xs:complexType>", "      <xs:sequence>"]
        for p in t.params:
            occurs = "" if p.required else ' minOccurs="0"'
            if p.type.kind == "enum":
                lines += [
                    f"        <xs:element name={quoteattr(p.name)}{occurs}>",
                    "          <xs:simpleType>",
                    '            <xs:restriction base="xs:string">',
                    *(f"              <xs:enumeration value={quoteattr(plain(v))}/>" for v in p.type.enum_values),
                    "            </xs:restriction>",
                    "          </xs:simpleType>",
                    "        </xs:element>",
                ]
            else:
                lines.append(f'        <xs:element name={quoteattr(p.name)} type="{_xsd_kind(p.type)}"{occurs}/>')
        lines += ["      </xs:sequence>", "    </xs:complexType>", "  </xs:element>"]
    lines.append("</xs:schema>")
    return "\n".join(lines)


_HTML_INPUT = {"number": "number", "integer": "number", "boolean": "checkbox"}


def html_forms(tools: list[ToolIR], options: RenderOptions) -> str:
    forms = []
    for t in tools:
        lines = [f'<form action="/{t.name}" method="post">']
        if t.description:
            lines.append(f"  <legend>{escape(t.description)}</legend>")
        for p in t.params:
            lines.append(f"  <label for={quoteattr(p.name)}>{escape(p.description or p.name)}</label>")
            required = " required" if p.required else ""
            if p.type.kind == "enum":
                lines.append(f"  <select name={quoteattr(p.name)}{required}>")
                for v in p.type.enum_values:
                    lines.append(f"    <option value={quoteattr(plain(v))}>{escape(plain(v))}</option>")
                lines.append("  </select>")
                continue
            attrs = f'name={quoteattr(p.name)} type="{_HTML_INPUT.get(p.type.kind, "text")}"{required}'
            c = p.type.constraints
            for key, attr in (("minimum", "min"), ("maximum", "max"), ("pattern", "pattern")):
                if c.get(key) is not None:
                    attrs += f" {attr}={quoteattr(plain(c[key]))}"
            if p.has_default:
                attrs += f" value={quoteattr(plain(p.default))}"
            lines.append(f"  <input {attrs}>")
        lines += ['  <button type="submit">Run</button>', "</form>"]
        forms.append("\n".join(lines))
    return "\n\n".join(forms)


def docs_type(t: TypeIR) -> str:
    """A type in words for the documentation formats: ``array of string``, ``one of `a`, `b```."""
    if t.kind == "array":
        return f"array of {docs_type(t.item) if t.item else 'any'}"
    if t.kind == "enum":
        return "one of " + ", ".join(f"`{plain(v)}`" for v in t.enum_values)
    if t.kind == "union":
        return " or ".join(docs_type(u) for u in t.union_of)
    return t.kind


def _docs_param(p: FieldIR, depth: int) -> list[str]:
    line = f"{'    ' * depth}- `{p.name}` (*{docs_type(p.type)}*, {'required' if p.required else 'optional'})"
    if p.description:
        line += f" — {p.description}"
    if p.has_default and depth == 0:
        line += f" Default: `{plain(p.default)}`."
    lines = [line]
    # Only one level of fields is shown.
    if p.type.kind == "object" and depth == 0:
        for f in p.type.fields:
            lines += _docs_param(f, depth + 1)
    return lines


def markdown_docs(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["# Available tools"]
    for t in tools:
        lines += ["", f"## `{t.name}`"]
        if t.description:
            lines += ["", t.description]
        if t.params:
            lines += ["", "**Parameters**", ""]
            for p in t.params:
                lines += _docs_param(p, 0)
        if t.returns_description:
            lines += ["", f"**Returns** — {t.returns_description}"]
    return "\n".join(lines)


def rest_endpoints(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        lines = [f"POST /{kebab(t.name)}"]
        if t.description:
            lines.append(f"  Summary: {t.description}")
        lines.append("  Body (application/json):")
        for p in t.params:
            line = f"    {p.name} : {docs_type(p.type)} [{'required' if p.required else 'optional'}]"
            lines.append(line + (f" - {p.description}" if p.description else ""))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


_NESTED_EXAMPLES: dict[str, object] = {"number": Decimal("1.0"), "integer": 1, "boolean": True}


def example_value(p: FieldIR) -> object:
    """A placeholder value of the parameter's type, for the curl examples."""
    t = p.type
    if t.kind == "array":
        return [_nested_example(t.item)] if t.item is not None else []
    if t.kind == "object":
        return {f.name: _nested_example(f.type) for f in t.fields}
    if t.kind == "enum":
        return _nested_example(t)
    return _NESTED_EXAMPLES.get(t.kind, f"<{p.name}>")


def _nested_example(t: TypeIR) -> object:
    """Inside an object or a list: numbers, booleans and enums get a value, anything else the word "value"."""
    if t.kind == "enum":
        return t.enum_values[0] if t.enum_values else ""
    return _NESTED_EXAMPLES.get(t.kind, "value")


def curl_examples(tools: list[ToolIR], options: RenderOptions) -> str:
    blocks = []
    for t in tools:
        # A parameter's example, else its default, else a placeholder; non-ASCII escaped, as measured.
        values = {
            p.name: p.example if p.has_example else p.default if p.has_default else example_value(p)
            for p in t.required_params
        }
        body = json_dumps(values)
        lines = [f"# {t.description}"] if t.description else []
        lines += [
            f"curl -X POST https://api.tools/{t.name} \\",
            "  -H 'Content-Type: application/json' \\",
            f"  -d '{body}'",
        ]
        if t.optional_params:
            lines.append("# optional fields: " + ", ".join(p.name for p in t.optional_params))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


RENDERERS: dict[str, Renderer] = {
    "xml_attributes": xml_attributes,
    "xsd": xsd,
    "html_forms": html_forms,
    "markdown_docs": markdown_docs,
    "rest_endpoints": rest_endpoints,
    "curl_examples": curl_examples,
    "xml_schema": xml_schema,
}
