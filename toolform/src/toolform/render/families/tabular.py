"""The tabular family: Markdown, CSV, TSV and ASCII tables, key-value and signature lines."""

from __future__ import annotations

import csv as csv_module
import io

from toolform.ir import ToolIR, TypeIR
from toolform.render.families import Renderer
from toolform.render.options import RenderOptions
from toolform.render.types import compact_type
from toolform.render.values import first_sentence, plain


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


_HEADER = ["tool", "param", "type", "required", "default", "param_doc", "tool_doc"]
# Without descriptions the two documentation columns go.
_SHOWN_WITHOUT_DESCRIPTIONS = 5


def table_header(options: RenderOptions) -> list[str]:
    """The columns shown: all seven, or five without descriptions."""
    return _HEADER if options.descriptions else _HEADER[:_SHOWN_WITHOUT_DESCRIPTIONS]


def table_rows(tools: list[ToolIR], options: RenderOptions) -> list[list[str]]:
    """One row per parameter (a tool without any gets one empty row), in the table formats' columns."""
    width = len(table_header(options))
    rows = []
    for t in tools:
        if not t.params:
            # A tool without parameters still shows its description in the last column.
            rows.append([t.name, "", "", "", "", "", t.description][:width])
        for p in t.params:
            default = plain(p.default) if p.has_default else ""
            row = [t.name, p.name, compact_type(p.type), "yes" if p.required else "no", default]
            rows.append([*row, p.description, t.description][:width])
    return rows


def markdown_table(tools: list[ToolIR], options: RenderOptions) -> str:
    header = table_header(options)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table_rows(tools, options)]
    return "\n".join(lines)


def _separated(tools: list[ToolIR], delimiter: str, options: RenderOptions) -> str:
    out = io.StringIO()
    writer = csv_module.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(table_header(options))
    writer.writerows(table_rows(tools, options))
    return out.getvalue().rstrip("\n")


def csv(tools: list[ToolIR], options: RenderOptions) -> str:
    return _separated(tools, ",", options)


def tsv(tools: list[ToolIR], options: RenderOptions) -> str:
    # A tab inside a cell would start another column: it is written as a space, as the reference writes it.
    rows = [table_header(options), *table_rows(tools, options)]
    return "\n".join("\t".join(cell.replace("\t", " ") for cell in row) for row in rows)


def ascii_table(tools: list[ToolIR], options: RenderOptions) -> str:
    rows = [table_header(options), *table_rows(tools, options)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    rule = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(row: list[str]) -> str:
        return "| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) + " |"

    return "\n".join([rule, line(rows[0]), rule, *(line(r) for r in rows[1:]), rule])


def key_value_lines(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        if t.description:
            lines.append(f"# {t.name} — {t.description}")
        for p in t.params:
            line = f"{t.name}.{p.name}: {compact_type(p.type)} ({'required' if p.required else 'optional'})"
            if p.has_default:
                line += f" = {plain(p.default)}"
            lines.append(line + (f"  # {p.description}" if p.description else ""))
    return "\n".join(lines)


_SHORT = {"string": "str", "number": "num", "integer": "int", "boolean": "bool"}


def short_kind(t: TypeIR) -> str:
    """``str``, ``[str]``, ``{a:str}``, ``{x|y}``: the compact signature lines' types."""
    if t.kind == "object":
        return "{" + ",".join(f"{f.name}:{short_kind(f.type)}" for f in t.fields) + "}"
    if t.kind == "array":
        return f"[{short_kind(t.item) if t.item else 'any'}]"
    if t.kind == "enum":
        return "{" + "|".join(plain(v) for v in t.enum_values) + "}"
    if t.kind == "union":
        return "|".join(short_kind(u) for u in t.union_of)
    return _SHORT.get(t.kind, t.kind)


def compact_signature_lines(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = []
    for t in tools:
        params = [
            f"{p.name}:{short_kind(p.type)}" if p.required else f"[{p.name}:{short_kind(p.type)}]" for p in t.params
        ]
        line = f"{t.name}: " + " ".join(params)
        lines.append(line + (f"  // {t.description}" if t.description else ""))
    return "\n".join(lines)


def two_stage_index(tools: list[ToolIR], options: RenderOptions) -> str:
    lines = ["INDEX (tool -> purpose)"]
    lines += [f"  {t.name}: {first_sentence(t.description)}" for t in tools]
    lines += ["", "DETAIL"]
    for t in tools:
        lines.append(f"  {t.name}")
        for p in t.params:
            line = f"    {p.name} ({compact_type(p.type)}, {'required' if p.required else 'optional'})"
            lines.append(line + (f": {p.description}" if p.description else ""))
    return "\n".join(lines)


RENDERERS: dict[str, Renderer] = {
    "csv": csv,
    "tsv": tsv,
    "ascii_table": ascii_table,
    "key_value_lines": key_value_lines,
    "compact_signature_lines": compact_signature_lines,
    "two_stage_index": two_stage_index,
    "markdown_table": markdown_table,
}
