"""One module per family of formats; each maps its format ids to renderers."""

from __future__ import annotations

from collections.abc import Callable

from toolform.ir import ToolIR
from toolform.render.options import RenderOptions

#: A renderer turns the tools (options already applied) into the tool block.
Renderer = Callable[[list[ToolIR], RenderOptions], str]
