"""Writing the IR to each target shape, with what each accepts (``targets.TARGETS``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from toolform.errors import BadRequest
from toolform.export import anthropic, ir, mcp, openai
from toolform.export.checks import check
from toolform.export.targets import TARGETS, Target
from toolform.ir import JsonValue, ToolSet
from toolform.loaders.notes import Notes

_WRITERS: dict[str, Callable[[ToolSet], JsonValue]] = {
    "openai": openai.write,
    "anthropic": anthropic.write,
    "mcp": mcp.write,
    "ir": ir.write,
}


@dataclass(frozen=True)
class ExportResult:
    """Tools in the target's shape, and what that shape could not carry or refuses."""

    to: str
    payload: JsonValue
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        return {"to": self.to, "payload": self.payload, "warnings": list(self.warnings)}


def export(toolset: ToolSet, target: str) -> ExportResult:
    """Write ``toolset`` as ``target`` (openai, anthropic, mcp or ir); BadRequest for another target."""
    spec = TARGETS.get(target)
    if spec is None:
        raise BadRequest(f"unknown export target '{target}'; use one of {', '.join(TARGETS)}")
    notes = Notes()
    for tool in toolset:
        check(tool, spec, notes)
    return ExportResult(to=target, payload=_WRITERS[target](toolset), warnings=notes.messages())


__all__ = ["TARGETS", "ExportResult", "Target", "export"]
