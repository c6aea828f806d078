"""The tabular family: Markdown, CSV, TSV and ASCII tables, key-value and signature lines."""

from __future__ import annotations

from toolform.render.families import Renderer
from toolform.render.model import Tool
from toolform.render.options import RenderOptions
from toolform.render.types import compact_type
from toolform.render.values import plain


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(tools: list[Tool], options: RenderOptions) -> str:
    lines = ["| tool | param | type | required | default | param_doc | tool_doc |", "|---|---|---|---|---|---|---|"]
    for tool in tools:
        if not tool.params:
            lines.append(f"| {_cell(tool.name)} |  |  |  |  |  |  |")
        for p in tool.params:
            cells = [
                tool.name,
                p.name,
                compact_type(p.type),
                "yes" if p.required else "no",
                plain(p.default) if p.has_default else "",
                p.description,
                tool.description,
            ]
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines)


RENDERERS: dict[str, Renderer] = {
    "markdown_table": markdown_table,
}
