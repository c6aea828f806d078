"""Tools rendered in the registry's 133 formats, with each protocol's answer instructions.

>>> prompt = render(toolset, "xml_schema")            # the format's default protocol
>>> prompt.tool_block, prompt.instructions, prompt.tokens_estimate
>>> compare(toolset).rows[0]["format_id"]            # the fewest tokens first
"""

from toolform.render.block import render_block, render_tools, tokens_estimate
from toolform.render.compare import FormatComparison, compare
from toolform.render.options import CASE_CONVENTIONS, CaseConvention, RenderOptions, apply_options, convert_case
from toolform.render.prompt import PERSONAS, Persona, RenderedPrompt, render, system_prompt
from toolform.render.sample import format_sample
from toolform.render.visibility import HiddenField, hidden_fields

__all__ = [
    "CASE_CONVENTIONS",
    "PERSONAS",
    "CaseConvention",
    "FormatComparison",
    "HiddenField",
    "Persona",
    "RenderOptions",
    "RenderedPrompt",
    "apply_options",
    "compare",
    "convert_case",
    "format_sample",
    "hidden_fields",
    "render",
    "render_block",
    "render_tools",
    "system_prompt",
    "tokens_estimate",
]
