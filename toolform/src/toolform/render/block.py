"""The tool block: the tools written in one format, with the options applied."""

from __future__ import annotations

from toolform.errors import UnknownFormat
from toolform.ir import ToolIR
from toolform.limits import check_rendered_chars
from toolform.render.formats import RENDERERS
from toolform.render.options import RenderOptions, apply_options
from toolform.render.toolsets import ToolsInput, tools_of


def render_tools(tools: list[ToolIR], format_id: str, options: RenderOptions | None = None) -> str:
    """``tools`` written in ``format_id``."""
    renderer = RENDERERS.get(format_id)
    if renderer is None:
        raise UnknownFormat(f"no renderer for format '{format_id}'")
    chosen = options or RenderOptions()
    block = _trimmed(format_id, renderer(apply_options(tools, chosen), chosen))
    check_rendered_chars(len(block))
    return block


#: The formats whose block ends without white space (a last description's trailing space or line break, the
#: last cell's, a YAML scalar's no-break space), as the reference writes them; the others keep what their last
#: line holds.
_TRIMMED_AT_END = frozenset(
    {"sql_udf", "ini", "markdown_docs", "rest_endpoints", "contrastive", "diff_schema", "question_slots",
     "python_dataclass", "csv", "decision_tree", "openapi_yaml", "yaml_schema"}
)  # fmt: skip


def _trimmed(format_id: str, block: str) -> str:
    return block.rstrip() if format_id in _TRIMMED_AT_END else block


def render_shown(shown: list[ToolIR], format_id: str, options: RenderOptions) -> str:
    """``shown`` (tools that ``apply_options`` already gave for ``options``) written in ``format_id``: for
    rendering one tool set in many formats, with the options applied once."""
    renderer = RENDERERS.get(format_id)
    if renderer is None:
        raise UnknownFormat(f"no renderer for format '{format_id}'")
    block = _trimmed(format_id, renderer(shown, options))
    check_rendered_chars(len(block))
    return block


def render_block(toolset: ToolsInput, format_id: str, options: RenderOptions | None = None) -> str:
    """A tool set (a ToolSet, or the IR's dict form) written in ``format_id``."""
    return render_tools(tools_of(toolset), format_id, options)


def tokens_estimate(text: str) -> int:
    """The reference's estimate: a quarter of the characters, rounded half to even, and at least 1."""
    return max(1, round(len(text) / 4))
