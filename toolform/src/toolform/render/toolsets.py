"""What render takes: the IR's tools, from a ToolSet, a list of ToolIR, or the IR's dict form.

The renderers walk the IR itself (``ToolIR``, ``FieldIR``, ``TypeIR``), with
its numbers as read: ints and Decimals. The IR's dict form (a ``ToolSet``'s
``to_dict()``, an IR the reference exports, a fixture) is read by the IR
loader, the same reading as the ``ir`` source of ``/tools/load``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from toolform.ir import ToolIR, ToolSet
from toolform.loaders import ir as ir_loader
from toolform.loaders.notes import Notes


class HasToDict(Protocol):
    """An object that gives a tool set as the IR's dict form."""

    def to_dict(self) -> dict[str, object]: ...


ToolsInput = ToolSet | Sequence[ToolIR] | HasToDict | Mapping[str, Any] | Sequence[Mapping[str, Any]]


def tools_of(toolset: ToolsInput) -> list[ToolIR]:
    """The IR tools of a ToolSet or a list of ToolIR (as they are), or of an IR dict (``{"tools": [...]}``),
    a list of IR tool dicts or anything with ``to_dict()`` (read by the IR loader; LoaderError when they are
    not IR)."""
    if isinstance(toolset, ToolSet):
        return toolset.tools
    if isinstance(toolset, Sequence) and not isinstance(toolset, str) and all(isinstance(t, ToolIR) for t in toolset):
        return list(toolset)  # type: ignore[arg-type]
    if isinstance(toolset, Mapping | Sequence):
        return ir_loader.load(toolset, Notes()).tools  # type: ignore[arg-type]
    return ir_loader.load(toolset.to_dict(), Notes()).tools  # type: ignore[arg-type]
