"""Tools rendered in the registry's formats, with each protocol's answer instructions."""

from toolform.render.block import render_block, render_tools, tokens_estimate
from toolform.render.options import CASE_CONVENTIONS, RenderOptions, apply_options, convert_case

__all__ = [
    "CASE_CONVENTIONS",
    "RenderOptions",
    "apply_options",
    "convert_case",
    "render_block",
    "render_tools",
    "tokens_estimate",
]
