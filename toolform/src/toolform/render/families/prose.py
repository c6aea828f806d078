"""The prose family: tools described in sentences, man pages, FAQs, reference cards."""

from __future__ import annotations

from toolform.render.families import Renderer
from toolform.render.model import Param, Tool
from toolform.render.options import RenderOptions
from toolform.render.types import nl_type
from toolform.render.values import plain, sentence


def and_list(items: list[str]) -> str:
    """``a``, ``a, and b``, ``a, b, and c``: the comma before ``and`` even for two."""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + ", and " + items[-1]


def _nl_param(p: Param) -> str:
    text = f"{p.name}, which is {nl_type(p.type)}"
    if p.has_default:
        text += f" and defaults to {plain(p.default)}"
    if p.description:
        text += f" ({sentence(p.description)})"
    return text


def natural_language(tools: list[Tool], options: RenderOptions) -> str:
    blocks = []
    for number, tool in enumerate(tools, 1):
        text = f"{number}. The tool {tool.name}."
        if tool.description:
            text += f" {sentence(tool.description)}."
        if tool.required:
            text += f" It always needs {and_list([_nl_param(p) for p in tool.required])}."
        if tool.optional:
            text += f" You may also give {and_list([_nl_param(p) for p in tool.optional])}."
        if tool.returns_description:
            text += f" It gives back {sentence(tool.returns_description)}."
        blocks.append(text)
    return "\n\n".join(blocks)


RENDERERS: dict[str, Renderer] = {
    "natural_language": natural_language,
}
