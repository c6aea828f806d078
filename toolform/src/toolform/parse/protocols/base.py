"""What every protocol parser shares: the tools it reads against, and what it gives back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolform.ir import ToolIR, ToolSet
from toolform.parse.field_plans import Plans
from toolform.parse.flow_check import FlowChecker
from toolform.parse.literals import exact_json
from toolform.parse.names import NameResolver
from toolform.parse.result import RawCall
from toolform.parse.text_values import convert_arguments


@dataclass(frozen=True)
class ToolsReading:
    """What reading replies against one tool set needs, worked out once: its names resolved, its tools by
    name, the plans of their fields (filled as calls need them).

    Replies read against a tool set that never changes (the server's recent tool sets) may share one.
    """

    resolver: NameResolver
    by_name: dict[str, ToolIR]
    plans: Plans


def tools_reading(tools: ToolSet) -> ToolsReading:
    """A fresh ``ToolsReading`` of ``tools``."""
    return ToolsReading(NameResolver(tools), {t.name: t for t in tools}, Plans())


@dataclass
class Context:
    """The tool set a reply is read against, with its names resolved once."""

    tools: ToolSet
    #: Flow's typed decoding for the tools of a Flow listing (a FlowChecker), when the listing is known.
    flow: FlowChecker | None = None
    #: The tool set's reading, shared with other replies read against it; a fresh one when None.
    reading: ToolsReading | None = None
    resolver: NameResolver = field(init=False)
    #: What checking and normalising the reply's calls needs from each tool, worked out once for the reply.
    plans: Plans = field(init=False)
    _by_name: dict[str, ToolIR] = field(init=False)

    def __post_init__(self) -> None:
        reading = self.reading or tools_reading(self.tools)
        self.resolver = reading.resolver
        self.plans = reading.plans
        self._by_name = reading.by_name

    def tool(self, written: str) -> ToolIR | None:
        """The tool a written name means, or None."""
        resolved = self.resolver.resolve(written)
        return None if resolved is None else self._by_name[resolved]

    def text_call(self, name: str, texts: dict[str, str]) -> RawCall:
        """A call whose argument values are text, converted by the named tool's schema."""
        return RawCall(name, convert_arguments(self.tool(name), texts))


@dataclass
class Found:
    """What a parser found: the calls (possibly none), and a note on how it read them."""

    calls: list[RawCall]
    note: str = ""


#: A protocol's strict parser: the calls in its syntax, or None when the syntax is not there.
Parser = Callable[[str, Context], Found | None]


def found(calls: list[RawCall], note: str = "") -> Found | None:
    """A Found for a non-empty list of calls, None otherwise."""
    return Found(calls, note) if calls else None


def as_arguments(value: Any) -> dict[str, Any] | None:
    """Arguments given as an object (or as JSON text holding one); None when they are neither."""
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    if isinstance(value, str):
        try:
            loaded = exact_json(value)
        except (ValueError, RecursionError):
            return None
        return as_arguments(loaded) if isinstance(loaded, dict) else None
    if value is None:
        return {}
    return None
