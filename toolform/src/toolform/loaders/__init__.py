"""Reading each source shape into the IR, with warnings.

``load(source, payload)`` is the one entry: ``source`` is ``auto`` (the shape is
detected, and the result says which), ``openai``, ``anthropic``, ``mcp``,
``ir``, ``typescript`` (declarations as text), ``flow`` (a ``flow tools``
listing) or ``python`` (functions; never over HTTP, since loading a module runs it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from toolform.errors import LoaderError
from toolform.ir import ToolSet
from toolform.limits import counting_schema_nodes
from toolform.loaders import anthropic, flow, ir, mcp, openai, python, typescript
from toolform.loaders.common import check_values
from toolform.loaders.detect import detect
from toolform.loaders.notes import Notes

SOURCES: tuple[str, ...] = ("auto", "openai", "anthropic", "mcp", "ir", "typescript", "flow", "python")

_LOADERS: dict[str, Callable[..., ToolSet]] = {
    "openai": openai.load,
    "anthropic": anthropic.load,
    "mcp": mcp.load,
    "ir": ir.load,
    "typescript": typescript.load,
    "flow": flow.load,
    "python": python.load,
}


@dataclass(frozen=True)
class LoadResult:
    """Tools read into the IR: the set, the shape that was read, and what was not read faithfully."""

    toolset: ToolSet
    kind: str
    warnings: list[str] = field(default_factory=list)

    @property
    def shape(self) -> str:
        """The shape that was read (for ``auto``, the one detected)."""
        return self.kind


#: Where a reading may be sent instead (the server's worker processes, ``toolform.server.far_loads``): it answers
#: the result, or None for a reading to be done here.
_far_loader: Callable[[str, object], LoadResult | None] | None = None


def set_far_loader(far_loader: Callable[[str, object], LoadResult | None] | None) -> None:
    """Let ``far_loader`` take the readings it chooses, from now on in this process (None: every one here)."""
    global _far_loader
    _far_loader = far_loader


def load(source: str, payload: object) -> LoadResult:
    """Read ``payload`` in the shape ``source`` names; raise LoaderError for tools that do not load.

    Raises PayloadTooLarge when the schemas expand (``$ref``, type aliases) past the schema node
    limit (``toolform.limits.set_schema_node_limit``).
    """
    if _far_loader is not None:
        found = _far_loader(source, payload)
        if found is not None:
            return found
    return load_here(source, payload)


def load_here(source: str, payload: object) -> LoadResult:
    """``load``, in this process whatever ``set_far_loader`` set."""
    if source not in SOURCES:
        raise LoaderError(f"unknown tools source '{source}'; use one of {', '.join(SOURCES)}")
    kind = detect(payload) if source == "auto" else source  # type: ignore[arg-type]
    notes = Notes()
    with counting_schema_nodes():
        toolset = _LOADERS[kind](payload, notes)
    check_values(toolset)
    toolset.source = kind
    return LoadResult(toolset=toolset, kind=kind, warnings=notes.messages())


__all__ = ["SOURCES", "LoadResult", "LoaderError", "load", "load_here", "set_far_loader"]
