"""Scanning a tool set: every text a model reads, field by field, through every rule.

Fields are named as the reference names them: ``description`` (the tool's),
``param:PATH`` (a parameter's or nested field's description, PATH dotted),
``example:PATH``, ``enum:PATH`` (each string enum value) and ``default:PATH``.
An array's item belongs to the array's path.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from toolform.guard.reading import Reading
from toolform.guard.rules import Catalogue, Context, Finding
from toolform.guard.text_hits import text_hits
from toolform.ir import FieldIR, ToolIR, ToolSet, TypeIR
from toolform.ir.types import Kind


@dataclass(frozen=True)
class FieldText:
    """One text of one tool: the field's name, its kind, and the text."""

    field: str
    kind: str
    text: str


def _type_texts(path: str, type_: TypeIR) -> Iterator[FieldText]:
    if type_.kind is Kind.ENUM:
        for value in type_.enum_values:
            if isinstance(value, str):
                yield FieldText(f"enum:{path}", "enum", value)
    for member in type_.union_of:
        yield from _type_texts(path, member)
    if type_.item is not None:
        yield from _type_texts(path, type_.item)
    for child in type_.fields:
        yield from _field_texts(f"{path}.{child.name}", child)


def _field_texts(path: str, field: FieldIR) -> Iterator[FieldText]:
    if field.description:
        yield FieldText(f"param:{path}", "param", field.description)
    if isinstance(field.example, str):
        yield FieldText(f"example:{path}", "example", field.example)
    enum_and_children = list(_type_texts(path, field.type))
    own_enum = f"enum:{path}"
    yield from (t for t in enum_and_children if t.field == own_enum)
    if isinstance(field.default, str):
        yield FieldText(f"default:{path}", "default", field.default)
    yield from (t for t in enum_and_children if t.field != own_enum)


def tool_texts(tool: ToolIR) -> Iterator[FieldText]:
    """Every text of the tool a model reads, in the reference's order."""
    if tool.description:
        yield FieldText("description", "description", tool.description)
    for param in tool.params:
        yield from _field_texts(param.name, param)


def param_names(tool: ToolIR) -> frozenset[str]:
    """Every parameter and nested field name of the tool."""
    names: set[str] = set()

    def walk(fields: list[FieldIR]) -> None:
        for f in fields:
            names.add(f.name)
            for t in f.type.walk():
                walk(t.fields)

    walk(tool.params)
    return frozenset(names)


def scan(toolset: ToolSet, extra_rules: bool = True) -> list[Finding]:
    """Every finding at every severity, tool by tool, field by field, by start then rule id.

    ``extra_rules`` adds this project's rules (TS201 on) to the reference's, and
    makes the two changes ``refinements`` names to the reference's. Without it,
    the findings are the reference's.
    """
    names_of = {tool.name: param_names(tool) for tool in toolset}
    catalogue = Catalogue(tuple(toolset.names), frozenset().union(*names_of.values()))
    reading = Reading()
    findings: list[Finding] = []
    for tool in toolset:
        names = names_of[tool.name]
        for text in tool_texts(tool):
            ctx = Context(tool.name, names, text.kind, catalogue, reading)
            hits = text_hits(text.text, ctx, extra_rules)
            for hit in sorted(hits, key=lambda h: (h.start, h.rule_id, h.end)):
                findings.append(
                    Finding(
                        hit.rule_id,
                        hit.severity,
                        tool.name,
                        text.field,
                        text.text[hit.start : hit.end],
                        hit.start,
                        hit.end,
                        hit.message,
                    )
                )
    return findings
